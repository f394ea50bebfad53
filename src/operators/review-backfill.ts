/**
 * `npm run reviews:backfill`: orders flagged before the review queue existed (an IntegrityAlert, a
 * ReviewReason, a ReconciliationMismatch on the order workflow) have no review, so the queue would
 * not show them. This opens one for each that has none, from its search attributes alone (no memo
 * is decoded). An order that has a review already (opened by the order or a reconciliation since
 * the upgrade) is left as it is, so running it again opens nothing. A webhook given up on before
 * the upgrade left no search attribute: it cannot be found here (docs/operations.md, "Review queue").
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { TypedSearchAttributes } from '@temporalio/common';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { forEachAtMost } from '../orders/reservation-backfill';
import {
  INTEGRATOR_ID_KEY,
  INTEGRITY_ALERT_KEY,
  orderIdOfWorkflowId,
  PROVIDER_CODE_KEY,
  REVIEW_REASON_KEY,
} from '../temporal/order-contract';
import { rawExecutions } from '../temporal/raw-visibility';
import { RECONCILIATION_MISMATCH_KEY } from '../temporal/reconciliation-contract';
import { QUEUE_REASONS, reviewWorkflowId, type QueueReason, type ReviewNotice, type ReviewSubject } from '../temporal/review-contract';
import type { ReviewTeller } from '../temporal/reviews';

/** Flagged order workflows; runs closed by continue-as-new are left out (the order's latest run stands for it). */
const FLAGGED_ORDERS_QUERY =
  "WorkflowType = 'orderWorkflow' AND ExecutionStatus != 'ContinuedAsNew' AND " +
  '(IntegrityAlert IS NOT NULL OR ReviewReason IS NOT NULL OR ReconciliationMismatch IS NOT NULL)';
const RPC_TIMEOUT_MS = 10_000;

export interface ReviewBackfillOptions {
  client: Client;
  teller: ReviewTeller;
  /** Only count what would be opened. */
  dryRun?: boolean;
  concurrency?: number;
  /** The time the notices say they were raised (default now). */
  now?: () => Date;
}

export interface ReviewBackfillSummary {
  dryRun: boolean;
  /** Flagged orders found in visibility. */
  flagged: number;
  /** Reviews opened now (a dry run: would be opened). */
  opened: number;
  /** Flagged orders that have a review already. */
  alreadyReviewed: number;
  failed: { workflowId: string; reason: string }[];
}

/** One flagged order, as its search attributes say. */
interface FlaggedOrder {
  workflowId: string;
  subject: ReviewSubject;
  notices: Omit<ReviewNotice, 'raisedAt'>[];
}

export async function backfillReviews(options: ReviewBackfillOptions): Promise<ReviewBackfillSummary> {
  const flagged = new Map<string, FlaggedOrder>();
  for await (const execution of rawExecutions(options.client, FLAGGED_ORDERS_QUERY, RPC_TIMEOUT_MS)) {
    const order = flaggedOrderOf(execution.execution?.workflowId, decodeTypedSearchAttributes(execution.searchAttributes?.indexedFields));
    if (order) flagged.set(order.workflowId, order);
  }
  const summary: ReviewBackfillSummary = {
    dryRun: options.dryRun ?? false,
    flagged: flagged.size,
    opened: 0,
    alreadyReviewed: 0,
    failed: [],
  };
  const raisedAt = (options.now?.() ?? new Date()).toISOString();
  await forEachAtMost(options.concurrency ?? 8, flagged.values(), async (order) => {
    try {
      if (await hasReview(options.client, order.subject)) {
        summary.alreadyReviewed++;
        return;
      }
      if (!options.dryRun) for (const notice of order.notices) await options.teller.notice(order.subject, { ...notice, raisedAt });
      summary.opened++;
    } catch (err) {
      summary.failed.push({ workflowId: order.workflowId, reason: err instanceof Error ? err.message : String(err) });
    }
  });
  summary.failed.sort((a, b) => a.workflowId.localeCompare(b.workflowId));
  return summary;
}

/** The order and the notices its flags make; undefined for a record that names no order or provider. */
export function flaggedOrderOf(workflowId: string | null | undefined, attributes: TypedSearchAttributes): FlaggedOrder | undefined {
  const orderId = workflowId ? orderIdOfWorkflowId(workflowId) : undefined;
  const providerCode = attributes.get(PROVIDER_CODE_KEY);
  if (!workflowId || !orderId || typeof providerCode !== 'string') return undefined;
  const integratorId = attributes.get(INTEGRATOR_ID_KEY);
  const subject: ReviewSubject = {
    kind: 'order',
    orderId,
    providerCode,
    integratorId: typeof integratorId === 'string' ? integratorId : 'unknown',
  };
  const notices: FlaggedOrder['notices'] = [];
  const found = (name: string) => `flagged before the review queue existed (backfilled): ${name}`;
  // The keys the order workflow itself uses for these reasons: one told later is kept once.
  for (const value of [attributes.get(INTEGRITY_ALERT_KEY), attributes.get(REVIEW_REASON_KEY)]) {
    if (typeof value === 'string' && (QUEUE_REASONS as readonly string[]).includes(value)) {
      notices.push({ reason: value as QueueReason, key: value, detail: found(value), source: 'order' });
    }
  }
  const kinds = attributes.get(RECONCILIATION_MISMATCH_KEY);
  if (Array.isArray(kinds) && kinds.length > 0) {
    notices.push({
      reason: 'reconciliation_mismatch',
      key: `backfill:${kinds.join(',')}`,
      detail: found(`ReconciliationMismatch ${kinds.join(', ')}`),
      source: 'reconciliation',
    });
  }
  return notices.length > 0 ? { workflowId, subject, notices } : undefined;
}

async function hasReview(client: Client, subject: ReviewSubject): Promise<boolean> {
  if (subject.kind !== 'order') return false;
  try {
    await client.withDeadline(Date.now() + RPC_TIMEOUT_MS, () => client.workflow.getHandle(reviewWorkflowId(subject.orderId)).describe());
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** What an operator reads: counts first, then each failure. */
export function formatReviewBackfill(summary: ReviewBackfillSummary): string {
  return [
    `flagged orders listed: ${summary.flagged}`,
    `${summary.dryRun ? 'would open (dry run, nothing opened)' : 'reviews opened now'}: ${summary.opened}`,
    `already reviewed: ${summary.alreadyReviewed}`,
    `failed: ${summary.failed.length}`,
    ...summary.failed.map(({ workflowId, reason }) => `  ${workflowId}: ${reason}`),
    '',
  ].join('\n');
}
