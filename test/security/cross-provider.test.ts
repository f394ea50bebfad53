/**
 * Attack: a provider's genuinely signed event naming an order of another provider. The sandbox's
 * development secret is in the repository, so anyone can sign a sandbox event; it must never move a
 * MoonPay order, whether MoonPay runs against its simulator or live. The API does not signal such an
 * event (so fresh event ids cannot grow the order's history), and the order refuses one all the same
 * (an API of an older version, or a race, may still signal it).
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { MOONPAY_SIMULATOR_CREDENTIALS } from '../../src/providers/moonpay';
import { callApi } from '../helpers/http';
import { offerThenOrder } from '../helpers/orders';
import { freePort } from '../helpers/ports';
import { orderHistory, orderMemo, postWebhook, refusedReports, searchAttributes, signedSandboxEvent } from '../helpers/provider-events';
import { getOrderQuery, orderWorkflowId, providerEventSignal } from '../../src/temporal/order-contract';
import { FAST_TIMINGS } from '../helpers/config';
import { journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
const stacks: LocalStack[] = [];

beforeAll(async () => {
  env = await startTemporal();
});

afterAll(async () => {
  await Promise.all(stacks.map((s) => s.stop()));
  await env?.teardown();
});

async function moonpayOrder(stack: LocalStack) {
  const created = await offerThenOrder(stack.apiUrl, journeyOrder({ code: 'moonpay', market: 'US-CA', paymentMethod: 'card' }));
  expect(created.status).toBe(200);
  return created.body as { id: string; status: string };
}

async function expectUnmoved(stack: LocalStack, orderId: string) {
  const status = await callApi(stack.apiUrl, `/api/on_ramp/orders/moonpay?code=${orderId}`);
  expect(status.body).toMatchObject({ status: 'created' });
  expect(status.body.extras).not.toHaveProperty('transaction_hash');
  const memo = await orderMemo(env.client, orderId);
  expect(memo.order.status).toBe('created');
  expect(memo.sequence).toBe(1);
}

/** Signals in the order's history: none when the API kept the events out. */
async function signalsIn(orderId: string): Promise<number> {
  return (await orderHistory(env.client, orderId)).filter((e) => e.workflowExecutionSignaledEventAttributes).length;
}

/** Changes of the order's recorded state in its history: memo and search attribute updates. */
async function stateChangesIn(orderId: string): Promise<number> {
  return (await orderHistory(env.client, orderId)).filter(
    (e) => e.workflowPropertiesModifiedEventAttributes || e.upsertWorkflowSearchAttributesEventAttributes,
  ).length;
}

test('sandbox events signed with the public development secret never reach or move a MoonPay order', async () => {
  // The order keeps polling MoonPay meanwhile, which adds events to its history as the machine's
  // pace allows; what the webhooks must not add is a signal or a change of the order's state. Its
  // payment window outlasts the test, so no timer of its own changes that state either.
  const stack = await startTestStack(env, { config: { orderTimings: { ...FAST_TIMINGS, paymentWindowMs: 600_000 } } });
  stacks.push(stack);
  const order = await moonpayOrder(stack);
  const memo = await orderMemo(env.client, order.id);
  const stateChanges = await stateChangesIn(order.id);

  // The signature is genuine for the sandbox, so the broker acknowledges them; none is signalled.
  for (let i = 0; i < 50; i++) expect((await postWebhook(stack.apiUrl, 'sandbox', signedSandboxEvent(order.id))).status).toBe(200);
  await new Promise((r) => setTimeout(r, 1000));
  await expectUnmoved(stack, order.id);
  expect(await signalsIn(order.id)).toBe(0);
  expect(await orderMemo(env.client, order.id)).toEqual(memo);
  expect(await stateChangesIn(order.id)).toBe(stateChanges);
});

test('nor a MoonPay order in live mode', async () => {
  // MoonPay configured with credentials (live mode) against a host on this machine.
  const simulatorPort = await freePort();
  const moonpayHost = `http://127.0.0.1:${simulatorPort}/moonpay`;
  const stack = await startTestStack(env, {
    simulatorPort,
    env: {
      MOONPAY_PUBLISHABLE_KEY: MOONPAY_SIMULATOR_CREDENTIALS.publishableKey,
      MOONPAY_SECRET_KEY: MOONPAY_SIMULATOR_CREDENTIALS.secretKey,
      MOONPAY_WEBHOOK_KEY: MOONPAY_SIMULATOR_CREDENTIALS.webhookKey,
      MOONPAY_API_URL: moonpayHost,
      MOONPAY_WIDGET_URL: `${moonpayHost}/widget`,
    },
  });
  stacks.push(stack);
  expect(stack.config.providers.moonpay.mode).toBe('live');
  const order = await moonpayOrder(stack);

  for (const status of ['PAYMENT_RECEIVED', 'COMPLETED']) {
    expect((await postWebhook(stack.apiUrl, 'sandbox', signedSandboxEvent(order.id, { status }))).status).toBe(200);
  }
  await new Promise((r) => setTimeout(r, 1000));
  await expectUnmoved(stack, order.id);
  expect(await signalsIn(order.id)).toBe(0);
});

test("the order itself refuses another provider's report that reaches it", async () => {
  const stack = await startTestStack(env);
  stacks.push(stack);
  const order = await moonpayOrder(stack);
  const handle = env.client.workflow.getHandle(orderWorkflowId(order.id));
  await handle.signal(providerEventSignal, { providerCode: 'sandbox', eventId: 'e1', providerStatus: 'COMPLETED', status: 'complete' });
  // Without a provider code (an API from before the check) it is refused too.
  await handle.signal(providerEventSignal, { eventId: 'e2', providerStatus: 'completed', status: 'complete' });
  const memo = await refusedReports(env.client, order.id, 2);
  expect(memo).toMatchObject({ order: { status: 'created' }, sequence: 1, integrityAlert: 'report_refused', refusedReports: 2 });
  expect((await searchAttributes(env.client, order.id)).IntegrityAlert).toBe('report_refused');
  expect((await handle.query(getOrderQuery))?.order.status).toBe('created');
});
