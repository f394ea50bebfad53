/**
 * The order workflow's contract with the API, the worker and its activities: task queue, workflow
 * ids, the workflow's input, its signal, update and queries, its memo, search attributes and the
 * claim workflow's input. Imported by workflow code, so it stays free of Node built-ins and I/O.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ReportedTerms } from '../domain/integrity';
import type { MismatchKind } from '../domain/reconciliation';
import type { Order } from '../domain/order';
import type { SellOrder } from '../domain/sell-order';
import type { OrderStatus } from '../domain/order-status';
import type { OrderStatusChange } from '../webhooks/event';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from '../webhooks/retry';
import { RECONCILED_FROM_KEY, RECONCILIATION_MISMATCH_KEY } from './reconciliation-contract';
import { NEEDS_REVIEW_KEY } from './review-contract';

export const DEFAULT_TASK_QUEUE = 'onramp-orders';

export const orderWorkflowId = (orderId: string) => `onramp-order-${orderId}`;

const ORDER_WORKFLOW_ID_PREFIX = orderWorkflowId('');

/** The order id an order workflow's id names, or undefined for an id orderWorkflowId did not make. */
export function orderIdOfWorkflowId(workflowId: string): string | undefined {
  if (!workflowId.startsWith(ORDER_WORKFLOW_ID_PREFIX)) return undefined;
  const orderId = workflowId.slice(ORDER_WORKFLOW_ID_PREFIX.length);
  return orderId === '' ? undefined : orderId;
}

/**
 * The input of the workflow whose id reserves one provider order for one broker order
 * (workflows/claim.ts; its id is made in src/orders/claims.ts).
 */
export interface ProviderOrderClaim {
  orderId: string;
  providerCode: string;
  /** What names the provider order in the claim: its claim key (Ramp's purchase id, never its view token). */
  providerOrderId: string;
  /** How long the claim stays open (claimLifetimeMs in src/orders/claims.ts). */
  holdForMs: number;
}

/** The input of the workflow whose id reserves one order id (workflows/claim.ts, src/orders/service.ts). */
export interface OrderIdReservation {
  orderId: string;
  /** How long the reservation stays open once the order's record is gone (ORDER_ID_RESERVATION_DAYS). */
  holdForMs: number;
  /** How often it asks whether the order's record is still kept (default ORDER_RECORD_CHECK_MS). */
  checkEveryMs?: number;
}

/** How often an order id's reservation asks whether its order's record is still kept: a week. */
export const ORDER_RECORD_CHECK_MS = 7 * 24 * 3_600_000;

/** The reservation workflow of an order id: the order id is a UUID the API derives, no secret. */
export const orderIdReservationId = (orderId: string) => `onramp-order-id-${orderId}`;

export const ORDER_STATUS_KEY = defineSearchAttributeKey('OrderStatus', SearchAttributeType.KEYWORD);
export const PROVIDER_CODE_KEY = defineSearchAttributeKey('ProviderCode', SearchAttributeType.KEYWORD);
export const EXTERNAL_ORDER_ID_KEY = defineSearchAttributeKey('ExternalOrderId', SearchAttributeType.KEYWORD);
export const EXTERNAL_USER_ID_KEY = defineSearchAttributeKey('ExternalUserId', SearchAttributeType.KEYWORD);
export const INTEGRATOR_ID_KEY = defineSearchAttributeKey('IntegratorId', SearchAttributeType.KEYWORD);
/** Set when a provider report did not match the order (docs/decisions.md, "Order integrity"). */
export const INTEGRITY_ALERT_KEY = defineSearchAttributeKey('IntegrityAlert', SearchAttributeType.KEYWORD);
/** Set when an order needs an operator's look although nothing failed (an order open too long). */
export const REVIEW_REASON_KEY = defineSearchAttributeKey('ReviewReason', SearchAttributeType.KEYWORD);

/**
 * When the API asked for the order (the start of its workflow), kept by every continued run: the
 * order search seeks on it (src/orders/search.ts). The run's own StartTime moves on continue-as-new.
 */
export const ORDER_REQUESTED_AT_KEY = defineSearchAttributeKey('OrderRequestedAt', SearchAttributeType.DATETIME);

/**
 * Custom search attributes the Temporal namespace must have (registered by `npm run dev` and compose):
 * the orders', the reconciliation's (src/temporal/reconciliation-contract.ts), which orders carry too,
 * and the review queue's (src/temporal/review-contract.ts).
 */
