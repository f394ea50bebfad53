/**
 * Paybis end to end, through its simulator and a real Temporal dev server: every transaction of a
 * Paybis request carries the request's id, so a first attempt that ended unpaid must not fail an
 * order whose customer then pays on a second attempt in the same widget, whether or not a poll saw
 * the first attempt's end (it makes the order `expired`, which a late payment still moves); an
 * order whose only attempt ended unpaid expires by its poll. The customer's KYC webhooks are
 * acknowledged. Each test runs its own stack (its own timings) on one Temporal dev server.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import type { OrderTimings } from '../../src/temporal/order-contract';
import { FAST_TIMINGS } from '../helpers/config';
import { eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout, offerThenOrder, waitForStatus } from '../helpers/orders';
import { JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack | undefined;
let receiver: IntegratorReceiver;
let receiverUrl: string;
const journey = JOURNEYS.find((j) => j.code === 'paybis')!;

beforeAll(async () => {
  env = await startTemporal();
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  receiverUrl = await receiver.start();
});

afterEach(async () => {
  await stack?.stop();
  stack = undefined;
});

afterAll(async () => {
  await receiver?.stop();
  await env?.teardown();
});

const paybis = () => stack!.simulators.get('paybis');

async function paybisOrder(pollMs: number, timings: Partial<OrderTimings> = {}) {
  stack = await startTestStack(env, {
    config: { orderTimings: { ...FAST_TIMINGS, pollInitialMs: pollMs, pollMaxMs: pollMs, ...timings } },
    env: { ONRAMP_WEBHOOK_URL: receiverUrl },
  });
  const created = await offerThenOrder(stack.apiUrl, journeyOrder(journey));
  expect(created.status).toBe(200);
  const order = created.body as { id: string; redirect_url: string; extras: { provider_order_id: string } };
  return { ...order, requestId: order.extras.provider_order_id };
}

/** The broker's answers to the simulator's webhooks of one request, as [status, HTTP status]. */
const answers = (requestId: string) =>
  paybis()
    .webhooks.attempts.filter((a) => a.orderKey === requestId)
    .map((a) => [a.status, a.httpStatus]);

const acknowledged = (requestId: string, status: string) =>
  eventually(
    () => Promise.resolve(answers(requestId).some(([s, http]) => s === status && http === 200) || undefined),
    `${status} acknowledged`,
  );

test('a cancelled first attempt, then a payment in the same widget: the order completes', async () => {
  // No poll runs meanwhile (the first is a minute away): only the webhooks speak.
  const order = await paybisOrder(60_000);
  expect((await checkout(order.redirect_url, 'expire')).status).toBe(200);
  await acknowledged(order.requestId, 'cancelled');
  expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);
  const done = await waitForStatus(stack!.apiUrl, 'paybis', order.id, 'complete');
  expect(done.extras.transaction_hash).toEqual(expect.any(String));
  expect(answers(order.requestId).filter(([, http]) => http !== 200)).toEqual([]);
});

test('a cancelled first attempt seen by a poll, then a payment in the same widget: the order completes', async () => {
  // Polls every 0.5 s, and the settled grace (7 days by default) is long enough to pay again in.
  const order = await paybisOrder(FAST_TIMINGS.pollInitialMs, { settledGraceMs: 60_000 });
  expect((await checkout(order.redirect_url, 'expire')).status).toBe(200);
  const expired = await waitForStatus(stack!.apiUrl, 'paybis', order.id, 'expired');
  expect(expired.extras.provider_status).toBe('cancelled');

  expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);
  const done = await waitForStatus(stack!.apiUrl, 'paybis', order.id, 'complete');
  expect(done.extras.transaction_hash).toEqual(expect.any(String));
  const delivered = await eventually(() => {
    const received = receiver.delivered(order.id);
    return Promise.resolve(received.some((w) => w.body.data.status === 'complete') ? received : undefined);
  }, 'a complete webhook');
  expect(delivered.every((w) => w.verified)).toBe(true);
  // The second attempt's `started` cannot move an expired order back to pending; its payment can
  // (`processing`, unless a poll saw it complete first).
  const statuses = delivered.map((w) => w.body.data.status);
  expect(statuses.slice(0, 2)).toEqual(['created', 'expired']);
  expect(['processing,complete', 'complete']).toContain(statuses.slice(2).join(','));
  expect(delivered.map((w) => w.body.data.sequence)).toEqual(delivered.map((_, i) => i + 1));
});

test('an attempt declined and never retried: the order expires by its poll', async () => {
  const order = await paybisOrder(FAST_TIMINGS.pollInitialMs);
  expect((await checkout(order.redirect_url, 'decline')).status).toBe(200);
  const expired = await waitForStatus(stack!.apiUrl, 'paybis', order.id, 'expired');
  expect(expired.extras.provider_status).toBe('payment_error');
  expect(expired.failure_reason).toBeUndefined();
  expect(answers(order.requestId)).toEqual([
    ['verification:started', 200],
    ['verification:approved', 200],
    ['payment-error', 200],
  ]);
});

test('a payment Paybis then rejects: the order fails', async () => {
  const order = await paybisOrder(FAST_TIMINGS.pollInitialMs);
  expect((await checkout(order.redirect_url, 'fail')).status).toBe(200);
  const failed = await waitForStatus(stack!.apiUrl, 'paybis', order.id, 'failed');
  expect(failed.failure_reason).toBe('rejected_by_provider');
});
