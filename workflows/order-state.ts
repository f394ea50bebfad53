/**
 * The order's state and every rule that changes it, as a plain class: what a provider report does
 * to the order (checks, pinning, payment, status), expiry and the review flag. No Temporal calls:
 * the workflow (workflows/order.ts) hands it the effects to run (memo, search attributes, logs,
 * clock) and wires handlers, timers and activities around it, so the rules are unit-tested without
 * a server (test/unit/workflows/order-state.test.ts). Pure: no Node built-ins, no I/O.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import type { OrderActivities } from '../activities';
import {
  checkReportedTerms,
  mergeDifferences,
  PROVIDER_CLOCK_SKEW_MS,
  type OrderedTerms,
  type PaymentDiscrepancy,
} from '../src/domain/integrity';
import type { Order } from '../src/domain/order';
import { integratorExtras } from '../src/domain/order-extras';
import { canTransition, isSettled, type OrderStatus } from '../src/domain/order-status';
import { loggableProviderOrderId } from '../src/domain/provider-order-id';
import { MISMATCH_KINDS, type MismatchKind } from '../src/domain/reconciliation';
import { RECONCILIATION_MISMATCH_KEY, type OrderMismatchNotice } from '../src/temporal/reconciliation-contract';
import type { OperatorRequest, QueueReason, ReviewMessage } from '../src/temporal/review-contract';
import {
  DEFAULT_ORDER_TIMINGS,
  INTEGRITY_ALERT_KEY,
  integratorWebhookId,
  ORDER_STATUS_KEY,
  REVIEW_REASON_KEY,
  type IntegratorNotification,
  type OrderMemo,
  type OrderRequest,
  type OrderWorkflowInput,
  type ProviderEvent,
  type WebhookDeliveryRecord,
  WEBHOOK_DELIVERIES_KEPT,
} from '../src/temporal/order-contract';

/** State carried across continue-as-new. */
export interface OrderResumeState {
  memo: OrderMemo;
  seenEventIds: string[];
  pollDelayMs: number;
  settledAtMs?: number;
  /** Integrator webhooks not yet delivered, oldest first. */
  outbox: IntegratorNotification[];
  /** The newest integrator webhook attempts, oldest first (absent when none was made yet). */
  deliveries?: WebhookDeliveryRecord[];
  /** Messages to the order's review not yet told (absent when none). */
  reviews?: ReviewMessage[];
  /** Operator requests not yet acted on (absent when none). */
  operatorRequests?: OperatorRequest[];
}

/** What the state may do outside itself; the workflow passes Temporal's, tests pass recorders. */
export interface OrderEffects {
  /** The current time (the workflow's deterministic clock). */
  now(): number;
  upsertMemo(memo: OrderMemo): void;
  upsertSearchAttributes(attributes: SearchAttributeUpdatePair[]): void;
  log: {
    info(message: string, attributes?: Record<string, unknown>): void;
    warn(message: string, attributes?: Record<string, unknown>): void;
  };
  /** The worker's order metrics (the workflow's sink, never called on replay); absent in tests that do not count. */
  metrics?: OrderMetricsSink;
  /**
   * Something about the order needs a person: told to its review (the operators' queue, src/temporal/review-contract.ts).
   * `key` names the occurrence (the review keeps each once). Absent in tests that do not look.
   */
  raiseReview?(reason: QueueReason, key: string, detail: string): void;
}

/**
 * What an order tells the worker's metrics (src/worker/sinks.ts). The workflow passes a Temporal
 * sink that is not called while a history replays, so each event is counted once. (A type of
 * function properties, not an interface: a sink must be assignable to a record of functions.)
 */
export type OrderMetricsSink = {
  created: (provider: string) => void;
  /** A buy's or a sell's status change (their status sets differ). */
  transition: (provider: string, from: string, to: string) => void;
  /** An IntegrityAlert or ReviewReason set on the order. */
  flagged: (provider: string, alert: string) => void;
  rejected: (provider: string, reason: string) => void;
  /** An integrator webhook attempt failed; the next is due at `nextAttemptAtMs`. */
  webhookFailed: (webhookId: string, integratorId: string, occurredAt: string, nextAttemptAtMs: number) => void;
  /** An integrator webhook is done with: delivered, given_up, refused or no_endpoint. */
  webhookSettled: (webhookId: string, integratorId: string, outcome: string) => void;
};

export interface OrderStateOptions {
  input: OrderWorkflowInput;
  resume?: OrderResumeState;
  effects: OrderEffects;
}