export const ORDER_SEARCH_ATTRIBUTES = [
  ORDER_STATUS_KEY,
  PROVIDER_CODE_KEY,
  EXTERNAL_ORDER_ID_KEY,
  EXTERNAL_USER_ID_KEY,
  INTEGRATOR_ID_KEY,
  INTEGRITY_ALERT_KEY,
  REVIEW_REASON_KEY,
  ORDER_REQUESTED_AT_KEY,
  RECONCILED_FROM_KEY,
  RECONCILIATION_MISMATCH_KEY,
  NEEDS_REVIEW_KEY,
] as const;

/**
 * Values of IntegrityAlert: `payment_differs`, the provider took a different fiat amount or currency
 * than ordered (the order moved and shows it); `report_refused`, a report about another provider,
 * provider order, wallet or crypto currency reached the order and was ignored.
 */
export type IntegrityAlert = 'payment_differs' | 'report_refused';
/** Values of ReviewReason: `open_too_long`, in `hold` or `processing` past the order's maximum lifetime. */
export type ReviewReason = 'open_too_long';

/** The order request as the API accepted it (currency IDs, decimal strings). */
export interface OrderRequest {
  from_currency: number;
  from_amount: string;
  to_currency: number;
  /** The amount of the offer the order was accepted against. */
  to_amount: string;
  wallet_address: string;
  payment_method: string;
  country_code: string;
  state_code?: string;
  external_user_id: string;
  external_order_id: string;
  ip?: string;
  user_agent?: string;
  extras: Record<string, unknown>;
}

/** Durations, in milliseconds, passed in so that tests can shorten them (workflows cannot read env). */
export interface OrderTimings {
  /** First status poll after creation or after a change. */
  pollInitialMs: number;
  /** Polling backs off up to this interval. */
  pollMaxMs: number;
  /** An order still unpaid this long after creation becomes `expired`. */
  paymentWindowMs: number;
  /** How long a `failed` or `expired` order keeps listening for a refund or a late payment. */
  settledGraceMs: number;
  /** Pauses between integrator webhook attempts; absent in orders started before webhooks existed. */
  webhookRetryDelaysMs?: number[];
  /** How long one webhook attempt may take before Temporal retries it elsewhere. */
  webhookAttemptTimeoutMs?: number;
  /** History length at which a run continues as new (tests lower it to exercise continue-as-new). */
  historyEventsBeforeContinue?: number;
  /**
   * An order still in `hold` or `processing` this long after creation is flagged for review
   * (ReviewReason); absent in orders started before the flag existed (the default applies).
   */
  reviewAfterMs?: number;
}

export const DEFAULT_ORDER_TIMINGS: OrderTimings = {
  pollInitialMs: 30_000,
  pollMaxMs: 30 * 60_000,
  paymentWindowMs: 24 * 60 * 60_000,
  settledGraceMs: 7 * 24 * 60 * 60_000,
  webhookRetryDelaysMs: [...DEFAULT_WEBHOOK_RETRY_DELAYS_MS],
  webhookAttemptTimeoutMs: 30_000,
  reviewAfterMs: 5 * 24 * 60 * 60_000,
};

export interface OrderWorkflowInput {
  orderId: string;
  integratorId: string;
  providerCode: string;
  /** Digest of the canonical create request: a different body under the same id is a conflict. */
  requestHash: string;
  request: OrderRequest;
  timings: OrderTimings;
  /**
   * What the offer the order was placed against quoted, kept for the order's records (the start
   * memo's ORDER_QUOTE_MEMO_KEY); the workflow does not read it. Absent in orders started before it.
   */
  quote?: OrderQuote;
}

/** The start memo's key for the order's quote (OrderQuote), set by the API when it starts the order. */
export const ORDER_QUOTE_MEMO_KEY = 'quote';

/** What the offer an order was placed against quoted, in the API's names. */
export interface OrderQuote {
  /** The offer's total_fee_amount: every fee, in the fiat currency, included in from_amount. */
  total_fee_amount: string;
}

