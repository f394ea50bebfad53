/**
 * The sell (off-ramp) order workflow's contract with the API, the worker and its activities. A sell
 * order lives under the same workflow id scheme as a buy (orderWorkflowId: one id space, one
 * reservation, one review per order), its id derived apart from a buy's (src/orders/sell-request.ts),
 * with a workflow type, signal, update and query of its own, so that no buy report or request can
 * reach a sell order, nor a sell one a buy order. Imported by workflow code: no Node built-ins, no I/O.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ReportedDeposit, ReportedSellTerms } from '../domain/sell-integrity';
import type { SellOrder } from '../domain/sell-order';
import type { SellOrderStatus } from '../domain/sell-order-status';
import type { CreateOrderUpdateArgs, OrderQuote, OrderTimings } from './order-contract';

export const SELL_ORDER_WORKFLOW_TYPE = 'sellOrderWorkflow';

/** The sell order request as the API accepted it (currency IDs, decimal strings at each currency's precision). */
export interface SellOrderRequest {
  /** The crypto currency sold. */
  from_currency: number;
  /** The crypto amount sent, at the crypto currency's precision. */
  from_amount: string;
  /** The fiat currency paid out. */
  to_currency: number;
  /** The offer's payout the order was accepted against, at the fiat currency's precision. */
  to_amount: string;
  refund_wallet_address: string;
  payout_method: string;
  country_code: string;
  state_code?: string;
  external_user_id: string;
  external_order_id: string;
  return_url?: string;
  ip?: string;
  user_agent?: string;
  extras: Record<string, unknown>;
}

/** The sell order's durations; `paymentWindowMs` of OrderTimings is its deposit window here. */
export type SellOrderTimings = OrderTimings;

export interface SellOrderWorkflowInput {
  kind: 'off_ramp';
  orderId: string;
  integratorId: string;
  providerCode: string;
  requestHash: string;
  request: SellOrderRequest;
  /** The crypto currency's network as the dictionary names it: a deposit on any other is refused. */
  network: string;
  timings: SellOrderTimings;
  /** What the offer quoted, kept for the order's records (ORDER_QUOTE_MEMO_KEY). */
  quote?: OrderQuote;
}

/** The integrator's report of the customer's deposit transaction, its hash checked for the network's format by the API. */
export interface ConfirmSellDepositArgs {
  transactionHash: string;
}

/**
 * Why a deposit confirmation was not taken (the update's ApplicationFailure type):
 * `deposit_not_awaited` (the order shows no deposit, or no longer waits for one),
 * `deposit_already_confirmed` (another transaction was confirmed), `provider_rejected`,
 * `provider_unavailable` (the provider could not be reached; the confirmation may be sent again).
 */
export const DEPOSIT_CONFIRMATION_REFUSALS = [
  'deposit_not_awaited',
  'deposit_already_confirmed',
  'provider_rejected',
  'provider_unavailable',
] as const;
export type DepositConfirmationRefusal = (typeof DEPOSIT_CONFIRMATION_REFUSALS)[number];

/** A provider's report about a sell order, by webhook (signal) or by poll. */
export interface SellProviderEvent {
  eventId?: string;
  /** The provider whose signature or API the report came from; an order ignores any other's. */
  providerCode: string;
  providerStatus: string;
  status: SellOrderStatus;
  providerOrderId?: string;
  failureReason?: string;
  /** The deposit instruction as the provider's authenticated message names it. */
  deposit?: ReportedDeposit;
  transactionHash?: string;
  reported?: ReportedSellTerms;
  providerOrderCreatedAt?: string;
  /** When the API received the webhook (ISO 8601); absent for polls. */
  receivedAt?: string;
}

/**
 * Values of the order's IntegrityAlert: as a buy's (`payment_differs`: here the crypto sent or the
 * payout differs; `report_refused`), and `deposit_refused`: a report named another deposit address,
 * memo or network than the order shows, or one the network's rules refuse.
 */
export type SellIntegrityAlert = 'payment_differs' | 'report_refused' | 'deposit_refused';

export interface SellOrderMemo {
  kind: 'off_ramp';
  order: SellOrder;
  integratorId: string;
  providerCode: string;
  requestHash: string;
  sequence: number;
  providerOrderId?: string;
  integrityAlert?: SellIntegrityAlert;
  refusedReports?: number;
  /** Also the ReviewReason search attribute. */
  reviewReason?: 'open_too_long';
}

/** Whether an order workflow's memo is a sell order's. */
export function isSellOrderMemo(memo: { kind?: unknown } | null | undefined): memo is SellOrderMemo {
  return memo?.kind === 'off_ramp';
}

export const createSellOrderUpdate = defineUpdate<SellOrder, [CreateOrderUpdateArgs]>('createSellOrder');
export const sellProviderEventSignal = defineSignal<[SellProviderEvent]>('sellProviderEvent');
/** The customer's deposit transaction, passed on to the provider; answers the order as it then is. */
export const confirmSellDepositUpdate = defineUpdate<SellOrder, [ConfirmSellDepositArgs]>('confirmSellDeposit');
export const getSellOrderQuery = defineQuery<SellOrderMemo | null>('getSellOrder');