/** The provider order as the create activity returns it. */
export type CreatedProviderOrder = Awaited<ReturnType<OrderActivities['createProviderOrder']>>;

export const UNPAID: readonly OrderStatus[] = ['created', 'pending'];
/** Statuses in which the customer has paid and the order waits on the provider: flagged when they last too long. */
const AWAITING_PROVIDER: readonly OrderStatus[] = ['hold', 'processing'];
export { PROVIDER_CLOCK_SKEW_MS };
export const SEEN_EVENT_IDS_KEPT = 200;

export class OrderState {
  memo: OrderMemo | null;
  settledAtMs: number | undefined;
  readonly seenEventIds: string[];
  /** Integrator webhooks not yet delivered, oldest first (the workflow's delivery loop takes them). */
  readonly outbox: IntegratorNotification[];
  /** The newest integrator webhook attempts, oldest first (the webhookDeliveries query answers them). */
  readonly deliveries: WebhookDeliveryRecord[];
  private readonly input: OrderWorkflowInput;
  private readonly ordered: OrderedTerms;
  private readonly options: OrderStateOptions;

  constructor(options: OrderStateOptions) {
    this.options = options;
    this.input = options.input;
    this.ordered = orderedTerms(options.input.request);
    this.memo = options.resume?.memo ?? null;
    this.seenEventIds = options.resume?.seenEventIds ?? [];
    this.settledAtMs = options.resume?.settledAtMs;
    this.outbox = options.resume?.outbox ?? [];
    this.deliveries = options.resume?.deliveries ?? [];
  }

  /** The order as the provider order was created: published, then the create answer applied as a report. */
  created(created: CreatedProviderOrder): void {
    const { input } = this;
    const { request } = input;
    const now = new Date(this.options.effects.now()).toISOString();
    this.memo = {
      order: {
        id: input.orderId,
        status: 'created',
        redirect_url: created.redirectUrl,
        from_currency: request.from_currency,
        from_amount: request.from_amount,
        to_currency: request.to_currency,
        to_amount: created.cryptoAmount ?? request.to_amount,
        wallet_address: request.wallet_address,
        payment_method: request.payment_method,
        country_code: request.country_code,
        external_user_id: request.external_user_id,
        external_order_id: request.external_order_id,
        created_at: now,
        updated_at: now,
        extras: {
          ...integratorExtras(request.extras),
          ...(created.providerOrderId ? { provider_order_id: created.providerOrderId } : {}),
          provider_status: created.providerStatus,
        },
      },
      integratorId: input.integratorId,
      providerCode: input.providerCode,
      requestHash: input.requestHash,
      sequence: 1,
      ...(created.providerOrderId ? { providerOrderId: created.providerOrderId } : {}),
    };
    this.publish(this.memo);
    this.options.effects.metrics?.created(input.providerCode);
    this.apply({ ...created, eventId: undefined, receivedAt: undefined, providerCode: input.providerCode });
  }

  /**
   * Applies a provider report; returns true when the order's status changed. `afterWait`: the report
   * is applied first thing in a workflow task that woke the order from its wait, so nothing the clock
   * decided in that task came before it: with a stamped report, its webhook may make its first
   * attempt locally (docs/decisions.md, "Local activities").
   */
  apply(event: ProviderEvent, afterWait = false): boolean {
    const { memo } = this;
    if (!memo) return false;
    // Refused first, so that a refused report cannot take the id of a genuine one that comes later.
    const refusal = this.refusalOf(memo, event);
    if (refusal) {
      this.refuse(memo, refusal);
      return false;
    }
    if (event.eventId !== undefined && !this.firstSight(`${event.providerCode}:${event.eventId}`)) return false;
    return this.applyChecked(memo, event, afterWait);
  }

  /** Expires an order still unpaid at the end of its payment window; the broker's own decision, not a provider's report. */
  expireIfUnpaid(): void {
    const memo = this.memo;
    if (!memo || !UNPAID.includes(memo.order.status)) return;
    if (this.options.effects.now() < this.createdAtMs() + this.input.timings.paymentWindowMs) return;
    const providerStatus = memo.order.extras.provider_status;
    this.apply({
      status: 'expired',
      providerStatus: typeof providerStatus === 'string' ? providerStatus : 'unknown',
      providerCode: this.input.providerCode,
    });
  }

