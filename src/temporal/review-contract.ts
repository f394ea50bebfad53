/**
 * The review queue's contract (docs/operations.md, "Review queue"): the review workflow that keeps
 * what about one order (or one provider transaction the broker never had) needs a person, and every
 * operator action taken on it; the signals the order workflow, the reconciliation and the operator
 * API send it; and the signal an operator's request reaches an order by. Imported by workflow code,
 * so it stays free of Node built-ins and I/O.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';

/**
 * What still needs a person about the subject of a review (absent once every reason is acknowledged):
 * the review queue is the open review workflows that have it.
 */
export const NEEDS_REVIEW_KEY = defineSearchAttributeKey('NeedsReview', SearchAttributeType.KEYWORD_LIST);

export const REVIEW_WORKFLOW_TYPE = 'reviewWorkflow';

/**
 * Why something is in the queue: an order's IntegrityAlert (`payment_differs`, `report_refused`), its
 * ReviewReason (`open_too_long`), a reconciliation's mismatch about it (or a provider transaction the
 * broker never had), and an integrator webhook the order gave up delivering (retries used up, or its
 * URL refused). docs/operations.md has a runbook for each.
 */
export const QUEUE_REASONS = [
  'payment_differs',
  'report_refused',
  'open_too_long',
  'reconciliation_mismatch',
  'webhook_not_delivered',
] as const;
export type QueueReason = (typeof QUEUE_REASONS)[number];

/** What an operator may do: acknowledge (with a note), poll the provider now, cancel an unpaid order, resend the integrator webhook. */
export const OPERATOR_ACTIONS = ['acknowledge', 'poll', 'cancel', 'resend_webhook'] as const;
export type OperatorActionName = (typeof OPERATOR_ACTIONS)[number];

/** What a review is about: a broker order, or a provider's transaction with no order here (reconciliation's missing_here). */
export type ReviewSubject =
  | { kind: 'order'; orderId: string; providerCode: string; integratorId: string }
  | { kind: 'provider_transaction'; providerCode: string; providerOrderId: string };

/** The review workflow of a review id (src/operators/review-ids.ts makes them: the order id, or the provider's transaction's digest). */
export const reviewWorkflowId = (reviewId: string) => `onramp-review-${reviewId}`;

/** A reason raised: `key` names the occurrence, so the same finding told twice (a retried activity, a rerun) is kept once. */
export interface ReviewNotice {
  reason: QueueReason;
  key: string;
  /** What was found, for the operator (bounded: REVIEW_TEXT_MAX). */
  detail: string;
  /** When it was found (ISO 8601). */
  raisedAt: string;
  source: 'order' | 'reconciliation';
}

/** An operator's action, as the operator API records it before it acts (the audit entry). */
export interface OperatorAction {
  /** Unique per request (the API's): the outcome names it. */
  requestId: string;
  action: OperatorActionName;
  /** The operator's id (src/config/operators.ts): who acted. */
  operatorId: string;
  note?: string;
  /** When the API took the request (ISO 8601). */
  at: string;
  /** acknowledge: the reasons acknowledged; absent: every open one. */
  reasons?: QueueReason[];
  /**
   * acknowledge: the occurrences acknowledged, by key: those open when the operator read the review
   * (the API sends them), so one raised meanwhile stays open. Absent: every open one of `reasons`.
   */
  keys?: string[];
}

/** What became of an action: told by the API (acknowledge, resend) or by the order's workflow (poll, cancel). */
export interface ActionOutcome {
  requestId: string;
  outcome: 'done' | 'refused' | 'failed';
  detail?: string;
  at: string;
}

/** An audit entry: the action, and its outcome once known. */
export interface AuditEntry extends OperatorAction {
  outcome?: ActionOutcome;
}

/** A reason as the review keeps it: open until acknowledged. */
export interface ReviewReasonEntry extends ReviewNotice {
  acknowledged?: { operatorId: string; note?: string; at: string; requestId: string };
}

/** The review: its subject, every reason raised (open and acknowledged) and every action taken, oldest first. */
export interface ReviewRecord {
  reviewId: string;
  subject: ReviewSubject;
  reasons: ReviewReasonEntry[];
  actions: AuditEntry[];
  /** The reasons still open (the NeedsReview search attribute). */
  open: QueueReason[];
}

/** What the review's memo holds, for the queue's listing without a worker: the subject and the open reasons. */
export interface ReviewMemo {
  reviewId: string;
  subject: ReviewSubject;
  open: { reason: QueueReason; detail: string; raisedAt: string }[];
}
export const REVIEW_MEMO_KEY = 'review';

export interface ReviewInput {
  reviewId: string;
  subject: ReviewSubject;
  /** How long the record stays open (queryable, and acted on) after its last change. */
  keepMs: number;
  /** History length at which the workflow continues as new (tests lower it; 1,000 when absent). */
  historyEventsBeforeContinue?: number;
}

/** Bounds of one review: texts cut to REVIEW_TEXT_MAX characters; reasons and actions beyond their most are refused. */
export const REVIEW_TEXT_MAX = 2_000;
export const REVIEW_REASONS_MAX = 200;
export const REVIEW_ACTIONS_MAX = 500;

export const reviewNoticeSignal = defineSignal<[ReviewNotice]>('reviewNotice');
export const operatorActionSignal = defineSignal<[OperatorAction]>('operatorAction');
export const actionOutcomeSignal = defineSignal<[ActionOutcome]>('actionOutcome');
export const reviewRecordQuery = defineQuery<ReviewRecord>('reviewRecord');

/**
 * An operator's request to an order's workflow (poll, cancel; acknowledge and resend are recorded only).
 * The outcome goes to the order's review, whose id is the order's.
 */
export interface OperatorRequest {
  requestId: string;
  action: OperatorActionName;
  operatorId: string;
}
export const operatorRequestSignal = defineSignal<[OperatorRequest]>('operatorRequest');

/** What the order workflow tells its review: a reason raised, or an action's outcome. */
export type ReviewMessage = { subject: ReviewSubject } & ({ notice: ReviewNotice } | { outcome: ActionOutcome });
