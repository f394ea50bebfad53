/**
 * The sell (off-ramp) order's state and every rule that changes it, as a plain class the sell
 * workflow (workflows/sell-order.ts) wires up: what a provider report does to the order (checks, the
 * deposit, the amounts, the status), expiry and the review flag. No Temporal calls: the workflow hands
 * it the effects to run, so the rules are unit-tested without a server
 * (test/unit/workflows/sell-order-state.test.ts). Pure: no Node built-ins, no I/O.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { PROVIDER_CLOCK_SKEW_MS } from '../src/domain/integrity';
import { depositConfirmationRefusal, type DepositConfirmationVerdict } from '../src/domain/deposit-confirmation';
import { integratorExtras } from '../src/domain/order-extras';
import { loggableProviderOrderId } from '../src/domain/provider-order-id';
import type { Deposit, SellOrder } from '../src/domain/sell-order';
import {
  checkSellTerms,
  depositVerdict,
  mergeSellDifferences,
  type OrderedSellTerms,
  type ReportedDeposit,
  type SellDifference,
} from '../src/domain/sell-integrity';
import { AWAITING_DEPOSIT, canSellTransition, isSellSettled } from '../src/domain/sell-order-status';
import {
  DEFAULT_ORDER_TIMINGS,
  INTEGRITY_ALERT_KEY,
  integratorWebhookId,
  ORDER_STATUS_KEY,
  REVIEW_REASON_KEY,
  type IntegratorNotification,
  type WebhookDeliveryRecord,
} from '../src/temporal/order-contract';
import type {
  SellIntegrityAlert,
  SellOrderMemo,
  SellOrderRequest,
  SellOrderWorkflowInput,
  SellProviderEvent,
} from '../src/temporal/sell-order-contract';
import type { QueueReason, ReviewMessage } from '../src/temporal/review-contract';
import { firstSight, keepDelivery, type OrderMetricsSink } from './order-state';

/** State carried across continue-as-new. */
export interface SellOrderResumeState {
  memo: SellOrderMemo;
  seenEventIds: string[];
  pollDelayMs: number;
  settledAtMs?: number;
  outbox: IntegratorNotification[];
  deliveries?: WebhookDeliveryRecord[];
  reviews?: ReviewMessage[];
}

export interface SellOrderEffects {
  now(): number;
  upsertMemo(memo: SellOrderMemo): void;
  upsertSearchAttributes(attributes: SearchAttributeUpdatePair[]): void;
  log: {
    info(message: string, attributes?: Record<string, unknown>): void;
    warn(message: string, attributes?: Record<string, unknown>): void;
  };
  metrics?: OrderMetricsSink;
  raiseReview?(reason: QueueReason, key: string, detail: string): void;
}

/** The provider order as the create activity returns it: a report, with the checkout URL. */
export type CreatedSellOrder = Omit<SellProviderEvent, 'eventId' | 'receivedAt' | 'providerCode'> & { redirectUrl: string };

/** What the network's address rules said of a deposit the order has not seen before (the workflow's activity asks them). */
export interface DepositCheck {
  valid: boolean;
  reason?: string;
}

/** Statuses in which the crypto is with the provider and the order waits on its payout: flagged when they last too long. */
const AWAITING_PAYOUT = ['deposit_received', 'processing'] as const;

export class SellOrderState {
  memo: SellOrderMemo | null;
  settledAtMs: number | undefined;
  readonly seenEventIds: string[];
  readonly outbox: IntegratorNotification[];
  readonly deliveries: WebhookDeliveryRecord[];
  private readonly input: SellOrderWorkflowInput;
  private readonly ordered: OrderedSellTerms;
  private readonly network: string;

  constructor(
    private readonly options: {
      input: SellOrderWorkflowInput;
      resume?: SellOrderResumeState;
      effects: SellOrderEffects;
    },
  ) {
    this.input = options.input;
    // The order's crypto currency's network (the dictionary's name): a deposit on any other is refused.
    this.network = options.input.network;
    this.ordered = orderedSellTerms(options.input.request, this.network);
    this.memo = options.resume?.memo ?? null;
    this.seenEventIds = options.resume?.seenEventIds ?? [];
    this.settledAtMs = options.resume?.settledAtMs;
    this.outbox = options.resume?.outbox ?? [];
    this.deliveries = options.resume?.deliveries ?? [];
  }