  /** When an order waiting on the provider is flagged for review; Infinity when it is not to be. */
  reviewDue(): number {
    const memo = this.memo;
    if (!memo || memo.reviewReason !== undefined || !AWAITING_PROVIDER.includes(memo.order.status)) {
      return Infinity;
    }
    return this.createdAtMs() + (this.input.timings.reviewAfterMs ?? DEFAULT_ORDER_TIMINGS.reviewAfterMs!);
  }

  /** The order stays as it is and goes on polling; an operator finds it by ReviewReason. */
  flagForReview(): void {
    const memo = this.memo;
    if (!memo) return;
    const { effects } = this.options;
    effects.log.warn('order open too long: flagged for review', { status: memo.order.status, createdAt: memo.order.created_at });
    this.memo = { ...memo, reviewReason: 'open_too_long' };
    effects.upsertMemo({ ...this.memo });
    effects.upsertSearchAttributes([{ key: REVIEW_REASON_KEY, value: 'open_too_long' }]);
    effects.metrics?.flagged(this.input.providerCode, 'open_too_long');
    effects.raiseReview?.(
      'open_too_long',
      'open_too_long',
      `${memo.order.status} since ${memo.order.updated_at}, created ${memo.order.created_at}`,
    );
  }

  /** An integrator webhook the order gave up on (retries used up, or its URL refused): a person looks. */
  webhookNotDelivered(webhookId: string, sequence: number, why: string): void {
    this.options.effects.raiseReview?.(
      'webhook_not_delivered',
      webhookId,
      `webhook ${webhookId} (sequence ${sequence}) not delivered: ${why}`,
    );
  }

  /**
   * A reconciliation found the order differs from the provider's books (src/domain/reconciliation.ts):
   * the kinds join those known (its ReconciliationMismatch search attribute and memo), and nothing
   * else of the order moves: only a provider's report, through apply(), moves its status. True when
   * the kinds changed.
   */
  flagMismatch(notice: OrderMismatchNotice): boolean {
    const memo = this.memo;
    if (!memo) return false;
    // Anyone with Temporal access can send the signal: a malformed one must not fail the workflow task.
    const told: unknown[] = Array.isArray((notice as Partial<OrderMismatchNotice> | null)?.kinds) ? notice.kinds : [];
    const known = memo.reconciliationMismatch ?? [];
    const valid = told.filter(
      (kind): kind is MismatchKind => typeof kind === 'string' && (MISMATCH_KINDS as readonly string[]).includes(kind),
    );
    const kinds = [...new Set([...known, ...valid])].sort();
    if (kinds.length === known.length) return false;
    const { effects } = this.options;
    effects.log.warn('reconciliation found the order differs from the provider books', {
      kinds,
      reconciliation: String(notice.reconciliationId),
    });
    this.memo = { ...memo, reconciliationMismatch: kinds };
    effects.upsertMemo({ ...this.memo });
    effects.upsertSearchAttributes([{ key: RECONCILIATION_MISMATCH_KEY, value: kinds }]);
    return true;
  }

  /**
   * When the workflow stops following the order: the end of the settled grace (`graceMs` from when
   * the order last became failed or expired, for a refund or a late payment), Infinity when it has
   * not settled. An order a late payment revived (settled before, open now) is followed until it
   * ends or settles again when `followsRevived()` says so; without it, the grace that began when it
   * settled still ends it, whatever its status (the 1.0 workflow). `followsRevived` is asked only
   * for a revived order: the workflow answers it with a patch, which records its marker where it is
   * first asked.
   */
  graceEnd(graceMs: number, followsRevived: () => boolean): number {
    if (this.settledAtMs === undefined) return Infinity;
    const revived = this.memo !== null && !isSettled(this.memo.order.status);
    if (revived && followsRevived()) return Infinity;
    return this.settledAtMs + graceMs;
  }

  /** The provider order a poll asks about: the pinned one, once known. */
  pollTarget(): string | undefined {
    return this.memo?.providerOrderId;
  }

  createdAtMs(): number {
    return this.memo ? Date.parse(this.memo.order.created_at) : NaN;
  }

  /** Keeps one webhook attempt's record, dropping the oldest beyond WEBHOOK_DELIVERIES_KEPT. */
  recordDelivery(record: WebhookDeliveryRecord): void {
    keepDelivery(this.deliveries, record);
  }

  /** What the next run starts from. */
  resumeState(pollDelayMs: number): OrderResumeState {
    return {
      memo: this.memo!,
      seenEventIds: this.seenEventIds,
      pollDelayMs,
      settledAtMs: this.settledAtMs,
      outbox: this.outbox,
      ...(this.deliveries.length > 0 ? { deliveries: this.deliveries } : {}),
    };
  }

