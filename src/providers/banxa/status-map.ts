import type { OrderStatus } from '../../domain/order-status';
import { statusMapper } from '../kit/status-map';

/**
 * Every order status Banxa documents (Hosted Checkout "Order Statuses", the Node SDK's list) and the
 * spellings seen in integrations' code (`coinTransferred` before March 2024, `completed`, `succeeded`),
 * onto the broker's status set.
 */
export const BANXA_STATUS_MAP = {
  /** Order created; buy: waiting for the customer's payment. */
  pendingPayment: 'created',
  /** Payment details submitted; waiting for the payment systems to confirm. */
  waitingPayment: 'pending',
  /** Held for extra ID or address checks by Banxa support. */
  extraVerification: 'hold',
  paymentReceived: 'processing',
  /** Deprecated by Banxa (no webhooks since July 2024), still possible in order lookups. */
  inProgress: 'processing',
  /** Crypto submitted to the blockchain; renamed cryptoTransferred in March 2024. */
  coinTransferred: 'processing',
  cryptoTransferred: 'processing',
  /** Buy: two blockchain confirmations. */
  complete: 'complete',
  completed: 'complete',
  succeeded: 'complete',
  /** Cancelled by Banxa's risk and compliance checks. */
  cancelled: 'failed',
  /** Declined by the payment processor. */
  declined: 'failed',
  /** Not paid in time; revives by itself if the payment arrives late. */
  expired: 'expired',
  refunded: 'refunded',
} as const satisfies Record<string, OrderStatus>;

export type BanxaStatus = keyof typeof BANXA_STATUS_MAP;
export const BANXA_STATUSES = Object.keys(BANXA_STATUS_MAP) as BanxaStatus[];

const FAILURE_REASONS: Partial<Record<BanxaStatus, string>> = {
  cancelled: 'cancelled_by_provider',
  declined: 'payment_declined',
};

export const mapBanxaStatus = statusMapper('Banxa', BANXA_STATUS_MAP, FAILURE_REASONS);
