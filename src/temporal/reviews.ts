/**
 * Telling a review (src/temporal/review-contract.ts) what happened: each message a signal-with-start
 * of its review workflow, so the first one opens the review and the rest join it. Used by the
 * workers' activities (a reason an order raised, a reconciliation's mismatch, an action's outcome)
 * and by the operator API (the actions). Not workflow code.
 */
import type { Client } from '@temporalio/client';
import { hash } from 'node:crypto';
import { INTEGRATOR_ID_KEY, PROVIDER_CODE_KEY } from './order-contract';
import {
  actionOutcomeSignal,
  operatorActionSignal,
  REVIEW_WORKFLOW_TYPE,
  reviewNoticeSignal,
  reviewWorkflowId,
  type ActionOutcome,
  type OperatorAction,
  type ReviewInput,
  type ReviewNotice,
  type ReviewSubject,
} from './review-contract';

/** A review id: an order's is its id; a provider transaction's names the provider and a digest of its id. */
export function reviewIdOf(subject: ReviewSubject): string {
  if (subject.kind === 'order') return subject.orderId;
  return `${subject.providerCode}-txn-${hash('sha256', subject.providerOrderId, 'hex').slice(0, 32)}`;
}

/** What review ids look like (src/api validates paths with it). */
export const REVIEW_ID_PATTERN = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9_]{1,40}-txn-[0-9a-f]{32})$/;

export interface ReviewTellerOptions {
  client: Client;
  taskQueue: string;
  /** How long a review stays open after its last change (REVIEW_KEEP_DAYS). */
  keepMs: number;
}

export class ReviewTeller {
  constructor(private readonly options: ReviewTellerOptions) {}

  notice(subject: ReviewSubject, notice: ReviewNotice): Promise<void> {
    return this.send(subject, reviewNoticeSignal.name, notice);
  }

  action(subject: ReviewSubject, action: OperatorAction): Promise<void> {
    return this.send(subject, operatorActionSignal.name, action);
  }

  outcome(subject: ReviewSubject, outcome: ActionOutcome): Promise<void> {
    return this.send(subject, actionOutcomeSignal.name, outcome);
  }

  private async send(subject: ReviewSubject, signal: string, message: ReviewNotice | OperatorAction | ActionOutcome): Promise<void> {
    const { client, taskQueue, keepMs } = this.options;
    const reviewId = reviewIdOf(subject);
    const input: ReviewInput = { reviewId, subject, keepMs };
    await client.workflow.signalWithStart(REVIEW_WORKFLOW_TYPE, {
      workflowId: reviewWorkflowId(reviewId),
      taskQueue,
      args: [input],
      signal,
      signalArgs: [message],
      typedSearchAttributes: [
        { key: PROVIDER_CODE_KEY, value: subject.providerCode },
        ...(subject.kind === 'order' ? [{ key: INTEGRATOR_ID_KEY, value: subject.integratorId }] : []),
      ],
    });
  }
}
