/**
 * Reconciliation with the providers' books against a real Temporal dev server, each provider with a
 * transaction list through its own simulator over real HTTP: a clean window reports nothing; then
 * every kind of seeded mismatch (an order the books drop, a drifted status, a drifted amount, a
 * purchase only the books hold) is reported, on a rerun of the same window, and nothing else. An
 * open order is flagged in its search attributes; the lookup fallback of a provider without a list
 * reports a clean window; a schedule reconciles the day that ended.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { reconciliationMismatches } from '../../src/metrics/metrics';
import { listReconciliations, reconcileNow, reconciliationReport } from '../../src/reconciliation/reports';
import { ensureReconciliationSchedules } from '../../src/reconciliation/schedules';
import { getOrderQuery, orderWorkflowId } from '../../src/temporal/order-contract';
import {
  RECONCILIATION_MISMATCH_KEY,
  reconciliationScheduleId,
  type ReconciliationReport,
  type ReconciliationTimings,
} from '../../src/temporal/reconciliation-contract';
import { addPhantom, BOOKS_DRIFT, setBooks } from '../helpers/books';
import { reviewIdOf } from '../../src/temporal/reviews';
import { callApi, callOperatorApi, eventually } from '../helpers/http';
import { checkout, draftOrder, offerThenOrder, waitForStatus } from '../helpers/orders';
import { JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

/** Each provider with a list, the status its books drift to (in its own words) and what that maps to. */
const LISTED = Object.entries(BOOKS_DRIFT).map(([code, drift]) => ({ code, ...drift }));

const TIMINGS: ReconciliationTimings = { marginMs: 60_000, settleMs: 0, keepReportMs: 3_600_000 };

let env: TestWorkflowEnvironment;
let stack: LocalStack;

