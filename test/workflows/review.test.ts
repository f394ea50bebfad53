/**
 * The review queue on Temporal's time-skipping test server: the review workflow on its own (kept
 * `keepMs` after its last change once nothing is open, open for as long as a reason is; its
 * continue-as-new is in review-continue-as-new.test.ts, on the real server), and orders telling
 * their reviews: a flag raised (open too long), an operator's poll and cancel acted on and their
 * outcomes told, a malformed request dropped. The worker runs the real activities against the
 * sandbox simulator and a real ReviewTeller.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import {
  getOrderQuery,
  orderWorkflowId,
  providerEventSignal,
  PROVIDER_CODE_KEY,
  type OrderMemo,
  type OrderWorkflowInput,
} from '../../src/temporal/order-contract';
import {
  NEEDS_REVIEW_KEY,
  operatorActionSignal,
  operatorRequestSignal,
  REVIEW_MEMO_KEY,
  REVIEW_WORKFLOW_TYPE,
  reviewNoticeSignal,
  reviewRecordQuery,
  reviewWorkflowId,
  type OperatorActionName,
  type ReviewInput,
  type ReviewMemo,
  type ReviewNotice,
  type ReviewRecord,
  type ReviewSubject,
} from '../../src/temporal/review-contract';
import { ReviewTeller } from '../../src/temporal/reviews';
import { orderSinks } from '../../src/worker/sinks';
import type { orderWorkflow } from '../../workflows';
import { OPERATOR_REVIEW_PATCH } from '../../workflows/order';
import type { reviewWorkflow } from '../../workflows/review';
import { eventually } from '../helpers/http';
import { operatorAction, reviewNotice } from '../helpers/review-messages';
import { checkout, workflowInput } from '../helpers/orders';
import { workflowBundle } from '../helpers/temporal';
import { startTimeSkipping, type TimeSkippingStack } from '../helpers/time-skipping';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TASK_QUEUE = 'reviews';

let stack: TimeSkippingStack;
let env: TestWorkflowEnvironment;
let teller: ReviewTeller;

beforeAll(async () => {
  stack = await startTimeSkipping({ taskQueue: TASK_QUEUE });
  env = stack.env;
  teller = new ReviewTeller({ client: env.client, taskQueue: TASK_QUEUE, keepMs: 400 * DAY });
});

afterAll(async () => {
  await stack?.stop();
});

type OrderHandle = WorkflowHandle<typeof orderWorkflow>;
type ReviewHandle = WorkflowHandle<typeof reviewWorkflow>;

const subjectOf = (orderId: string): ReviewSubject => ({ kind: 'order', orderId, providerCode: 'sandbox', integratorId: 'dev' });
const reviewOf = (reviewId: string): ReviewHandle => env.client.workflow.getHandle(reviewWorkflowId(reviewId));
const workflowIso = async () => new Date(await env.currentTimeMs()).toISOString();

/** An order as the API starts it; `timings` replace the defaults (a long first poll keeps its history to what the test does). */
async function startOrder(
  id: string,
  timings: Partial<OrderWorkflowInput['timings']> = {},
): Promise<{ handle: OrderHandle; created: OrderMemo }> {
  // The simulator's clock follows the skipped workflow clock (test/workflows/real-durations.test.ts).
  stack.simulator.faults.providerOrderAgeMs = Date.now() - (await env.currentTimeMs());
  const input = workflowInput(id);
  const handle = await env.client.workflow.start<typeof orderWorkflow>('orderWorkflow', {
    workflowId: orderWorkflowId(id),
    taskQueue: TASK_QUEUE,
    args: [{ ...input, timings: { ...input.timings, ...timings } }],
  });
  const created = await eventually(async () => (await handle.query(getOrderQuery)) ?? undefined, `order ${id} created`);
  return { handle, created };
}

/** The provider reports `status` (as the API signals a verified webhook), and the order takes it. */
async function report(handle: OrderHandle, status: 'processing' | 'complete', providerStatus: string): Promise<OrderMemo> {
  await handle.signal(providerEventSignal, { providerCode: 'sandbox', eventId: `e-${status}`, providerStatus, status });
  return eventually(async () => {
    const memo = await handle.query(getOrderQuery);
    return memo?.order.status === status ? memo : undefined;
  }, status);
}

/**
 * An operator's request as the operator API makes it: the audit entry recorded on the order's review
 * first (so the outcome has an entry to settle on), then the request signalled to the order.
 */
