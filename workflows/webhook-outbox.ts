/**
 * Delivery of an order's integrator webhooks, as a plain class the order workflow (workflows/order.ts)
 * starts and tells when its run closes. One webhook at a time, oldest first, so each order's webhooks
 * arrive in order; one activity per attempt, the pause between attempts a timer of the workflow: a
 * closing run stops waiting at once, and the webhook keeps its place, its attempt count and its next
 * attempt's time in the next run (the outbox goes along in the resume state). Workflow code: no Node
 * built-ins, no I/O of its own.
 */
import { ActivityFailure, condition, log, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { OrderActivities, OrdinaryWebhookAttemptOutcome, WebhookAttemptOutcome } from '../activities';
import { DEFAULT_ORDER_TIMINGS, type IntegratorNotification, type OrderTimings } from '../src/temporal/order-contract';
import { nextRetryDelayMs } from '../src/webhooks/retry';
import type { OrderMetricsSink, OrderState } from './order-state';

export interface WebhookOutboxOptions {
  /**
   * The order's state: its `outbox` holds the webhooks not yet delivered, oldest first (the state adds
   * to it, delivery takes from it); `recordDelivery` keeps each attempt for the webhookDeliveries query.
   */
  state: Pick<OrderState, 'outbox' | 'recordDelivery' | 'webhookNotDelivered'>;
  timings: OrderTimings;
  metrics: OrderMetricsSink;
}

export class WebhookOutbox {
  private attempting = false;
  private closing = false;
  private readonly outbox: IntegratorNotification[];
  private readonly retryDelaysMs: readonly number[];
  private readonly attemptOrdinary: OrderActivities['attemptIntegratorWebhook'];
  private readonly attemptInWorker: OrderActivities['attemptIntegratorWebhookInWorker'];

  constructor(private readonly options: WebhookOutboxOptions) {
    const { timings } = options;
    this.outbox = options.state.outbox;
    this.retryDelaysMs = timings.webhookRetryDelaysMs ?? DEFAULT_ORDER_TIMINGS.webhookRetryDelaysMs!;
    const attemptOptions = {
      startToCloseTimeout: timings.webhookAttemptTimeoutMs ?? DEFAULT_ORDER_TIMINGS.webhookAttemptTimeoutMs!,
      // A lost attempt (a worker crash, a timeout) is a failed attempt: the schedule decides the next.
      retry: { maximumAttempts: 1 },
    };
    this.attemptOrdinary = proxyActivities<OrderActivities>(attemptOptions).attemptIntegratorWebhook;
    this.attemptInWorker = proxyLocalActivities<OrderActivities>(attemptOptions).attemptIntegratorWebhookInWorker;
  }

  /** No webhook is waiting to be delivered. */
  get empty(): boolean {
    return this.outbox.length === 0;
  }

  /** No attempt is out: a closing run may end. */
  get idle(): boolean {
    return !this.attempting;
  }

  /** The run is closing: no attempt starts from now on, and an attempt out finishes (wait for `idle`). */
  close(): void {
    this.closing = true;
  }

  /** Delivers the outbox for as long as the run lasts. */
  async deliver(): Promise<never> {
    for (;;) {
      await condition(() => this.outbox.length > 0 && !this.closing);
      const next = this.outbox[0]!;
      const waitMs = (next.nextAttemptAtMs ?? 0) - Date.now();
      if (waitMs > 0 && (await condition(() => this.closing, waitMs))) continue;
      // The run may have begun closing in the same workflow task that ended the wait: an attempt
      // scheduled now would outlive the run, its outcome lost.
      if (this.closing) continue;
      const attempt = (next.attempts ?? 0) + 1;
      const attemptedAt = new Date(Date.now()).toISOString();
      const result = await this.attempt(next, attempt);
      if (result.outcome === 'deferred') {
        // Not an attempt: the same one is made after the worker's pause (src/webhooks/delivery-gate.ts).
        this.outbox[0] = { ...next, deferrals: (next.deferrals ?? 0) + 1, nextAttemptAtMs: Date.now() + result.retryAfterMs };
        continue;
      }
      this.settle(next, attempt, attemptedAt, result);
    }
  }

  /**
   * One attempt: local when the webhook's message is the same on a re-run of the workflow task
   * (`firstAttemptLocal`, docs/decisions.md "Local activities") and the worker can afford it (it
   * defers one it cannot: then the attempt is an ordinary activity), ordinary otherwise.
   */
  private async attempt(next: IntegratorNotification, attempt: number): Promise<OrdinaryWebhookAttemptOutcome> {
    this.attempting = true;
    try {
      const request = { notification: next, attempt };
      const local = attempt === 1 && next.firstAttemptLocal === true ? await this.attemptInWorker(request) : undefined;
      return local === undefined || local.outcome === 'deferred' ? await this.attemptOrdinary(request) : local;
    } catch (err) {
      const cause = err instanceof ActivityFailure ? err.cause : err;
      return { outcome: 'failed', error: (cause as Error).message };
    } finally {
      this.attempting = false;
    }
  }

  /** Records the attempt; a failed one with retries left waits for its next, any other is done with. */
  private settle(next: IntegratorNotification, attempt: number, attemptedAt: string, result: WebhookAttemptOutcome): void {
    const { metrics, state } = this.options;
    state.recordDelivery({
      webhook_id: next.webhookId,
      sequence: next.sequence,
      attempt,
      attempted_at: attemptedAt,
      outcome: result.outcome,
      ...('status' in result && result.status !== undefined ? { status_code: result.status } : {}),
      ...('error' in result ? { error: result.error } : {}),
    });
    const fields = { webhookId: next.webhookId, attempt };
    if (result.outcome === 'failed') {
      const delayMs = nextRetryDelayMs(attempt, this.retryDelaysMs, result.retryAfterMs);
      if (delayMs !== undefined) {
        this.outbox[0] = { ...next, attempts: attempt, nextAttemptAtMs: Date.now() + delayMs };
        metrics.webhookFailed(next.webhookId, next.integratorId, next.occurredAt, Date.now() + delayMs);
        return;
      }
      log.error('integrator webhook not delivered: retries used up', { ...fields, error: result.error });
      state.webhookNotDelivered(next.webhookId, next.sequence, `retries used up after ${attempt} attempts: ${result.error}`);
    } else if (result.outcome === 'refused') {
      log.error('integrator webhook not delivered: URL refused', { ...fields, error: result.error });
      state.webhookNotDelivered(next.webhookId, next.sequence, `the endpoint's URL was refused: ${result.error}`);
    } else if (result.outcome === 'no_endpoint') {
      log.info('integrator has no webhook endpoint', fields);
    }
    metrics.webhookSettled(next.webhookId, next.integratorId, result.outcome === 'failed' ? 'given_up' : result.outcome);
    this.outbox.shift();
  }
}