/** A provider's report about the order, by webhook (signal) or by poll. */
export interface ProviderEvent {
  /** Provider event id for de-duplication; absent for polls. */
  eventId?: string;
  /**
   * The provider whose signature (webhook) or API (poll) the report came from; an order ignores
   * reports from any provider but its own. Absent only in signals sent before it existed.
   */
  providerCode?: string;
  providerStatus: string;
  status: OrderStatus;
  providerOrderId?: string;
  failureReason?: string;
  cryptoAmount?: string;
  transactionHash?: string;
  /** The order's terms as the provider reports them (src/domain/integrity.ts). */
  reported?: ReportedTerms;
  /** When the provider made the provider order it reports about, where its message says. */
  providerOrderCreatedAt?: string;
  /**
   * When the broker's API received the provider's webhook (ISO 8601), stamped by the API: the time
   * of the status change it makes, the same however often its workflow task runs. Absent in polls
   * and in signals sent before it existed.
   */
  receivedAt?: string;
}

export interface CreateOrderUpdateArgs {
  requestHash: string;
}

/** What the workflow keeps in its memo: readable with no worker running and after it has closed. */
export interface OrderMemo {
  order: Order;
  integratorId: string;
  providerCode: string;
  requestHash: string;
  /** Number of status changes so far (1 = created). */
  sequence: number;
  /** The provider's order id, pinned by the first report that names one: a report naming another is ignored. */
  providerOrderId?: string;
  /** Why an operator should look at the order (also the IntegrityAlert search attribute). */
  integrityAlert?: IntegrityAlert;
  /** Provider reports ignored because they were about another provider, provider order, wallet or crypto currency. */
  refusedReports?: number;
  /** Also the ReviewReason search attribute. */
  reviewReason?: ReviewReason;
  /** What reconciliations found differs from the provider's books (also the ReconciliationMismatch search attribute). */
  reconciliationMismatch?: MismatchKind[];
}

/** One status change to tell the integrator about (a Standard Webhooks message): a buy's or a sell's. */
export interface IntegratorNotification extends Omit<OrderStatusChange, 'order'> {
  order: Order | SellOrder;
  /** The Standard Webhooks `webhook-id`: the same on every attempt, unique per order and sequence. */
  webhookId: string;
  integratorId: string;
  /**
   * The order's provider, for the worker's record of settled orders (src/ranking). An activity's
   * input is not part of what replay compares, so it needs no patch; a notification made before it
   * existed has none, and is not recorded.
   */
  providerCode?: string;
  /** Delivery attempts made so far (the workflow schedules each; absent: none yet). */
  attempts?: number;
  /** When the next attempt is due (epoch ms); absent: now. */
  nextAttemptAtMs?: number;
  /** Times the worker deferred this webhook's next attempt (over its caps); the pause doubles with each. */
  deferrals?: number;
  /**
   * The first attempt may run as a local activity: the change came from a provider webhook the API
   * stamped, so a re-run of its workflow task makes the same message (docs/decisions.md, "Local
   * activities"). Never part of the message.
   */
  firstAttemptLocal?: true;
}

export const integratorWebhookId = (orderId: string, sequence: number) => `evt_${orderId}_${sequence}`;

/** Returns the order once the provider order exists; fails with the reason when it cannot be created. */
export const createOrderUpdate = defineUpdate<Order, [CreateOrderUpdateArgs]>('createOrder');
export const providerEventSignal = defineSignal<[ProviderEvent]>('providerEvent');
export const getOrderQuery = defineQuery<OrderMemo | null>('getOrder');

/** One attempt to deliver an integrator webhook, as the order workflow saw its result. */
export interface WebhookDeliveryRecord {
  webhook_id: string;
  sequence: number;
  /** 1 for the first attempt of this webhook-id. */
  attempt: number;
  /** When the attempt started (the workflow's clock), ISO 8601. */
  attempted_at: string;
  outcome: 'delivered' | 'failed' | 'refused' | 'no_endpoint';
  /** The endpoint's HTTP status, when it answered. */
  status_code?: number;
  /** Why it was not delivered. */
  error?: string;
}

/** How many delivery records an order keeps (the newest). */
export const WEBHOOK_DELIVERIES_KEPT = 100;

/** The order's integrator webhook attempts, oldest first (read-only: adds no history event). */
export const webhookDeliveriesQuery = defineQuery<WebhookDeliveryRecord[]>('webhookDeliveries');

/** Failure types the workflow raises for an order that could not be created (mapped to API error codes). */
export const ORDER_REJECTION_TYPES = [
  'invalid_wallet_address',
  'idempotency_conflict',
  'provider_rejected',
  'provider_unavailable',
] as const;
export type OrderRejectionType = (typeof ORDER_REJECTION_TYPES)[number];