  /** The order as its provider order was created: published, then the create answer applied as a report. */
  created(created: CreatedSellOrder, depositCheck?: DepositCheck): void {
    const { input } = this;
    const { request } = input;
    const now = new Date(this.options.effects.now()).toISOString();
    const order: SellOrder = {
      id: input.orderId,
      kind: 'off_ramp',
      status: 'created',
      redirect_url: created.redirectUrl,
      from_currency: request.from_currency,
      from_amount: request.from_amount,
      to_currency: request.to_currency,
      to_amount: request.to_amount,
      refund_wallet_address: request.refund_wallet_address,
      payout_method: request.payout_method,
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
    };
    this.memo = {
      kind: 'off_ramp',
      order,
      integratorId: input.integratorId,
      providerCode: input.providerCode,
      requestHash: input.requestHash,
      sequence: 1,
      ...(created.providerOrderId ? { providerOrderId: created.providerOrderId } : {}),
    };
    this.publish(this.memo);
    this.options.effects.metrics?.created(input.providerCode);
    const { redirectUrl: _redirectUrl, ...report } = created;
    this.apply({ ...report, providerCode: input.providerCode }, { depositCheck });
  }

  /**
   * The deposit a report names that the order has not pinned yet and that is on the order's network:
   * the workflow has the network's address rules check it (an activity) and passes the answer to
   * apply(). Undefined when the report needs no check.
   */
  depositToCheck(event: SellProviderEvent): ReportedDeposit | undefined {
    const pinned = this.memo?.order.deposit;
    return depositVerdict(pinned, event.deposit, this.network).kind === 'new' ? event.deposit : undefined;
  }

  /**
   * Applies a provider report; true when the order's status changed. A report that names a deposit
   * the order has not pinned must come with `depositCheck`, the network rules' answer for it:
   * without one, or with a refusal, the report is refused whole.
   */
  apply(event: SellProviderEvent, { afterWait = false, depositCheck }: { afterWait?: boolean; depositCheck?: DepositCheck } = {}): boolean {
    const { memo } = this;
    if (!memo) return false;
    const refusal = this.refusalOf(memo, event, depositCheck);
    if (refusal) {
      this.refuse(memo, refusal);
      return false;
    }
    if (event.eventId !== undefined && !firstSight(this.seenEventIds, `${event.providerCode}:${event.eventId}`)) return false;
    return this.applyChecked(memo, event, afterWait);
  }

  /** Expires an order whose deposit has not arrived at the end of its deposit window: the broker's own decision. */
  expireIfNoDeposit(): void {
    const memo = this.memo;
    if (!memo || !AWAITING_DEPOSIT.includes(memo.order.status)) return;
    if (this.options.effects.now() < this.depositDeadline()) return;
    const providerStatus = memo.order.extras.provider_status;
    this.apply({
      status: 'expired',
      providerStatus: typeof providerStatus === 'string' ? providerStatus : 'unknown',
      providerCode: this.input.providerCode,
    });
  }

  /** When the order stops waiting for the deposit: the provider's deadline where it gave one, else the order's deposit window. */
  depositDeadline(): number {
    const memo = this.memo;
    if (!memo) return Infinity;
    const own = this.createdAtMs() + this.input.timings.paymentWindowMs;
    const providers = memo.order.deposit?.expires_at === undefined ? NaN : Date.parse(memo.order.deposit.expires_at);
    // The provider's deadline, when later than ours, is kept: the customer was shown it. Never earlier than ours.
    return Number.isFinite(providers) ? Math.max(own, providers) : own;
  }

  /** When an order waiting on the payout is flagged for review; Infinity when it is not to be. */
  reviewDue(): number {
    const memo = this.memo;
    if (!memo || memo.reviewReason !== undefined || !(AWAITING_PAYOUT as readonly string[]).includes(memo.order.status)) return Infinity;
    return this.createdAtMs() + (this.input.timings.reviewAfterMs ?? DEFAULT_ORDER_TIMINGS.reviewAfterMs!);
  }

