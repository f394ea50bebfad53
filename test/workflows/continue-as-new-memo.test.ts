/**
 * A run started by continue-as-new carries the order in its memo from its first moment: the API
 * reads an order from its latest run's memo, and a new run may make no change of its own for hours.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { ORDER_MARKET_MEMO_KEY } from '../../src/ranking/order-outcome';
import { ORDER_QUOTE_MEMO_KEY, orderWorkflowId, type OrderMemo } from '../../src/temporal/order-contract';
import { callApi, eventually } from '../helpers/http';
import { SCENARIOS, startScenarioOrder, workflowRuns } from '../helpers/scenarios';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

jest.setTimeout(120_000);

let env: TestWorkflowEnvironment;
let stack: LocalStack;

beforeAll(async () => {
  env = await startTemporal();
  // Polled every 100 ms with a 40-event history: the run continues as new within seconds, unpaid.
  stack = await startTestStack(env, SCENARIOS.find((s) => s.name === 'continue-as-new')!.stack);
});

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

test('the order stays readable across continue-as-new, before its new run changes anything', async () => {
  const { res } = await startScenarioOrder(stack);
  expect(res.status).toBe(200);
  const order = res.body as { id: string };
  const runs = await eventually(
    async () => ((await workflowRuns(env.client, order.id)).length >= 2 ? true : undefined),
    'a second run',
    60_000,
  );
  expect(runs).toBe(true);
  const latest = await env.client.workflow.getHandle(orderWorkflowId(order.id)).describe();
  expect((latest.memo as Partial<OrderMemo> | undefined)?.order?.id).toBe(order.id);
  // The keys the API set at the start go along too (CARRY_START_MEMO_PATCH): the quote exports read.
  expect(latest.memo?.[ORDER_QUOTE_MEMO_KEY]).toEqual({ total_fee_amount: expect.stringMatching(/^\d+(\.\d+)?$/) });
  expect(latest.memo?.[ORDER_MARKET_MEMO_KEY]).toMatchObject({ providerCode: 'sandbox' });
  const status = await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${order.id}`);
  expect(status.status).toBe(200);
  expect(status.body.id).toBe(order.id);
});
