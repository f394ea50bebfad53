/** The simulated Revolut Ramp's buy orders: their record, the statuses they walk through, and how Revolut shows them. */
import BigNumber from 'bignumber.js';

export type RevolutSimStatus = 'AWAITING_PAYMENT' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
export type RevolutFailReason = 'PAYMENT_NOT_RECEIVED' | 'PAYMENT_DECLINED' | 'CRYPTO_WITHDRAWAL_FAILED' | 'OTHER';
/** Revolut has no held or refunded buy order: its customer can pay, fail, or let the order expire. */
export type CheckoutAction = 'pay' | 'fail' | 'expire';
export const CHECKOUT_ACTIONS: readonly CheckoutAction[] = ['pay', 'fail', 'expire'];

/** The webhook event announcing each status. */
export const EVENT_OF: Readonly<Record<RevolutSimStatus, string>> = {
  AWAITING_PAYMENT: 'ORDER_CREATED',
  PROCESSING: 'ORDER_PROCESSING',
  COMPLETED: 'ORDER_COMPLETED',
  FAILED: 'ORDER_FAILED',
};

/** What `/buy` was asked for, kept until the customer opens the redirect URL. */
export interface BuyRequest {
  orderId: string;
  payment: string;
  feePercentage?: number;
  partnerRedirectUrl?: string;
  additionalProperties: Record<string, string>;
}

export interface RevolutSimOrder {
  /** The partner's external id (`orderId` of `/buy`): Revolut names the order by it. */
  id: string;
  fiatCurrency: string;
  /** What the customer pays, fees included. */
  total: string;
  rampFee: string;
  partnerFee: string;
  networkFee: string;
  cryptoId: string;
  cryptoAmount: string;
  /** Crypto per unit of fiat. */
  exchangeRate: string;
  payment: string;
  wallet: string;
  status: RevolutSimStatus;
  failReason?: RevolutFailReason;
  transactionHash?: string;
  additionalProperties: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

/** What the customer may do now; `walking`: a `pay` walk is under way. */
export function allowedActions(order: RevolutSimOrder, walking: boolean): CheckoutAction[] {
  if (order.status === 'AWAITING_PAYMENT') return walking ? ['fail'] : ['pay', 'fail', 'expire'];
  if (order.status === 'PROCESSING') return ['fail'];
  return [];
}

const money = (amount: string, currency: string) => ({ amount: Number(amount), currency });

/** `Order`: `fiat` is what bought the crypto, fees excluded; amounts are JSON numbers. */
export function orderJson(order: RevolutSimOrder) {
  const fees = {
    ramp_fee: money(order.rampFee, order.fiatCurrency),
    partner_fee: money(order.partnerFee, order.fiatCurrency),
    network_fee: money(order.networkFee, order.fiatCurrency),
  };
  const net = BigNumber.max(new BigNumber(order.total).minus(order.rampFee).minus(order.partnerFee).minus(order.networkFee), 0);
  return {
    id: order.id,
    fiat: money(net.toFixed(), order.fiatCurrency),
    crypto: { amount: Number(order.cryptoAmount), currencyId: order.cryptoId },
    fees,
    exchange_rate: Number(order.exchangeRate),
    payment: order.payment,
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
    status: order.status,
    ...(order.failReason ? { fail_reason: order.failReason } : {}),
    wallet: order.wallet,
    ...(order.transactionHash ? { transaction_hash: order.transactionHash } : {}),
    ...(Object.keys(order.additionalProperties).length > 0 ? { additionalProperties: order.additionalProperties } : {}),
    // The simulated partner's currency is the order's own.
    fees_partner_currency: fees,
  };
}
