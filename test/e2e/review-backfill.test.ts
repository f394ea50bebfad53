/**
 * `npm run reviews:backfill` against a real Temporal dev server: order workflows flagged before the
 * review queue existed (visibility records with IntegrityAlert, ReviewReason, ReconciliationMismatch
 * and no review) each get a review with their reasons, listed in the operators' queue; an order
 * with a review already, or with no flag, gets none; a second run opens nothing.
 */
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { backfillReviews } from '../../src/operators/review-backfill';
import {
  INTEGRATOR_ID_KEY,
  INTEGRITY_ALERT_KEY,
  ORDER_STATUS_KEY,
  orderWorkflowId,
  PROVIDER_CODE_KEY,
  REVIEW_REASON_KEY,
} from '../../src/temporal/order-contract';
import { RECONCILIATION_MISMATCH_KEY } from '../../src/temporal/reconciliation-contract';
import { ReviewTeller } from '../../src/temporal/reviews';
import { callOperatorApi, eventually } from '../helpers/http';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack;

beforeAll(async () => {
  env = await startTemporal();
  stack = await startTestStack(env);
});

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

/** An order workflow as an earlier release left it: its search attributes, on a queue no worker polls (it stays as it is). */
async function olderOrder(attributes: Parameters<typeof env.client.workflow.start>[1]['typedSearchAttributes']): Promise<string> {
  const orderId = randomUUID();
  await env.client.workflow.start('orderWorkflow', {
    workflowId: orderWorkflowId(orderId),
    taskQueue: 'an-earlier-release',
    args: [],
    typedSearchAttributes: [
      { key: PROVIDER_CODE_KEY, value: 'sandbox' },
      { key: INTEGRATOR_ID_KEY, value: 'dev' },
      { key: ORDER_STATUS_KEY, value: 'complete' },
      ...((attributes as []) ?? []),
    ],
  });
  return orderId;
}

const operatorGet = (path: string) => callOperatorApi(stack.apiUrl, path);

test('flagged orders of an earlier release get their reviews once; others get none', async () => {
  const paymentDiffers = await olderOrder([{ key: INTEGRITY_ALERT_KEY, value: 'payment_differs' }]);
  const openAndMismatched = await olderOrder([
    { key: REVIEW_REASON_KEY, value: 'open_too_long' },
    { key: RECONCILIATION_MISMATCH_KEY, value: ['status_differs', 'terms_differ'] },
  ]);
  const unflagged = await olderOrder([]);
  const teller = new ReviewTeller({ client: env.client, taskQueue: stack.config.temporal.taskQueue, keepMs: 86_400_000 });
  // Already reviewed since the upgrade: left as it is.
  const reviewed = await olderOrder([{ key: INTEGRITY_ALERT_KEY, value: 'report_refused' }]);
  const subject = { kind: 'order' as const, orderId: reviewed, providerCode: 'sandbox', integratorId: 'dev' };
  await teller.notice(subject, {
    reason: 'report_refused',
    key: 'report_refused',
    detail: 'told',
    raisedAt: new Date().toISOString(),
    source: 'order',
  });
  const ours = [paymentDiffers, openAndMismatched, reviewed];
  const listed = () =>
    eventually(async () => {
      const dry = await backfillReviews({ client: env.client, teller, dryRun: true });
      return dry.flagged >= 3 ? dry : undefined;
    }, 'the flagged orders in visibility');

  const dry = await listed();
  expect(dry).toMatchObject({ dryRun: true, failed: [] });
  expect((await operatorGet(`/reviews/${paymentDiffers}`)).status).toBe(404);

  const first = await backfillReviews({ client: env.client, teller });
  expect(first.opened).toBe(dry.opened);
  expect(first.opened).toBeGreaterThanOrEqual(2);
  const review = await eventually(async () => {
    const res = await operatorGet(`/reviews/${openAndMismatched}`);
    return res.body.open?.length === 2 ? res.body : undefined;
  }, 'the backfilled review');
  expect(review.open).toEqual(['open_too_long', 'reconciliation_mismatch']);
  expect(review.reasons.map((r: any) => [r.reason, r.key, r.source])).toEqual([
    ['open_too_long', 'open_too_long', 'order'],
    ['reconciliation_mismatch', 'backfill:status_differs,terms_differ', 'reconciliation'],
  ]);
  expect((await operatorGet(`/reviews/${paymentDiffers}`)).body.open).toEqual(['payment_differs']);
  expect((await operatorGet(`/reviews/${reviewed}`)).body.reasons.map((r: any) => r.detail)).toEqual(['told']);
  expect((await operatorGet(`/reviews/${unflagged}`)).status).toBe(404);
  const queue = await eventually(async () => {
    const res = await operatorGet('/reviews?provider_code=sandbox&limit=100');
    const ids = res.body.reviews.map((r: any) => r.review_id);
    return ours.every((id) => ids.includes(id)) ? ids : undefined;
  }, 'the queue');
  expect(queue).not.toContain(unflagged);

  const again = await backfillReviews({ client: env.client, teller });
  expect(again).toMatchObject({ opened: 0, failed: [] });
  expect(again.alreadyReviewed).toBe(again.flagged);
});