  /** `timedByReport`: the change's message is a function of the order's history alone (its first attempt may be local). */
  private publish(current: OrderMemo, timedByReport = false): void {
    const { effects } = this.options;
    effects.upsertMemo({ ...current });
    effects.upsertSearchAttributes([{ key: ORDER_STATUS_KEY, value: current.order.status }]);
    this.outbox.push({
      webhookId: integratorWebhookId(current.order.id, current.sequence),
      integratorId: current.integratorId,
      providerCode: current.providerCode,
      occurredAt: current.order.updated_at,
      order: current.order,
      sequence: current.sequence,
      ...(timedByReport ? { firstAttemptLocal: true as const } : {}),
    });
  }

  /**
   * When a change happened: when the API received the report where it says, else the workflow's
   * clock; never before the previous change (API processes' clocks may differ a little from each
   * other and from the workers').
   */
  private changeTime(previous: Order, reportedAtMs: number | undefined): string {
    const ms = reportedAtMs ?? this.options.effects.now();
    return new Date(Math.max(ms, Date.parse(previous.updated_at))).toISOString();
  }

  /** When the API received the report (epoch ms); undefined for polls, the broker's own decisions and unstamped signals. */
  private reportTime(event: ProviderEvent): number | undefined {
    if (event.receivedAt === undefined) return undefined;
    const ms = Date.parse(event.receivedAt);
    return Number.isFinite(ms) ? ms : undefined;
  }

  /** Records an event id; false when it was seen already. */
  private firstSight(id: string): boolean {
    return firstSight(this.seenEventIds, id);
  }

  /** Why a report is not about this order, or undefined when it is. */
  private refusalOf(current: OrderMemo, event: ProviderEvent): string | undefined {
    const { providerCode } = this.input;
    if (event.providerCode !== providerCode) return `from provider ${event.providerCode ?? '(unnamed)'}, not ${providerCode}`;
    if (current.providerOrderId !== undefined && event.providerOrderId !== undefined && event.providerOrderId !== current.providerOrderId) {
      return `about provider order ${loggableProviderOrderId(event.providerOrderId)}, not ${loggableProviderOrderId(current.providerOrderId)}`;
    }
    // A provider order made before this order cannot be its payment (a body kept from an older purchase).
    const providerOrderMadeAt = event.providerOrderCreatedAt === undefined ? NaN : Date.parse(event.providerOrderCreatedAt);
    if (providerOrderMadeAt < Date.parse(current.order.created_at) - PROVIDER_CLOCK_SKEW_MS) {
      return `about provider order ${loggableProviderOrderId(event.providerOrderId) ?? '(unnamed)'} made at ${event.providerOrderCreatedAt}, before this order`;
    }
    const { refused } = checkReportedTerms(this.ordered, event.reported);
    if (refused.length > 0) return refused.map((d) => `${d.field} ${d.reported}, not ${d.ordered}`).join('; ');
    return undefined;
  }

  /** Counts and logs a refused report; the first one flags the order (one command, however many follow). */
  private refuse(current: OrderMemo, reason: string): void {
    const { effects } = this.options;
    effects.log.warn('provider report refused: not about this order', { reason, providerCode: this.input.providerCode });
    this.memo = { ...current, refusedReports: (current.refusedReports ?? 0) + 1 };
    if (current.integrityAlert === undefined) {
      this.memo = { ...this.memo, integrityAlert: 'report_refused' };
      effects.upsertMemo({ ...this.memo });
      effects.upsertSearchAttributes([{ key: INTEGRITY_ALERT_KEY, value: 'report_refused' }]);
      effects.metrics?.flagged(this.input.providerCode, 'report_refused');
    }
    // The first refusal, whatever the order was flagged with before (a payment that differs): a person looks once.
    if ((current.refusedReports ?? 0) === 0) {
      effects.raiseReview?.('report_refused', 'report_refused', `a provider report was refused: ${reason}`);
    }
  }