  flagForReview(): void {
    const memo = this.memo;
    if (!memo) return;
    const { effects } = this.options;
    effects.log.warn('sell order open too long: flagged for review', { status: memo.order.status, createdAt: memo.order.created_at });
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

  webhookNotDelivered(webhookId: string, sequence: number, why: string): void {
    this.options.effects.raiseReview?.(
      'webhook_not_delivered',
      webhookId,
      `webhook ${webhookId} (sequence ${sequence}) not delivered: ${why}`,
    );
  }

  /** When the workflow stops following a settled order (`failed` or `expired`: a refund or a late deposit may follow). */
  graceEnd(graceMs: number): number {
    if (this.settledAtMs === undefined) return Infinity;
    if (this.memo !== null && !isSellSettled(this.memo.order.status)) return Infinity;
    return this.settledAtMs + graceMs;
  }

  pollTarget(): string | undefined {
    return this.memo?.providerOrderId;
  }

  createdAtMs(): number {
    return this.memo ? Date.parse(this.memo.order.created_at) : NaN;
  }

  /** Why the integrator's deposit confirmation cannot be taken now (the domain's one rule), or undefined when it can. */
  depositConfirmationRefusal(transactionHash: string, inFlight: string | undefined): DepositConfirmationVerdict | undefined {
    return depositConfirmationRefusal(this.memo?.order, transactionHash, inFlight);
  }

  /** The provider took the integrator's deposit transaction: the order shows it (no webhook: its status is unchanged). */
  depositConfirmed(transactionHash: string): void {
    const current = this.memo!;
    if (current.order.deposit_confirmation) return;
    const confirmedAt = new Date(this.options.effects.now()).toISOString();
    this.memo = {
      ...current,
      order: { ...current.order, deposit_confirmation: { transaction_hash: transactionHash, confirmed_at: confirmedAt } },
    };
    this.options.effects.upsertMemo({ ...this.memo });
    this.options.effects.log.info('deposit transaction confirmed to the provider');
  }

  recordDelivery(record: WebhookDeliveryRecord): void {
    keepDelivery(this.deliveries, record);
  }

  resumeState(pollDelayMs: number): SellOrderResumeState {
    return {
      memo: this.memo!,
      seenEventIds: this.seenEventIds,
      pollDelayMs,
      settledAtMs: this.settledAtMs,
      outbox: this.outbox,
      ...(this.deliveries.length > 0 ? { deliveries: this.deliveries } : {}),
    };
  }

  private publish(current: SellOrderMemo, timedByReport = false): void {
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

  /** Why a report is not taken, or undefined when it is about this order and everything it names may be taken. */
  private refusalOf(current: SellOrderMemo, event: SellProviderEvent, depositCheck: DepositCheck | undefined): Refusal | undefined {
    const { providerCode } = this.input;
    if (event.providerCode !== providerCode) return { reason: `from provider ${String(event.providerCode)}, not ${providerCode}` };
    if (current.providerOrderId !== undefined && event.providerOrderId !== undefined && event.providerOrderId !== current.providerOrderId) {
      return {
        reason: `about provider order ${loggableProviderOrderId(event.providerOrderId)}, not ${loggableProviderOrderId(current.providerOrderId)}`,
      };
    }
    const madeAt = event.providerOrderCreatedAt === undefined ? NaN : Date.parse(event.providerOrderCreatedAt);
    if (madeAt < Date.parse(current.order.created_at) - PROVIDER_CLOCK_SKEW_MS) {
      return { reason: `about a provider order made at ${event.providerOrderCreatedAt}, before this order` };
    }
    const { refused } = checkSellTerms(this.ordered, event.reported);
    if (refused.length > 0) return { reason: refused.map((d) => `${d.field} ${d.reported}, not ${d.ordered}`).join('; ') };
    const deposit = depositVerdict(current.order.deposit, event.deposit, this.network);
    if (deposit.kind === 'refused') return { reason: deposit.reason, deposit: true };
    if (deposit.kind === 'new' && !depositCheck?.valid) {
      return { reason: `the deposit address is refused: ${depositCheck?.reason ?? 'not checked'}`, deposit: true };
    }
    return undefined;
  }

  /**
   * Counts and logs a refused report. The first refusal flags the order `report_refused`; a refused
   * deposit flags it `deposit_refused` whatever came before (the alert an operator must not miss),
   * and each refused deposit is an occurrence of its own in the order's review.
   */
  private refuse(current: SellOrderMemo, { reason, deposit }: Refusal): void {
    const { effects } = this.options;
    effects.log.warn(
      deposit ? 'provider report refused: its deposit is not the order’s' : 'provider report refused: not about this order',
      {
        reason,
        providerCode: this.input.providerCode,
      },
    );
    this.memo = { ...current, refusedReports: (current.refusedReports ?? 0) + 1 };
    const alert: SellIntegrityAlert = deposit ? 'deposit_refused' : 'report_refused';
    const raises = current.integrityAlert === undefined || (deposit && current.integrityAlert !== 'deposit_refused');
    if (raises) {
      this.memo = { ...this.memo, integrityAlert: alert };
      effects.upsertMemo({ ...this.memo });
      effects.upsertSearchAttributes([{ key: INTEGRITY_ALERT_KEY, value: alert }]);
      effects.metrics?.flagged(this.input.providerCode, alert);
    }
    if (deposit)
      effects.raiseReview?.('report_refused', `deposit_refused:${reason}`.slice(0, 280), `a deposit instruction was refused: ${reason}`);
    else if ((current.refusedReports ?? 0) === 0)
      effects.raiseReview?.('report_refused', 'report_refused', `a provider report was refused: ${reason}`);
  }

  private applyChecked(current: SellOrderMemo, event: SellProviderEvent, afterWait: boolean): boolean {
    const { effects } = this.options;
    let next = current;
    if (next.providerOrderId === undefined && event.providerOrderId !== undefined)
      next = { ...next, providerOrderId: event.providerOrderId };
    let order = next.order;
    let changedWithoutStatus = next !== current;
    if (order.deposit === undefined && event.deposit !== undefined) {
      order = { ...order, deposit: depositOf(event.deposit, order.from_amount) };
      effects.log.info('deposit address set', { network: event.deposit.network });
      changedWithoutStatus = true;
    }
    if (event.transactionHash !== undefined && order.transaction_hash === undefined) {
      order = { ...order, transaction_hash: event.transactionHash };
      changedWithoutStatus = true;
    }
    const previous = order.discrepancies ?? [];
    const discrepancies = mergeSellDifferences(previous, checkSellTerms(this.ordered, event.reported), event.reported);
    if (JSON.stringify(previous) !== JSON.stringify(discrepancies)) {
      order = withFigures(order, this.input.request, discrepancies);
      changedWithoutStatus = true;
      if (discrepancies.length > 0) {
        effects.log.warn('provider reports other figures than ordered', { discrepancies });
        if (next.integrityAlert === undefined) {
          next = { ...next, integrityAlert: 'payment_differs' };
          effects.upsertSearchAttributes([{ key: INTEGRITY_ALERT_KEY, value: 'payment_differs' }]);
          effects.metrics?.flagged(this.input.providerCode, 'payment_differs');
        }
        const told = discrepancies.map((d) => `${d.field}: ordered ${d.ordered}, reported ${d.reported}`).join('; ');
        const key = `payment_differs:${discrepancies.map((d) => `${d.field}=${d.reported}`).join(';')}`.slice(0, 280);
        effects.raiseReview?.('payment_differs', key, `the provider reports other figures: ${told}`);
      }
    }
    next = { ...next, order };
    const statusChanges = event.status !== order.status && canSellTransition(order.status, event.status);
    if (!statusChanges) {
      if (event.status !== order.status)
        effects.log.info('ignoring provider status that would move the order back', { from: order.status, to: event.status });
      this.memo = next;
      // A deposit, a hash or figures learnt without a status change: the order shows them at once (no webhook).
      if (changedWithoutStatus) effects.upsertMemo({ ...next });
      return false;
    }
    const reportedAtMs = event.receivedAt === undefined ? undefined : Date.parse(event.receivedAt);
    const at = Number.isFinite(reportedAtMs) ? reportedAtMs! : effects.now();
    const changed: SellOrder = {
      ...order,
      status: event.status,
      updated_at: new Date(Math.max(at, Date.parse(order.updated_at))).toISOString(),
      extras: {
        ...order.extras,
        provider_status: event.providerStatus,
        ...(next.providerOrderId === undefined ? {} : { provider_order_id: next.providerOrderId }),
      },
    };
    if (event.status === 'failed') changed.failure_reason = event.failureReason ?? 'failed_at_provider';
    else delete changed.failure_reason;
    if (event.status === 'failed' || event.status === 'expired') this.settledAtMs = effects.now();
    this.memo = { ...next, order: changed, sequence: next.sequence + 1 };
    this.publish(this.memo, afterWait && Number.isFinite(reportedAtMs));
    effects.metrics?.transition(this.input.providerCode, order.status, changed.status);
    return true;
  }
}

interface Refusal {
  reason: string;
  /** The refusal is of the deposit the report names. */
  deposit?: boolean;
}

function orderedSellTerms(request: SellOrderRequest, network: string): OrderedSellTerms {
  return {
    network,
    cryptoCurrency: request.from_currency,
    cryptoAmount: request.from_amount,
    fiatCurrency: request.to_currency,
    fiatAmount: request.to_amount,
    refundWalletAddress: request.refund_wallet_address,
  };
}

/** The deposit the order shows: the provider's, its amount the provider's or else the order's. */
function depositOf(reported: ReportedDeposit, orderedAmount: string): Deposit {
  return {
    address: reported.address,
    ...(reported.memo === undefined ? {} : { memo: reported.memo }),
    network: reported.network,
    amount: reported.amount ?? orderedAmount,
    ...(reported.expiresAt === undefined ? {} : { expires_at: reported.expiresAt }),
  };
}

/** The order showing the provider's figures where they differ, each difference listed. */
function withFigures(order: SellOrder, request: SellOrderRequest, discrepancies: SellDifference[]): SellOrder {
  const reported = (field: SellDifference['field']) => discrepancies.find((d) => d.field === field)?.reported;
  const currency = reported('to_currency');
  const next: SellOrder = {
    ...order,
    from_amount: reported('from_amount') ?? request.from_amount,
    to_amount: reported('to_amount') ?? request.to_amount,
    to_currency: currency === undefined ? request.to_currency : Number(currency),
  };
  if (discrepancies.length > 0) next.discrepancies = discrepancies;
  else delete next.discrepancies;
  return next;
}
