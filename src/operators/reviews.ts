/**
 * The operators' review queue (docs/operations.md, "Review queue"), over Temporal: the open reviews
 * by visibility, a review's record by its workflow's query, and the primitives every operator action
 * is made of: recorded first (the audit entry, in the review's history), then the order told (its
 * history), then the outcome. The API routes (src/api/routes/operator-reviews.ts) compose them.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import { decodeMapFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { hash, randomUUID } from 'node:crypto';
import type { Operator } from '../config/operators';
import { isTemporalUnreachable, OrderUnavailableError } from '../orders/errors';
import { literal } from '../orders/visibility-query';
import { orderWorkflowId, type OrderMemo } from '../temporal/order-contract';
import {
  operatorRequestSignal,
  REVIEW_ACTIONS_MAX,
  REVIEW_MEMO_KEY,
  REVIEW_WORKFLOW_TYPE,
  reviewRecordQuery,
  reviewWorkflowId,
  type ActionOutcome,
  type AuditEntry,
  type OperatorActionName,
  type QueueReason,
  type ReviewMemo,
  type ReviewRecord,
  type ReviewSubject,
} from '../temporal/review-contract';
import type { ReviewTeller } from '../temporal/reviews';

/**
 * A page token this API did not give (or gave for other filters). Temporal answers a token it cannot
 * read as an unknown error, which would pass for an outage: each token the queue gives carries a
 * check of its bytes and the query, refused here before Temporal sees it.
 */
export class InvalidPageTokenError extends Error {
  constructor() {
    super('page_token is not a next_page_token this API gave for these filters.');
    this.name = 'InvalidPageTokenError';
  }
}

const tokenCheck = (bytes: Uint8Array, query: string) =>
  hash('sha256', Buffer.concat([Buffer.from(query), Buffer.from(bytes)]), 'hex').slice(0, 16);

export interface QueueFilters {
  reason?: QueueReason;
  providerCode?: string;
  integratorId?: string;
}

/** One page of the queue: the open reviews, and where the next page starts (Temporal's own page token). */
export interface QueuePage {
  reviews: (ReviewMemo & { openedAt: string })[];
  nextPageToken?: string;
}

/** An order as an operator acts on it: its memo, and whether its workflow still runs (takes signals). */
export interface OperatedOrder {
  memo: OrderMemo;
  subject: ReviewSubject & { kind: 'order' };
  running: boolean;
}

/** A refusal the API answers 409 with: the order's workflow has ended, or the action cannot be taken. */
export class ActionRefusedError extends Error {
  constructor(
    readonly reason: 'order_closed' | 'action_refused',
    message: string,
  ) {
    super(message);
    this.name = 'ActionRefusedError';
  }
}

export interface ReviewDeskOptions {
  client: Client;
  teller: ReviewTeller;
  /** Deadline of one Temporal call (default 10 s): the operator gets a 503 rather than a hang. */
  timeoutMs?: number;
}

export class ReviewDesk {
  constructor(private readonly options: ReviewDeskOptions) {}

  /** The open reviews (NeedsReview set), newest first as visibility lists them, a page at a time. */
  async queue(filters: QueueFilters, pageSize: number, pageToken?: string): Promise<QueuePage> {
    const { client } = this.options;
    const clauses = [`WorkflowType = ${literal('type', REVIEW_WORKFLOW_TYPE)}`, `ExecutionStatus = 'Running'`, 'NeedsReview IS NOT NULL'];
    if (filters.reason) clauses.push(`NeedsReview = ${literal('reason', filters.reason)}`);
    if (filters.providerCode) clauses.push(`ProviderCode = ${literal('provider_code', filters.providerCode)}`);
    if (filters.integratorId) clauses.push(`IntegratorId = ${literal('integrator_id', filters.integratorId)}`);
    const query = clauses.join(' AND ');
    const token = pageToken === undefined ? undefined : readPageToken(pageToken, query);
    const response = await this.calling('list', () =>
      client.workflowService.listWorkflowExecutions({
        namespace: client.options.namespace,
        query,
        pageSize,
        ...(token ? { nextPageToken: token } : {}),
      }),
    );
    const reviews: QueuePage['reviews'] = [];
    for (const raw of response.executions) {
      const memo = await this.calling('decode', () =>
        decodeMapFromPayloads(this.converter, raw.memo?.fields, {
          type: 'workflow',
          namespace: client.options.namespace,
          workflowId: raw.execution?.workflowId ?? '',
        }),
      );
      const review = memo?.[REVIEW_MEMO_KEY] as ReviewMemo | undefined;
      if (!review) continue;
      const startedMs = Number(raw.startTime?.seconds ?? 0) * 1000 + Math.floor((raw.startTime?.nanos ?? 0) / 1e6);
      reviews.push({ ...review, openedAt: new Date(startedMs).toISOString() });
    }
    const bytes = response.nextPageToken;
    const next = bytes?.length ? `${Buffer.from(bytes).toString('base64url')}.${tokenCheck(bytes, query)}` : undefined;
    return { reviews, ...(next ? { nextPageToken: next } : {}) };
  }

