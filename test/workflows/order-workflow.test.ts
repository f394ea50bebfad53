/**
 * The order workflow's behaviour on a real Temporal dev server, with the real activities talking
 * HTTP to the sandbox simulator, and the simulator misbehaving where a test says so.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import type { LocalStack } from '../../src/dev/local-stack';
import { orderIdFor } from '../../src/orders/request';
import { getOrderQuery, orderWorkflowId, providerEventSignal } from '../../src/temporal/order-contract';
import { FAST_TIMINGS } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { checkout, draftOrder, fetchOffers, offerThenOrder, waitForStatus } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
const stacks: LocalStack[] = [];

async function stack(options: Parameters<typeof startTestStack>[1] = {}): Promise<LocalStack> {
  const started = await startTestStack(env, options);
  stacks.push(started);
  return started;
}

beforeAll(async () => {
  env = await startTemporal();
});

afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.stop()));
});

afterAll(async () => {
  await env?.teardown();
});

test('when every webhook is lost, polling still takes the order to complete', async () => {
  const s = await stack({ faults: { dropWebhooks: true } });
  const { body: order } = await offerThenOrder(s.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'pay');
  const done = await waitForStatus(s.apiUrl, 'sandbox', order.id, 'complete', 15_000);
  expect(done.extras.provider_status).toBe('COMPLETED');
  expect(s.simulator.webhooks.attempts).toHaveLength(0);
});

test('late, duplicated and out-of-order provider events never move an order back', async () => {
  const s = await stack({ config: { orderTimings: { ...FAST_TIMINGS, pollInitialMs: 60_000, pollMaxMs: 60_000 } } });
  const { body: order } = await offerThenOrder(s.apiUrl, draftOrder());
  const handle = env.client.workflow.getHandle(orderWorkflowId(order.id));
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: 'e2',
    providerStatus: 'PAYMENT_RECEIVED',
    status: 'processing',
  });
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: 'e1',
    providerStatus: 'AWAITING_PAYMENT',
    status: 'pending',
  });
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: 'e2',
    providerStatus: 'PAYMENT_RECEIVED',
    status: 'processing',
  });
  const memo = await eventually(async () => {
    const m = await handle.query(getOrderQuery);
    return m?.order.status === 'processing' ? m : undefined;
  }, 'processing');
  // created (1) -> processing (2): the stale "pending" and the duplicate were dropped.
  expect(memo.sequence).toBe(2);
  await handle.signal(providerEventSignal, { providerCode: 'sandbox', eventId: 'e3', providerStatus: 'COMPLETED', status: 'complete' });
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: 'e4',
    providerStatus: 'FAILED',
    status: 'failed',
    failureReason: 'late',
  });
  const final = await handle.result();
  expect(final.order.status).toBe('complete');
  expect(final.order.failure_reason).toBeUndefined();
  expect(final.sequence).toBe(3);
});

test('reordered webhooks from the simulator still end in complete', async () => {
  const s = await stack({
    faults: { reorderWebhooks: true },
    config: { orderTimings: { ...FAST_TIMINGS, pollInitialMs: 60_000, pollMaxMs: 60_000 } },
  });
  const { body: order } = await offerThenOrder(s.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'pay');
  await eventually(
    () => Promise.resolve(s.simulator.orders.get(order.extras.provider_order_id)?.status === 'COMPLETED' ? true : undefined),
    'provider completion',
  );
  s.simulator.webhooks.releaseHeld();
  await s.simulator.webhooks.drain();
  const result = await env.client.workflow.getHandle(orderWorkflowId(order.id)).result();
  expect(result.order.status).toBe('complete');
});

test('an order left unpaid past its payment window expires', async () => {
  const s = await stack({ config: { orderTimings: { ...FAST_TIMINGS, paymentWindowMs: 1500 } } });
  const { body: order } = await offerThenOrder(s.apiUrl, draftOrder());
  const expired = await waitForStatus(s.apiUrl, 'sandbox', order.id, 'expired', 10_000);
  expect(expired.failure_reason).toBeUndefined();
  const result = await env.client.workflow.getHandle(orderWorkflowId(order.id)).result();
  expect(result.order.status).toBe('expired');
});

test('a failed order still becomes refunded within its grace period', async () => {
  const s = await stack({ config: { orderTimings: { ...FAST_TIMINGS, settledGraceMs: 20_000 } } });
  const { body: order } = await offerThenOrder(s.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'fail');
  await waitForStatus(s.apiUrl, 'sandbox', order.id, 'failed');
  await checkout(order.redirect_url, 'refund');
  const refunded = await waitForStatus(s.apiUrl, 'sandbox', order.id, 'refunded');
  expect(refunded.failure_reason).toBeUndefined();
  const result = await env.client.workflow.getHandle(orderWorkflowId(order.id)).result();
  expect(result.sequence).toBe(3);
});

test('hold, then payment: the order goes on to complete', async () => {
  const s = await stack();
  const { body: order } = await offerThenOrder(s.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'hold');
  await waitForStatus(s.apiUrl, 'sandbox', order.id, 'hold');
  await checkout(order.redirect_url, 'pay');
  await waitForStatus(s.apiUrl, 'sandbox', order.id, 'complete');
});

test('an invalid address is refused before any workflow starts, and the same external_order_id can be used again', async () => {
  const s = await stack();
  const draft = draftOrder({ wallet_address: 'not-an-address' });
  const rejected = await offerThenOrder(s.apiUrl, draft);
  expect(rejected.body.code).toBe('invalid_wallet_address');
  // The API checks the address first (the workflow checks it again): nothing was started.
  const notStarted = env.client.workflow.getHandle(orderWorkflowId(orderIdOf(s, draft)));
  await expect(notStarted.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

  const fixed = await offerThenOrder(s.apiUrl, { ...draft, wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
  expect(fixed.status).toBe(200);
  expect(fixed.body.status).toBe('created');
});

test('a creation the provider could not make fails, and the same request repeated once it is back creates the order', async () => {
  const s = await stack({ config: { orderCreateTimeoutMs: 60_000 } });
  const draft = draftOrder();
  const offers = await fetchOffers(s.apiUrl, draft);
  expect(offers.body.sandbox).toBeDefined();
  // The provider fails every call: the creation's attempts run out (about 31 s of backoff).
  s.simulator.faults.errorRate = 1;
  const down = await callApi(s.apiUrl, '/api/on_ramp/orders', { body: draft });
  expect(down.status).toBe(503);
  expect(down.body.code).toBe('provider_unavailable');
  await expect(env.client.workflow.getHandle(orderWorkflowId(orderIdOf(s, draft))).result()).rejects.toBeInstanceOf(WorkflowFailedError);

  // Nothing exists at the provider: the integrator's repeat of the very same request makes the order.
  s.simulator.faults.errorRate = 0;
  const repeated = await callApi(s.apiUrl, '/api/on_ramp/orders', { body: draft });
  expect(repeated.body.code).toBeUndefined();
  expect(repeated.status).toBe(200);
  expect(repeated.body.status).toBe('created');
  expect(s.simulator.orders.size).toBe(1);
}, 120_000);

test('order status is answered from the memo with no worker running', async () => {
  const s = await stack();
  const { body: order } = await offerThenOrder(s.apiUrl, draftOrder());
  await s.stop();
  stacks.splice(stacks.indexOf(s), 1);
  const readOnly = await stack({ worker: false });
  const res = await callApi(readOnly.apiUrl, `/api/on_ramp/orders/sandbox?code=${order.id}`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual(order);
});

test('while no worker can create the order, the API answers 503 in time and the retry gets the order', async () => {
  const s = await stack({ worker: false, config: { orderCreateTimeoutMs: 2000 } });
  const draft = draftOrder();
  const started = Date.now();
  const res = await offerThenOrder(s.apiUrl, draft);
  expect(res.status).toBe(503);
  expect(Date.now() - started).toBeLessThan(15_000);
  // A worker coming up later creates the order; the integrator's retry gets it.
  const withWorker = await stack({ config: { temporal: s.config.temporal } });
  const retried = await eventually(async () => {
    const again = await offerThenOrder(withWorker.apiUrl, draft);
    return again.status === 200 ? again : undefined;
  }, 'order created once a worker runs');
  expect(retried.body.status).toBe('created');
});

function orderIdOf(s: LocalStack, draft: { external_order_id: string }): string {
  return orderIdFor(s.config.integrators[0]!.id, draft.external_order_id);
}

test('a report about a provider order made before the order, or about another one than it holds, never moves it', async () => {
  const s = await stack({ config: { orderTimings: { ...FAST_TIMINGS, pollInitialMs: 60_000, pollMaxMs: 60_000 } } });
  const { body: order } = await offerThenOrder(s.apiUrl, draftOrder());
  const handle = env.client.workflow.getHandle(orderWorkflowId(order.id));
  const hourBefore = new Date(Date.parse(order.created_at) - 3_600_000).toISOString();
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: 'old',
    providerStatus: 'COMPLETED',
    status: 'complete',
    providerOrderCreatedAt: hourBefore,
  });
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: 'other',
    providerStatus: 'COMPLETED',
    status: 'complete',
    providerOrderId: 'not-this-one',
  });
  const memo = await eventually(async () => {
    const m = await handle.query(getOrderQuery);
    return (m?.refusedReports ?? 0) >= 2 ? m : undefined;
  }, 'two refused reports');
  expect(memo).toMatchObject({ order: { status: 'created' }, sequence: 1, integrityAlert: 'report_refused' });
  // Its own provider order, made now, moves it.
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: 'own',
    providerStatus: 'COMPLETED',
    status: 'complete',
    providerOrderId: order.extras.provider_order_id,
    providerOrderCreatedAt: new Date().toISOString(),
  });
  await waitForStatus(s.apiUrl, 'sandbox', order.id, 'complete');
});

test("a provider webhook applied after a poll's answer in the same workflow task keeps an ordinary first attempt", async () => {
  // Polls every 300 ms, each one slow: a webhook lands while a poll is out, and is applied after its answer,
  // in the task where the workflow's clock has already decided expiry. A re-run of that task reads
  // another clock, so that change's webhook must not leave before the task is recorded.
  const s = await stack({ config: { orderTimings: { ...FAST_TIMINGS, pollInitialMs: 300, pollMaxMs: 300 } } });
  const { body: order } = await offerThenOrder(s.apiUrl, draftOrder());
  const handle = env.client.workflow.getHandle(orderWorkflowId(order.id));
  const events = async () => (await handle.fetchHistory()).events ?? [];
  s.simulator.faults.latencyMs = 1_500;
  try {
    await eventually(
      async () => {
        const history = await events();
        const polls = history.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'getProviderOrderStatus');
        const ended = history.filter((e) => e.activityTaskCompletedEventAttributes || e.activityTaskFailedEventAttributes);
        const last = polls.at(-1);
        return last &&
          !ended.some(
            (e) =>
              (e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes)!.scheduledEventId?.toString() ===
              last.eventId?.toString(),
          )
          ? true
          : undefined;
      },
      'a poll in flight',
      10_000,
    );
    await handle.signal(providerEventSignal, {
      providerCode: 'sandbox',
      eventId: 'after-the-poll',
      providerOrderId: order.extras.provider_order_id,
      providerStatus: 'PAYMENT_RECEIVED',
      status: 'processing',
      receivedAt: new Date().toISOString(),
    });
    await eventually(
      async () => ((await handle.query(getOrderQuery))?.order.status === 'processing' ? true : undefined),
      'processing',
      10_000,
    );
  } finally {
    s.simulator.faults.latencyMs = 0;
  }
  const attempts = await eventually(
    async () => {
      const history = await events();
      const { sequence } = (await handle.query(getOrderQuery))!;
      const ordinary = history.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'attemptIntegratorWebhook');
      const markers = history.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
      // Two markers are the address check and the provider create.
      return ordinary.length + markers.length - 2 >= sequence
        ? { ordinary: ordinary.length, local: markers.length - 2, sequence }
        : undefined;
    },
    'an attempt for every change',
    15_000,
  );
  expect(attempts).toEqual({ ordinary: attempts.sequence, local: 0, sequence: attempts.sequence });
});