beforeAll(async () => {
  env = await startTemporal();
  stack = await startTestStack(env);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

const journeyOf = (code: string) => JOURNEYS.find((j) => j.code === code)!;

/** An order of the provider that the customer opened and, unless `action` says otherwise, paid. */
async function placedOrder(code: string, action: 'pay' | 'hold' | 'none' = 'pay'): Promise<{ id: string; from_amount: string }> {
  const created = await offerThenOrder(stack.apiUrl, journeyOrder(journeyOf(code)));
  expect(created.status).toBe(200);
  const order = created.body as { id: string; redirect_url: string; from_amount: string };
  if (action === 'none') return order;
  expect((await fetch(order.redirect_url)).status).toBe(200);
  expect((await checkout(order.redirect_url, action)).status).toBe(200);
  await waitForStatus(stack.apiUrl, code, order.id, action === 'pay' ? 'complete' : 'hold');
  return order;
}

/** Every order of the window in visibility with the status the API gives (the reconciliation reads visibility). */
async function settledInVisibility(code: string, ids: readonly string[]): Promise<void> {
  await eventually(async () => {
    const res = await callApi(stack.apiUrl, `/api/on_ramp/orders?limit=100&provider_code=${code}`);
    const listed = new Map((res.body.orders as { id: string; status: string }[]).map((o) => [o.id, o.status]));
    for (const id of ids) {
      const status = await callApi(stack.apiUrl, `/api/on_ramp/orders/${code}?code=${id}`);
      if (listed.get(id) !== status.body.status) return undefined;
    }
    return true;
  }, 'the orders in visibility as they are');
}

/** Reconciles the window (again) and waits for the report of a run made after now. */
async function reconciled(providerCode: string, fromMs: number, toMs: number): Promise<ReconciliationReport> {
  const asked = Date.now();
  await reconcileNow(stack.client, { providerCode, fromMs, toMs, timings: TIMINGS }, stack.config.temporal.taskQueue);
  return eventually(async () => {
    const report = await reconciliationReport(stack.client, providerCode, fromMs, toMs);
    return report && report.ranAtMs >= asked ? report : undefined;
  }, `the ${providerCode} report`);
}

const mismatchCount = async (provider: string, kind: string) =>
  (await reconciliationMismatches.get()).values.find((v) => v.labels.provider === provider && v.labels.kind === kind)?.value ?? 0;

describe.each(LISTED)('$code', ({ code, drift, drifted }) => {
  test('a clean window reports nothing; every seeded mismatch is then reported, and nothing else', async () => {
    const fromMs = Date.now() - 1000;
    const toMs = Date.now() + 120_000;
    const [clean, dropped, drifting, resized] = [
      await placedOrder(code),
      await placedOrder(code),
      await placedOrder(code),
      await placedOrder(code),
    ];
    const unpaid = await placedOrder(code, 'none');
    await settledInVisibility(code, [clean.id, dropped.id, drifting.id, resized.id, unpaid.id]);

    const first = await reconciled(code, fromMs, toMs);
    expect(first).toMatchObject({ providerCode: code, source: 'list', orders: 5, mismatches: [], counts: {}, truncated: 0, unreadable: 0 });
    expect(first.matched).toBeGreaterThanOrEqual(4);
    expect(first.transactions).toBeGreaterThanOrEqual(4);

    await setBooks(stack.simulatorUrl, code, dropped.id, { dropped: true });
    await setBooks(stack.simulatorUrl, code, drifting.id, { status: drift });
    await setBooks(stack.simulatorUrl, code, resized.id, { fiatAmount: '1234.56' });
    const phantomId = await addPhantom(stack.simulatorUrl, code);
    const before = { missing: await mismatchCount(code, 'missing_here'), status: await mismatchCount(code, 'status_differs') };

    const second = await reconciled(code, fromMs, toMs);
    const byKind = Object.fromEntries(second.mismatches.map((m) => [m.kind, m]));
    expect(second.mismatches).toHaveLength(4);
    expect(second.counts).toEqual({ missing_at_provider: 1, status_differs: 1, terms_differ: 1, missing_here: 1 });
    expect(byKind.missing_at_provider).toMatchObject({ orderId: dropped.id, integratorId: 'dev', status: { here: 'complete' } });
    expect(byKind.status_differs).toMatchObject({
      orderId: drifting.id,
      status: { here: 'complete', provider: drifted, providerStatus: expect.stringContaining(drift) },
    });
    expect(byKind.terms_differ).toMatchObject({ orderId: resized.id });
    expect(byKind.terms_differ!.fields).toEqual([
      { field: 'from_amount', ordered: resized.from_amount, reported: expect.stringMatching(/^1234\.56/) },
    ]);
    expect(byKind.missing_here).toMatchObject({ providerOrderId: phantomId, status: { provider: 'complete' } });
    expect(byKind.missing_here!.orderId).toBeUndefined();
    // Counted: the alert rule reads these.
    expect(await mismatchCount(code, 'missing_here')).toBe(before.missing + 1);
    expect(await mismatchCount(code, 'status_differs')).toBe(before.status + 1);

    // Each mismatch is in the operators' queue, closed orders and the provider-only transaction included.
    const phantomReview = reviewIdOf({ kind: 'provider_transaction', providerCode: code, providerOrderId: phantomId });
    for (const [reviewId, kind] of [
      [dropped.id, 'missing_at_provider'],
      [drifting.id, 'status_differs'],
      [resized.id, 'terms_differ'],
      [phantomReview, 'missing_here'],
    ] as const) {
      const review = await eventually(async () => {
        const res = await callOperatorApi(stack.apiUrl, `/reviews/${reviewId}`);
        return res.status === 200 && res.body.open.includes('reconciliation_mismatch') ? res.body : undefined;
      }, `the ${kind} review`);
      expect(review.reasons.map((r: { detail: string }) => r.detail.split(' ')[0])).toEqual([kind]);
    }
    const queue = await callOperatorApi(stack.apiUrl, `/reviews?reason=reconciliation_mismatch&provider_code=${code}&limit=100`);
    expect(queue.body.reviews).toContainEqual(
      expect.objectContaining({
        review_id: phantomReview,
        subject: { kind: 'provider_transaction', provider_code: code, provider_order_id: phantomId },
      }),
    );

    // The report is found by provider and window; its search attributes hold the kinds found.
    const listed = await eventually(async () => {
      const all = await listReconciliations(stack.client, { providerCode: code, fromMs, toMs: fromMs + 1 });
      return all.length === 1 && all[0]!.kinds.length === 4 ? all : undefined;
    }, 'the reconciliation in visibility');
    expect(listed[0]).toMatchObject({ providerCode: code, fromMs, status: 'RUNNING' });
    expect(listed[0]!.kinds).toEqual(['missing_at_provider', 'missing_here', 'status_differs', 'terms_differ']);

    // Cleared, the books agree again (the phantom stays: the provider holds it).
    for (const id of [dropped.id, drifting.id, resized.id]) await setBooks(stack.simulatorUrl, code, id, {});
    const third = await reconciled(code, fromMs, toMs);
    expect(third.mismatches.map((m) => m.kind)).toEqual(['missing_here']);
  });
});

test('an open order a reconciliation finds missing is flagged in its search attributes and memo', async () => {
  const fromMs = Date.now() - 1000;
  const held = await placedOrder('moonpay', 'hold');
  await settledInVisibility('moonpay', [held.id]);
  await setBooks(stack.simulatorUrl, 'moonpay', held.id, { dropped: true });
  const report = await reconciled('moonpay', fromMs, Date.now() + 60_000);
  expect(report.mismatches).toEqual([
    expect.objectContaining({
      kind: 'missing_at_provider',
      orderId: held.id,
      providerOrderId: expect.any(String),
      status: { here: 'hold' },
    }),
  ]);
  expect(report.flagged).toBe(1);
  const handle = stack.client.workflow.getHandle(orderWorkflowId(held.id));
  await eventually(
    async () => ((await handle.describe()).typedSearchAttributes.get(RECONCILIATION_MISMATCH_KEY)?.length ? true : undefined),
    'the order flagged',
  );
  const description = await handle.describe();
  expect(description.typedSearchAttributes.get(RECONCILIATION_MISMATCH_KEY)).toEqual(['missing_at_provider']);
  expect(description.status.name).toBe('RUNNING');
  expect((await handle.query(getOrderQuery))?.reconciliationMismatch).toEqual(['missing_at_provider']);
  // The flag moves nothing else: the order is still on hold for the integrator.
  expect((await callApi(stack.apiUrl, `/api/on_ramp/orders/moonpay?code=${held.id}`)).body.status).toBe('hold');
});

test('a provider without a list is reconciled by lookups: a clean window reports nothing', async () => {
  const fromMs = Date.now() - 1000;
  const created = await offerThenOrder(stack.apiUrl, draftOrder());
  expect(created.status).toBe(200);
  const order = created.body as { id: string; redirect_url: string };
  await checkout(order.redirect_url, 'pay');
  await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'complete');
  await settledInVisibility('sandbox', [order.id]);
  const report = await reconciled('sandbox', fromMs, Date.now() + 60_000);
  expect(report).toMatchObject({ source: 'lookup', orders: 1, transactions: 1, matched: 1, mismatches: [], unreadable: 0 });
});

test('a schedule per provider reconciles the UTC day that ended, once, however often it fires', async () => {
  const made = await ensureReconciliationSchedules(stack.client, ['moonpay'], {
    taskQueue: stack.config.temporal.taskQueue,
    at: { hour: 2, minute: 30 },
    timings: TIMINGS,
  });
  expect(made).toEqual(['moonpay']);
  // Kept again (a second worker's start): updated, not made twice.
  expect(
    await ensureReconciliationSchedules(stack.client, ['moonpay'], {
      taskQueue: stack.config.temporal.taskQueue,
      at: { hour: 3, minute: 0 },
      timings: TIMINGS,
    }),
  ).toEqual([]);
  const schedule = stack.client.schedule.getHandle(reconciliationScheduleId('moonpay'));
  expect((await schedule.describe()).spec.calendars).toEqual([expect.objectContaining({ hour: [{ start: 3, end: 3, step: 1 }] })]);
  await schedule.trigger();
  await schedule.trigger();

  const day = 86_400_000;
  const toMs = Math.floor((Date.now() - TIMINGS.marginMs - TIMINGS.settleMs) / day) * day;
  const report = await eventually(
    () => reconciliationReport(stack.client, 'moonpay', toMs - day, toMs).then((r) => r ?? undefined),
    'the scheduled report',
  );
  expect(report).toMatchObject({ providerCode: 'moonpay', fromMs: toMs - day, toMs, orders: 0, mismatches: [] });
  const listed = await eventually(async () => {
    const all = await listReconciliations(stack.client, { providerCode: 'moonpay', fromMs: toMs - day, toMs: toMs - day + 1 });
    return all[0]?.kinds.length ? all : undefined;
  }, 'the scheduled reconciliation in visibility');
  expect(listed).toEqual([expect.objectContaining({ kinds: ['none'] })]);
  await schedule.delete();
});