async function request(handle: OrderHandle, orderId: string, requestId: string, action: OperatorActionName): Promise<void> {
  await teller.action(subjectOf(orderId), { requestId, action, operatorId: 'op-1', at: await workflowIso() });
  await handle.signal(operatorRequestSignal, { requestId, action, operatorId: 'op-1' });
}

/** The review's record once `ready` holds of it. */
function recordWhen(reviewId: string, what: string, ready: (record: ReviewRecord) => boolean): Promise<ReviewRecord> {
  return eventually(
    async () => {
      const record = await reviewOf(reviewId)
        .query(reviewRecordQuery)
        .catch(() => undefined);
      return record && ready(record) ? record : undefined;
    },
    what,
    20_000,
  );
}

const outcomeOf = (reviewId: string, requestId: string) =>
  recordWhen(reviewId, `an outcome of ${requestId}`, (r) => r.actions.some((a) => a.requestId === requestId && a.outcome)).then(
    (r) => r.actions.find((a) => a.requestId === requestId)!.outcome!,
  );

async function historyEvents(handle: WorkflowHandle) {
  return (await handle.fetchHistory()).events ?? [];
}

const scheduled = (events: Awaited<ReturnType<typeof historyEvents>>, activity: string) =>
  events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activity).length;

const taskFailures = (events: Awaited<ReturnType<typeof historyEvents>>) => events.filter((e) => e.workflowTaskFailedEventAttributes);

async function patchMarkers(handle: WorkflowHandle): Promise<string[]> {
  return (await historyEvents(handle))
    .map((e) => e.markerRecordedEventAttributes)
    .filter((m) => m?.markerName === 'core_patch')
    .map((m) => Buffer.from(m?.details?.['patch-data']?.payloads?.[0]?.data ?? []).toString('utf8'));
}

describe('the review workflow on its own', () => {
  const providerSubject: ReviewSubject = { kind: 'provider_transaction', providerCode: 'sandbox', providerOrderId: 'sb-nowhere' };
  const notice = reviewNotice;
  const action = operatorAction;

  /** A review opened by its first notice, as ReviewTeller opens one (signal-with-start). */
  async function openReview(reviewId: string, input: Partial<ReviewInput>, first: ReviewNotice): Promise<ReviewHandle> {
    const handle = await env.client.workflow.signalWithStart<typeof reviewWorkflow, [ReviewNotice]>(REVIEW_WORKFLOW_TYPE, {
      workflowId: reviewWorkflowId(reviewId),
      taskQueue: TASK_QUEUE,
      args: [{ reviewId, subject: providerSubject, keepMs: HOUR, ...input }],
      signal: reviewNoticeSignal,
      signalArgs: [first],
      typedSearchAttributes: [{ key: PROVIDER_CODE_KEY, value: 'sandbox' }],
    });
    await recordWhen(reviewId, 'the first notice', (r) => r.reasons.length === 1);
    return handle;
  }

  test('an open review stays open however long; acknowledged, it is kept keepMs after its last change, then completes with its record', async () => {
    const handle = await openReview('sandbox-txn-keep', {}, notice('m-1'));
    await eventually(
      async () => ((await handle.describe()).typedSearchAttributes.get(NEEDS_REVIEW_KEY)?.length ? true : undefined),
      'NeedsReview set',
    );
    expect((await handle.describe()).typedSearchAttributes.get(NEEDS_REVIEW_KEY)).toEqual(['reconciliation_mismatch']);

    await env.sleep('3 days');
    expect((await handle.describe()).status.name).toBe('RUNNING');

    await handle.signal(operatorActionSignal, action('ack-1', { note: 'seen' }));
    await recordWhen('sandbox-txn-keep', 'acknowledged', (r) => r.open.length === 0);
    // A change while kept (an operator's poll recorded) keeps it for keepMs from then.
    await env.sleep('40 minutes');
    await handle.signal(operatorActionSignal, action('poll-1', { action: 'poll' }));
    await recordWhen('sandbox-txn-keep', 'the poll recorded', (r) => r.actions.length === 2);
    const lastChange = await env.currentTimeMs();

    const result = await handle.result();
    expect(result).toMatchObject({
      reviewId: 'sandbox-txn-keep',
      open: [],
      reasons: [{ key: 'm-1', acknowledged: { requestId: 'ack-1', note: 'seen', operatorId: 'op-1' } }],
      actions: [{ requestId: 'ack-1' }, { requestId: 'poll-1', action: 'poll' }],
    });
    const { closeTime, typedSearchAttributes, memo } = await handle.describe();
    expect((closeTime!.getTime() - lastChange) / HOUR).toBeCloseTo(1, 1);
    // Nothing open: out of the queue.
    expect(typedSearchAttributes.get(NEEDS_REVIEW_KEY)).toBeUndefined();
    expect((memo?.[REVIEW_MEMO_KEY] as ReviewMemo).open).toEqual([]);
  });
});