  /** A review's record (a closed one's too, while its history is kept); undefined when there is none. */
  async review(reviewId: string): Promise<ReviewRecord | undefined> {
    try {
      return await this.calling('query', () => this.options.client.workflow.getHandle(reviewWorkflowId(reviewId)).query(reviewRecordQuery));
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    }
  }

  /** The order an operator acts on; undefined when there is none. */
  async order(orderId: string): Promise<OperatedOrder | undefined> {
    try {
      const description = await this.calling('describe', () => this.options.client.workflow.getHandle(orderWorkflowId(orderId)).describe());
      const memo = description.memo as Partial<OrderMemo> | undefined;
      if (!memo?.order || memo.integratorId === undefined || memo.providerCode === undefined) return undefined;
      return {
        memo: memo as OrderMemo,
        subject: { kind: 'order', orderId, providerCode: memo.providerCode, integratorId: memo.integratorId },
        running: description.status.name === 'RUNNING',
      };
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    }
  }

  /**
   * Records the action in the subject's review before anything is done (its audit entry, opening the
   * review if it had none); refused when the review holds its most actions.
   */
  async record(
    subject: ReviewSubject,
    operator: Operator,
    action: OperatorActionName,
    details: { note?: string; reasons?: QueueReason[]; keys?: string[]; known?: ReviewRecord },
  ): Promise<AuditEntry> {
    if ((details.known?.actions.length ?? 0) >= REVIEW_ACTIONS_MAX) {
      throw new ActionRefusedError('action_refused', `The review holds ${REVIEW_ACTIONS_MAX} actions, the most it keeps.`);
    }
    const entry: AuditEntry = {
      requestId: randomUUID(),
      action,
      operatorId: operator.id,
      at: new Date().toISOString(),
      ...(details.note === undefined ? {} : { note: details.note }),
      ...(details.reasons === undefined ? {} : { reasons: details.reasons }),
      ...(details.keys === undefined ? {} : { keys: details.keys }),
    };
    await this.calling('signal', () => this.options.teller.action(subject, entry));
    return entry;
  }

  /** Tells the order's workflow of the action (its history records it); false when the workflow has ended. */
  async tellOrder(orderId: string, entry: AuditEntry): Promise<boolean> {
    try {
      await this.calling('signal', () =>
        this.options.client.workflow
          .getHandle(orderWorkflowId(orderId))
          .signal(operatorRequestSignal, { requestId: entry.requestId, action: entry.action, operatorId: entry.operatorId }),
      );
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  }

  /** The action's outcome, on its audit entry. */
  async settle(subject: ReviewSubject, entry: AuditEntry, outcome: ActionOutcome['outcome'], detail: string): Promise<ActionOutcome> {
    const told: ActionOutcome = { requestId: entry.requestId, outcome, detail, at: new Date().toISOString() };
    await this.calling('signal', () => this.options.teller.outcome(subject, told));
    return told;
  }

  private get converter(): LoadedDataConverter {
    return (this.options.client.options as unknown as { loadedDataConverter: LoadedDataConverter }).loadedDataConverter;
  }

  /** `call` under the desk's deadline; Temporal out of reach is OrderUnavailableError (503). */
  private async calling<T>(what: string, call: () => Promise<T>): Promise<T> {
    const { client, timeoutMs = 10_000 } = this.options;
    try {
      return await client.withDeadline(Date.now() + timeoutMs, call);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw err;
      if (isTemporalUnreachable(err)) {
        throw new OrderUnavailableError(`The order engine cannot be reached (${what}); try again shortly.`, 5);
      }
      throw err;
    }
  }
}

/** The Temporal page token a queue page gave for `query`; InvalidPageTokenError for any other. */
function readPageToken(pageToken: string, query: string): Uint8Array {
  const [encoded, check, ...rest] = pageToken.split('.');
  const bytes = Buffer.from(encoded ?? '', 'base64url');
  if (rest.length > 0 || bytes.length === 0 || check !== tokenCheck(bytes, query)) throw new InvalidPageTokenError();
  return bytes;
}
