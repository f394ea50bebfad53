/**
 * The order workflow under its real default durations (30 s first poll backing off to 30 min, a
 * 24 h payment window, a 7-day grace after failure), on Temporal's time-skipping test server: days
 * of workflow time pass in seconds. Activities are the real ones, talking HTTP to the sandbox
 * simulator.
 */
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { getOrderQuery, orderWorkflowId, providerEventSignal, type OrderMemo } from '../../src/temporal/order-contract';
import type { orderWorkflow } from '../../workflows';
import { checkout, workflowInput } from '../helpers/orders';
import { eventually } from '../helpers/http';
import { startTimeSkipping, type TimeSkippingStack } from '../helpers/time-skipping';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TASK_QUEUE = 'real-durations';

let stack: TimeSkippingStack;
let env: TestWorkflowEnvironment;
/** When each status poll ran, in workflow (skipped) time. */
let polls: number[] = [];
/** The order creation time each status poll handed the lookup. */
let pollCreatedAt: (string | undefined)[] = [];

beforeAll(async () => {
  stack = await startTimeSkipping({
    taskQueue: TASK_QUEUE,
    activities: (real) => ({
      ...real,
      getProviderOrderStatus: async (input: Parameters<typeof real.getProviderOrderStatus>[0]) => {
        // A local activity's scheduled time is the worker's clock; the test server's is the workflow's.
        polls.push(Context.current().info.isLocal ? await env.currentTimeMs() : Context.current().info.scheduledTimestampMs);
        pollCreatedAt.push(input.orderCreatedAt);
        return real.getProviderOrderStatus(input);
      },
    }),
  });
  env = stack.env;
});

afterAll(async () => {
  await stack?.stop();
});

async function startOrder(id: string) {
  // The simulator's clock follows the skipped workflow clock: its orders are made when the workflow
  // thinks it is, not days before the order (which the workflow would refuse as an older purchase).
  stack.simulator.faults.providerOrderAgeMs = Date.now() - (await env.currentTimeMs());
  const handle = await env.client.workflow.start<typeof orderWorkflow>('orderWorkflow', {
    workflowId: orderWorkflowId(id),
    taskQueue: TASK_QUEUE,
    args: [workflowInput(id)],
  });
  const created = await eventually(async () => (await handle.query(getOrderQuery)) ?? undefined, `order ${id} created`);
  return { handle, created };
}

const hoursBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / HOUR;

test('an order never paid expires after 24 h, polled ever less often, and closes after the 7-day grace', async () => {
  polls = [];
  pollCreatedAt = [];
  const { handle, created } = await startOrder('00000000-0000-5000-8000-0000000000e1');
  const result: OrderMemo = await handle.result();

  expect(result.order.status).toBe('expired');
  const createdAt = Date.parse(created.order.created_at);
  expect((Date.parse(result.order.updated_at) - createdAt) / HOUR).toBeCloseTo(24, 1);

  // Polls back off from 30 s, doubling up to 30 min: about 53 in the 24 h, where a fixed 30 s poll
  // would make 2 880 and unbounded doubling about 12.
  const gapsSeconds = polls.slice(0, 9).map((at, i) => Math.round((at - (i === 0 ? createdAt : polls[i - 1]!)) / 1000));
  const expected = [30, 60, 120, 240, 480, 960, 1800, 1800, 1800];
  // Within a second: the test server may skip ahead while a local activity runs, which it cannot see.
  expect(gapsSeconds.map((gap, i) => (Math.abs(gap - expected[i]!) <= 1 ? expected[i] : gap))).toEqual(expected);
  // Every poll tells the lookup when the order was created (Paybis searches its transaction list from there).
  expect(new Set(pollCreatedAt)).toEqual(new Set([created.order.created_at]));
  const beforeExpiry = polls.filter((at) => at <= createdAt + DAY).length;
  expect(beforeExpiry).toBeGreaterThanOrEqual(50);
  expect(beforeExpiry).toBeLessThanOrEqual(56);
  const { closeTime, startTime } = await handle.describe();
  expect((closeTime!.getTime() - startTime.getTime()) / DAY).toBeCloseTo(8, 1);
});

test('a failed order still takes a refund 6 days later, then closes at once', async () => {
  const { handle } = await startOrder('00000000-0000-5000-8000-0000000000e2');
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: 'e-fail',
    providerStatus: 'FAILED',
    status: 'failed',
    failureReason: 'card_declined',
  });
  const failed = await eventually(async () => {
    const memo = await handle.query(getOrderQuery);
    return memo?.order.status === 'failed' ? memo : undefined;
  }, 'failed');
  await env.sleep('6 days');
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: 'e-refund',
    providerStatus: 'REFUNDED',
    status: 'refunded',
  });
  const result: OrderMemo = await handle.result();

  expect(result.order.status).toBe('refunded');
  expect(hoursBetween(failed.order.updated_at, result.order.updated_at) / 24).toBeCloseTo(6, 1);
  expect(result.sequence).toBe(3);
});

test('an order on hold for 5 days is flagged for review, goes on polling, and completes when the provider does', async () => {
  const { handle, created } = await startOrder('00000000-0000-5000-8000-0000000000e3');
  await checkout(created.order.redirect_url, 'hold');
  await env.sleep('1 minute');
  expect((await handle.query(getOrderQuery))?.order.status).toBe('hold');

  await env.sleep('4 days');
  expect((await handle.query(getOrderQuery))?.reviewReason).toBeUndefined();
  await env.sleep('1 day');
  const flagged = await handle.query(getOrderQuery);
  expect(flagged).toMatchObject({ reviewReason: 'open_too_long', order: { status: 'hold' } });
  expect((await handle.describe()).searchAttributes.ReviewReason).toEqual(['open_too_long']);

  // Still followed: once the provider completes it, the order completes (the flag stays for the operator).
  polls = [];
  await checkout(created.order.redirect_url, 'pay');
  await env.sleep('1 hour');
  expect(polls.length).toBeGreaterThan(0);
  const result: OrderMemo = await handle.result();
  expect(result).toMatchObject({ reviewReason: 'open_too_long', order: { status: 'complete' } });
});