describe('orders and their reviews', () => {
  test('an order on hold for 5 days opens its review with open_too_long, in the queue; its history records the patch and replays', async () => {
    const id = '00000000-0000-5000-8000-0000000000a1';
    const { handle, created } = await startOrder(id);
    await checkout(created.order.redirect_url, 'hold');
    await env.sleep('1 minute');
    expect((await handle.query(getOrderQuery))?.order.status).toBe('hold');
    await env.sleep('5 days');
    expect(await handle.query(getOrderQuery)).toMatchObject({ reviewReason: 'open_too_long', order: { status: 'hold' } });

    const record = await recordWhen(id, 'the review opened', (r) => r.reasons.length > 0);
    expect(record).toMatchObject({
      reviewId: id,
      subject: subjectOf(id),
      open: ['open_too_long'],
      reasons: [{ reason: 'open_too_long', key: 'open_too_long', source: 'order', detail: expect.stringMatching(/^hold since /) }],
      actions: [],
    });
    const review = await eventually(async () => {
      const description = await reviewOf(id).describe();
      return description.typedSearchAttributes.get(NEEDS_REVIEW_KEY)?.length ? description : undefined;
    }, 'NeedsReview on the review');
    expect(review.typedSearchAttributes.get(NEEDS_REVIEW_KEY)).toEqual(['open_too_long']);
    expect(review.typedSearchAttributes.get(PROVIDER_CODE_KEY)).toBe('sandbox');
    expect((review.memo?.[REVIEW_MEMO_KEY] as ReviewMemo).open).toEqual([
      { reason: 'open_too_long', detail: record.reasons[0]!.detail, raisedAt: record.reasons[0]!.raisedAt },
    ]);
    expect(review.status.name).toBe('RUNNING');

    // The provider completes it; the order closes, its history replays against this code.
    await report(handle, 'complete', 'COMPLETED');
    expect((await handle.result()).order.status).toBe('complete');
    expect(await patchMarkers(handle)).toEqual([expect.stringContaining(`"${OPERATOR_REVIEW_PATCH}"`)]);
    const bundle = await workflowBundle();
    await expect(
      Worker.runReplayHistory({ workflowBundle: bundle, sinks: orderSinks() }, await handle.fetchHistory()),
    ).resolves.toBeUndefined();
    // So does the review's, open still.
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, await reviewOf(id).fetchHistory())).resolves.toBeUndefined();
  });

  test('an operator poll: the provider is asked now, and the audit entry ends done', async () => {
    const id = '00000000-0000-5000-8000-0000000000b1';
    const { handle } = await startOrder(id, { pollInitialMs: DAY, pollMaxMs: DAY });
    await request(handle, id, 'poll-b1', 'poll');
    const outcome = await outcomeOf(id, 'poll-b1');
    expect(outcome).toMatchObject({ requestId: 'poll-b1', outcome: 'done', detail: 'polled: the order is created' });
    expect(scheduled(await historyEvents(handle), 'getProviderOrderStatus')).toBe(1);
    // Nothing needs a person: the review is out of the queue.
    expect((await reviewOf(id).describe()).typedSearchAttributes.get(NEEDS_REVIEW_KEY)).toBeUndefined();
    await report(handle, 'complete', 'COMPLETED');
  });

  test('cancel of an unpaid order: the provider cancels it, the order fails, and the audit entry ends done', async () => {
    const id = '00000000-0000-5000-8000-0000000000c1';
    const { handle, created } = await startOrder(id, { pollInitialMs: DAY, pollMaxMs: DAY });
    await request(handle, id, 'cancel-c1', 'cancel');
    const outcome = await outcomeOf(id, 'cancel-c1');
    expect(outcome).toMatchObject({ outcome: 'done', detail: 'the provider accepted the cancellation; the order is failed' });
    const memo = await handle.query(getOrderQuery);
    expect(memo).toMatchObject({ order: { status: 'failed', failure_reason: 'cancelled_by_partner' }, sequence: 2 });
    expect(stack.simulator.orders.get(created.order.extras.provider_order_id as string)).toMatchObject({
      status: 'FAILED',
      failure_reason: 'cancelled_by_partner',
    });
  });

  test('cancel of a paid (processing) order is refused by the order, which stays as it is and asks the provider nothing', async () => {
    const id = '00000000-0000-5000-8000-0000000000c2';
    const { handle, created } = await startOrder(id, { pollInitialMs: DAY, pollMaxMs: DAY });
    const paid = await report(handle, 'processing', 'PAYMENT_RECEIVED');
    await request(handle, id, 'cancel-c2', 'cancel');
    const outcome = await outcomeOf(id, 'cancel-c2');
    expect(outcome).toMatchObject({ outcome: 'refused', detail: 'the order is processing: only an unpaid order is cancelled' });
    expect(await handle.query(getOrderQuery)).toEqual(paid);
    expect(scheduled(await historyEvents(handle), 'cancelProviderOrder')).toBe(0);
    expect(stack.simulator.orders.get(created.order.extras.provider_order_id as string)?.status).toBe('CREATED');
    await report(handle, 'complete', 'COMPLETED');
  });

  test('cancel of an order the provider has been paid for, though the order does not know it yet: the provider refuses, and the poll after it brings the payment', async () => {
    const id = '00000000-0000-5000-8000-0000000000c3';
    const { handle, created } = await startOrder(id, { pollInitialMs: DAY, pollMaxMs: DAY });
    await checkout(created.order.redirect_url, 'pay');
    await request(handle, id, 'cancel-c3', 'cancel');
    const outcome = await outcomeOf(id, 'cancel-c3');
    expect(outcome.outcome).toBe('refused');
    expect(outcome.detail).toMatch(/^the provider did not cancel: /);
    // The provider's word decides: the poll that follows the refusal finds the order paid.
    expect((await handle.query(getOrderQuery))?.order.status).toBe('processing');
    // A refusal is final: asked once.
    expect(scheduled(await historyEvents(handle), 'cancelProviderOrder')).toBe(1);
    await report(handle, 'complete', 'COMPLETED');
  });

  describe('a malformed operator request is dropped: the workflow task does not fail, nothing is acted on', () => {
    /** Sends each, then a well-formed poll: its outcome shows the order still runs its tasks. */
    async function sendThenPoll(id: string, malformed: unknown[]) {
      const { handle, created } = await startOrder(id, { pollInitialMs: DAY, pollMaxMs: DAY });
      for (const sent of malformed) await handle.signal(operatorRequestSignal, sent as never);
      await request(handle, id, 'poll-after', 'poll');
      expect(await outcomeOf(id, 'poll-after')).toMatchObject({ outcome: 'done' });
      const events = await historyEvents(handle);
      expect(taskFailures(events)).toEqual([]);
      return { handle, created, events };
    }

    test('not an object at all', async () => {
      const id = '00000000-0000-5000-8000-0000000000d1';
      const { handle } = await sendThenPoll(id, [null, 'cancel', 42, [], [{ requestId: 'r', action: 'cancel', operatorId: 'op' }], true]);
      expect((await handle.query(getOrderQuery))?.order.status).toBe('created');
      await report(handle, 'complete', 'COMPLETED');
    });

    test('an object with a field missing, of another type, empty, over-long, or an action not known', async () => {
      const id = '00000000-0000-5000-8000-0000000000d2';
      const { handle, created, events } = await sendThenPoll(id, [
        {},
        { requestId: 'm-1', action: 'cancel' },
        { requestId: 'm-2', action: 'cancel', operatorId: 5 },
        { requestId: '', action: 'cancel', operatorId: 'op' },
        { requestId: 'm-3', action: 'cancel', operatorId: 'o'.repeat(301) },
        { requestId: 'r'.repeat(301), action: 'poll', operatorId: 'op' },
        { requestId: 'm-4', action: ['cancel'], operatorId: 'op' },
        { requestId: 'm-5', action: 'delete_order', operatorId: 'op' },
        { requestId: { id: 'm-6' }, action: 'poll', operatorId: 'op' },
      ]);
      // Not cancelled, and polled once: for the well-formed request only.
      expect((await handle.query(getOrderQuery))?.order.status).toBe('created');
      expect(stack.simulator.orders.get(created.order.extras.provider_order_id as string)?.status).not.toBe('FAILED');
      expect(scheduled(events, 'cancelProviderOrder')).toBe(0);
      expect(scheduled(events, 'getProviderOrderStatus')).toBe(1);
      await report(handle, 'complete', 'COMPLETED');
    });
  });
});
