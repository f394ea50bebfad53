import type { OrderStatus } from '../../domain/order-status';
import { statusMapper, type StatusMapping } from '../kit/status-map';

/** Every documented on-ramp order status ("Order Status", "Order Status List") onto the broker's status set. */
export const ALCHEMYPAY_STATUS_MAP = {
  /** Waiting for payment. No webhook. */
  PENDING: 'pending',
  /** The payment failed but the customer can still pay again in the page. No webhook. */
  INTERIM_PAY_FAIL: 'pending',
  /** Paid. Webhook. */
  PAY_SUCCESS: 'processing',
  /** Transferring the token. No webhook. */
  TRANSFER: 'processing',
  /** Completed: the customer has the crypto. Webhook. */
  FINISHED: 'complete',
  /** Payment failed. Webhook. */
  PAY_FAIL: 'failed',
  /** Order cancelled before any payment: the page was left or its time ran out. No webhook. */
  CANCEL: 'expired',
  /** High-risk order held by Alchemy Pay's risk control. No webhook. */
  RISK_CONTROL: 'hold',
  /** Refunded. No webhook. */
  REFUNDED: 'refunded',
  /** The wallet address was refused. No webhook. */
  INVALID_ADDRESS: 'failed',
} as const satisfies Record<string, OrderStatus>;

export type AlchemypayStatus = keyof typeof ALCHEMYPAY_STATUS_MAP;
export const ALCHEMYPAY_STATUSES = Object.keys(ALCHEMYPAY_STATUS_MAP) as AlchemypayStatus[];

/** The statuses Alchemy Pay sends a webhook for ("Webhook", "Order Status List"); the others are seen by polling only. */
export const ALCHEMYPAY_WEBHOOK_STATUSES: readonly AlchemypayStatus[] = ['PAY_SUCCESS', 'PAY_FAIL', 'FINISHED'];

export const ALCHEMYPAY_FAILURE_REASONS: Partial<Record<AlchemypayStatus, string>> = {
  PAY_FAIL: 'payment_failed',
  INVALID_ADDRESS: 'invalid_address',
};

/**
 * Not an Alchemy Pay status: the order exists at Alchemy Pay only once the customer has opened the
 * ramp page and placed it, so until then a lookup by our id finds nothing and it is reported so.
 */
export const ALCHEMYPAY_NO_ORDER = 'noOrderYet';

const mapListed = statusMapper('Alchemy Pay', ALCHEMYPAY_STATUS_MAP, ALCHEMYPAY_FAILURE_REASONS);

export function mapAlchemypayStatus(status: string): StatusMapping {
  if (status === ALCHEMYPAY_NO_ORDER) return { status: 'created' };
  return mapListed(status);
}
