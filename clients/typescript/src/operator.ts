import { Transport, type ConnectionOptions } from './http.js';
import type {
  AcknowledgeRequest,
  AuditEntry,
  DailySummary,
  DailySummaryFilters,
  OperatorResendResult,
  QueuedReview,
  ReviewQueue,
  ReviewQueueQuery,
  ReviewRecord,
} from './types.js';

export interface OperatorClientOptions extends ConnectionOptions {
  /** An operator key (ONRAMP_OPERATORS_FILE), sent as `Authorization: Bearer`; never an integrator's API key. */
  operatorKey: string;
}

/**
 * The operator API (`/api/operator`), for the team running the broker: the review queue, the actions
 * on an order (each recorded in its review's audit first) and the daily summary for billing. It
 * sends only the operator key, and the integrator's OnrampClient only its API key: the broker takes
 * neither for the other. Nothing is retried (each action is a new audit entry); every failure is a
 * ProblemError.
 */
export class OperatorClient {
  private readonly transport: Transport;

  constructor(options: OperatorClientOptions) {
    this.transport = new Transport(options, { authorization: `Bearer ${options.operatorKey}` });
  }

  /** One page of the open reviews, newest first; pass `next_page_token` as `page_token` for the next. */
  reviewQueue(query: ReviewQueueQuery = {}): Promise<ReviewQueue> {
    return this.get('/api/operator/reviews', query);
  }

  /** Every open review matching the filters, newest first, page after page. */
  async *allQueuedReviews(query: Omit<ReviewQueueQuery, 'page_token'> = {}): AsyncGenerator<QueuedReview> {
    let token: string | undefined;
    do {
      const page = await this.reviewQueue({ ...query, ...(token ? { page_token: token } : {}) });
      yield* page.reviews;
      token = page.next_page_token;
    } while (token);
  }

  /**
   * A review: its reasons (open and acknowledged), every action on it (the audit) and, for an order,
   * the order as it stands. `reviewId` is the order's id, or a provider transaction's review id.
   */
  review(reviewId: string): Promise<ReviewRecord> {
    return this.get(`/api/operator/reviews/${encodeURIComponent(reviewId)}`, {});
  }

  /**
   * Acknowledges the named open reasons (every open one without `reasons`) with a note; the review
   * leaves the queue once none is open. Nothing of the order moves. `action_refused` (409) when none
   * of them is open.
   */
  acknowledge(reviewId: string, body: AcknowledgeRequest): Promise<AuditEntry> {
    return this.post(`/api/operator/reviews/${encodeURIComponent(reviewId)}/acknowledge`, body);
  }

  /**
   * Asks the order's workflow to poll its provider now (answered 202): the entry has no outcome yet;
   * it comes to the order's review. `order_closed` (409) once the order is final.
   */
  pollOrder(orderId: string, note?: string): Promise<AuditEntry> {
    return this.post(orderAction(orderId, 'poll'), note === undefined ? {} : { note });
  }

  /**
   * Cancels an unpaid order at its provider, when the provider documents a cancellation (answered
   * 202; the outcome comes to the order's review). `action_refused` (409) for a paid order or a
   * provider without one, `order_closed` (409) once the order is final.
   */
  cancelOrder(orderId: string, note: string): Promise<AuditEntry> {
    return this.post(orderAction(orderId, 'cancel'), { note });
  }

  /**
   * Sends the order's latest webhook to its integrator once more (the same `webhook-id` and body),
   * never retried; resolves whether or not the endpoint accepted it (`delivered`, `outcome`).
   */
  resendWebhook(orderId: string, note?: string): Promise<OperatorResendResult> {
    return this.post(orderAction(orderId, 'resend_webhook'), note === undefined ? {} : { note });
  }

  /**
   * The orders of one UTC day (`YYYY-MM-DD`, ended at least 90 s ago) per integrator, provider and
   * fiat currency, with totals per fiat currency: whole, or a problem (never a smaller summary).
   */
  dailySummary(date: string, filters: DailySummaryFilters = {}): Promise<DailySummary> {
    return this.get('/api/operator/summaries/daily', { ...filters, date, format: 'json' });
  }

  /** The same summary as CSV (RFC 4180, a header record, one record per row), as the response body's byte stream. */
  async dailySummaryCsv(date: string, filters: DailySummaryFilters = {}): Promise<ReadableStream<Uint8Array>> {
    const response = await this.transport.stream({
      path: '/api/operator/summaries/daily',
      query: { ...filters, date, format: 'csv' },
      headers: { accept: 'text/csv' },
    });
    return response.body!;
  }

  private async get<T>(path: string, query: object): Promise<T> {
    return (await this.transport.send<T>({ path, query: query as Record<string, string | number | boolean | undefined> })).body;
  }

  private async post<T>(path: string, body: object): Promise<T> {
    return (await this.transport.send<T>({ method: 'POST', path, body })).body;
  }
}

const orderAction = (orderId: string, action: 'poll' | 'cancel' | 'resend_webhook') =>
  `/api/operator/orders/${encodeURIComponent(orderId)}/${action}`;