  /** The provider's report, once it is known to be about this order, and the payment it says was taken. */
  private applyChecked(current: OrderMemo, event: ProviderEvent, afterWait: boolean): boolean {
    const { effects } = this.options;
    let next = current;
    if (next.providerOrderId === undefined && event.providerOrderId !== undefined)
      next = { ...next, providerOrderId: event.providerOrderId };
    const previous = next.order.discrepancies ?? [];
    const discrepancies = mergeDifferences(previous, checkReportedTerms(this.ordered, event.reported), event.reported);
    const paymentChanged = JSON.stringify(previous) !== JSON.stringify(discrepancies);
    if (paymentChanged) {
      next = { ...next, order: withPayment(next.order, this.input.request, discrepancies) };
      if (discrepancies.length > 0) {
        effects.log.warn('provider reports a different payment than ordered', { discrepancies });
        if (next.integrityAlert !== 'payment_differs') effects.metrics?.flagged(this.input.providerCode, 'payment_differs');
        // Each payment the provider reports differently is an occurrence of its own: one acknowledged
        // (a rounding) does not hide a later one (a tenfold amount).
        const told = discrepancies.map((d) => `${d.field}: ordered ${d.ordered}, paid ${d.reported}`).join('; ');
        const key = `payment_differs:${discrepancies.map((d) => `${d.field}=${d.reported}`).join(';')}`.slice(0, 280);
        effects.raiseReview?.('payment_differs', key, `the provider took a different payment: ${told}`);
        next = { ...next, integrityAlert: 'payment_differs' };
        effects.upsertSearchAttributes([{ key: INTEGRITY_ALERT_KEY, value: 'payment_differs' }]);
      }
    }
    const order = next.order;
    const statusChanges = event.status !== order.status && canTransition(order.status, event.status);
    if (!statusChanges) {
      if (event.status !== order.status) {
        effects.log.info('ignoring provider status that would move the order back', { from: order.status, to: event.status });
      }
      this.memo = next;
      if (paymentChanged) effects.upsertMemo({ ...next });
      return false;
    }
    const reportedAtMs = this.reportTime(event);
    const changed: Order = {
      ...order,
      status: event.status,
      to_amount: event.cryptoAmount ?? order.to_amount,
      updated_at: this.changeTime(order, reportedAtMs),
      extras: {
        ...order.extras,
        provider_status: event.providerStatus,
        ...(next.providerOrderId === undefined ? {} : { provider_order_id: next.providerOrderId }),
        ...(event.transactionHash ? { transaction_hash: event.transactionHash } : {}),
      },
    };
    this.settle(changed, event);
    this.memo = { ...next, order: changed, sequence: next.sequence + 1 };
    this.publish(this.memo, afterWait && reportedAtMs !== undefined);
    effects.metrics?.transition(this.input.providerCode, order.status, changed.status);
    return true;
  }

  /** A failure's reason, and when a failed or expired order starts its settled grace (again, after a revival). */
  private settle(order: Order, event: ProviderEvent): void {
    if (event.status === 'failed') order.failure_reason = event.failureReason ?? 'failed_at_provider';
    else delete order.failure_reason;
    if (event.status === 'failed' || event.status === 'expired') this.settledAtMs = this.options.effects.now();
  }
}

/** The order's terms as the integrator requested them: what every provider report is checked against. */
function orderedTerms(request: OrderRequest): OrderedTerms {
  return {
    walletAddress: request.wallet_address,
    cryptoCurrency: request.to_currency,
    fiatCurrency: request.from_currency,
    fiatAmount: request.from_amount,
  };
}

/** The order with the provider-verified payment: its amount and currency, and what differs from the request. */
function withPayment(order: Order, request: OrderRequest, discrepancies: PaymentDiscrepancy[]): Order {
  const reported = (field: PaymentDiscrepancy['field']) => discrepancies.find((d) => d.field === field)?.reported;
  const currency = reported('from_currency');
  const next: Order = {
    ...order,
    from_amount: reported('from_amount') ?? request.from_amount,
    from_currency: currency === undefined ? request.from_currency : Number(currency),
  };
  if (discrepancies.length > 0) next.discrepancies = discrepancies;
  else delete next.discrepancies;
  return next;
}

/** Records an event id in `seen` (the newest SEEN_EVENT_IDS_KEPT); false when it was seen already. Shared with the sell order's state. */
export function firstSight(seen: string[], id: string): boolean {
  if (seen.includes(id)) return false;
  seen.push(id);
  if (seen.length > SEEN_EVENT_IDS_KEPT) seen.shift();
  return true;
}

/** Keeps one webhook attempt's record in `deliveries`, dropping the oldest beyond WEBHOOK_DELIVERIES_KEPT. Shared with the sell order's state. */
export function keepDelivery(deliveries: WebhookDeliveryRecord[], record: WebhookDeliveryRecord): void {
  deliveries.push(record);
  if (deliveries.length > WEBHOOK_DELIVERIES_KEPT) deliveries.splice(0, deliveries.length - WEBHOOK_DELIVERIES_KEPT);
}
