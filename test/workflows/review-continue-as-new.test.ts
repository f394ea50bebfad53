/**
 * The review workflow continuing as new past its history bound, on a real Temporal dev server: the
 * signals the test sends may meet the task that continues the run, and only the real server hands
 * such a signal to the next run (the time-skipping test server can lose it, so this test is not in
 * review.test.ts). A short `keepMs` lets the review close in real time.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { PROVIDER_CODE_KEY } from '../../src/temporal/order-contract';
import {
  NEEDS_REVIEW_KEY,
  operatorActionSignal,
  REVIEW_MEMO_KEY,
  REVIEW_WORKFLOW_TYPE,
  reviewNoticeSignal,
  reviewRecordQuery,
  reviewWorkflowId,
  type ReviewMemo,
  type ReviewNotice,
  type ReviewRecord,
  type ReviewSubject,
} from '../../src/temporal/review-contract';
import type { reviewWorkflow } from '../../workflows/review';
import { eventually } from '../helpers/http';
import { operatorAction, reviewNotice } from '../helpers/review-messages';
import { startTemporal, workflowBundle } from '../helpers/temporal';

const TASK_QUEUE = 'review-continue-as-new';
const SUBJECT: ReviewSubject = { kind: 'provider_transaction', providerCode: 'sandbox', providerOrderId: 'sb-nowhere' };

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  env = await startTemporal();
  worker = await Worker.create({ connection: env.nativeConnection, taskQueue: TASK_QUEUE, workflowBundle: await workflowBundle() });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

const notice = reviewNotice;
const action = operatorAction;

function recordWhen(reviewId: string, what: string, ready: (record: ReviewRecord) => boolean): Promise<ReviewRecord> {
  return eventually(
    async () => {
      const record = await env.client.workflow
        .getHandle(reviewWorkflowId(reviewId))
        .query(reviewRecordQuery)
        .catch(() => undefined);
      return record && ready(record) ? record : undefined;
    },
    what,
    20_000,
  );
}

test('past its history bound it continues as new, carrying its reasons, actions and NeedsReview', async () => {
  const reviewId = 'sandbox-txn-continued';
  const handle = await env.client.workflow.signalWithStart<typeof reviewWorkflow, [ReviewNotice]>(REVIEW_WORKFLOW_TYPE, {
    workflowId: reviewWorkflowId(reviewId),
    taskQueue: TASK_QUEUE,
    args: [{ reviewId, subject: SUBJECT, keepMs: 2_000, historyEventsBeforeContinue: 20 }],
    signal: reviewNoticeSignal,
    signalArgs: [notice('m-0', { reason: 'payment_differs' })],
    typedSearchAttributes: [{ key: PROVIDER_CODE_KEY, value: 'sandbox' }],
  });
  await recordWhen(reviewId, 'the first notice', (r) => r.reasons.length === 1);
  const firstRunId = (await handle.describe()).runId;
  // Two signals at a time, each pair once the last is recorded: some meet a continue-as-new.
  for (let i = 1; i <= 6; i++) {
    await handle.signal(reviewNoticeSignal, notice(`m-${i}`));
    await handle.signal(operatorActionSignal, action(`poll-${i}`, { action: 'poll' }));
    await recordWhen(reviewId, `change ${i}`, (r) => r.actions.length === i && r.reasons.length === i + 1);
  }
  await handle.signal(operatorActionSignal, action('ack-payment', { reasons: ['payment_differs'] }));
  const record = await recordWhen(reviewId, 'the acknowledgement', (r) => r.actions.length === 7);

  const { runId, typedSearchAttributes, memo } = await handle.describe();
  expect(runId).not.toBe(firstRunId);
  const first = (await env.client.workflow.getHandle(reviewWorkflowId(reviewId), firstRunId).fetchHistory()).events ?? [];
  expect(first.at(-1)?.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();

  expect(record.reasons.map((r) => r.key)).toEqual(['m-0', 'm-1', 'm-2', 'm-3', 'm-4', 'm-5', 'm-6']);
  expect(record.reasons[0]!.acknowledged?.requestId).toBe('ack-payment');
  expect(record.actions.map((a) => a.requestId)).toEqual(['poll-1', 'poll-2', 'poll-3', 'poll-4', 'poll-5', 'poll-6', 'ack-payment']);
  expect(record.open).toEqual(['reconciliation_mismatch']);
  expect(typedSearchAttributes.get(NEEDS_REVIEW_KEY)).toEqual(['reconciliation_mismatch']);
  expect((memo?.[REVIEW_MEMO_KEY] as ReviewMemo).open.map((o) => o.reason)).toHaveLength(6);

  // What was carried still dedupes: a notice and a request told again change nothing.
  await handle.signal(reviewNoticeSignal, notice('m-1'));
  await handle.signal(operatorActionSignal, action('poll-1', { action: 'cancel' }));
  await handle.signal(operatorActionSignal, action('ack-all'));
  const result = await handle.result();
  expect(result.reasons).toHaveLength(7);
  expect(result.actions.map((a) => a.requestId)).toEqual([...record.actions.map((a) => a.requestId), 'ack-all']);
  expect(result.actions[0]!.action).toBe('poll');
  expect(result.open).toEqual([]);
});
