/**
 * Paybis end to end, through its simulator and a real Temporal dev server: every transaction of a
 * Paybis request carries the request's id, so a first attempt that ended unpaid must not fail an
 * order whose customer then pays on a second attempt in the same widget; an order whose only
 * attempt ended unpaid still fails, by its poll. The customer's KYC webhooks are acknowledged.
 * Each test runs its own stack (its own poll interval) on one Temporal dev server.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { FAST_TIMINGS } from '../helpers/config';
import { eventually } from '../helpers/http';
import { checkout, offerThenOrder, waitForStatus } from '../helpers/orders';
import { JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack | undefined;
const journey = JOURNEYS.find((j) => j.code === 'paybis')!;

beforeAll(async () => {
  env = await startTemporal();
});

afterEach(async () => {
  await stack?.stop();
  stack = undefined;
});

afterAll(async () => {
  await env?.teardown();
});

const paybis = () => stack!.simulators.get('paybis');

async function paybisOrder(pollMs: number) {
  stack = await startTestStack(env, { config: { orderTimings: { ...FAST_TIMINGS, pollInitialMs: pollMs, pollMaxMs: pollMs } } });
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

test('an attempt declined and never retried: the order fails by its poll', async () => {
  const order = await paybisOrder(FAST_TIMINGS.pollInitialMs);
  expect((await checkout(order.redirect_url, 'fail')).status).toBe(200);
  const failed = await waitForStatus(stack!.apiUrl, 'paybis', order.id, 'failed');
  expect(failed.extras.provider_status).toBe('payment_error');
  expect(answers(order.requestId)).toEqual([
    ['verification:started', 200],
    ['verification:approved', 200],
    ['payment-error', 200],
  ]);
});
