import type { OrderStatus } from '../../domain/order-status';
import { statusMapper } from '../kit/status-map';

/**
 * Every order status Transak documents (guides/track-order-status), plus `ORDER_PAYMENT_VERIFYING`,
 * which Gem Wallet's adapter matches as a status value (it is Transak's event id for
 * PAYMENT_DONE_MARKED_BY_USER), onto the broker's status set.
 */
export const TRANSAK_STATUS_MAP = {
  /** Transak creates the order once the customer confirms in the widget; payment is next. */
  AWAITING_PAYMENT_FROM_USER: 'pending',
  /** The customer says they paid; Transak has not received the money yet. */
  PAYMENT_DONE_MARKED_BY_USER: 'pending',
  ORDER_PAYMENT_VERIFYING: 'pending',
  /** Checks passed and the payment details were validated. */
  PROCESSING: 'processing',
  /** Payment received; crypto being bought and sent. */
  PENDING_DELIVERY_FROM_TRANSAK: 'processing',
  ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK: 'hold',
  COMPLETED: 'complete',
  CANCELLED: 'failed',
  FAILED: 'failed',
  REFUNDED: 'refunded',
  EXPIRED: 'expired',
} as const satisfies Record<string, OrderStatus>;

export type TransakStatus = keyof typeof TRANSAK_STATUS_MAP;
export const TRANSAK_STATUSES = Object.keys(TRANSAK_STATUS_MAP) as [TransakStatus, ...TransakStatus[]];

/** Transak documents no failure-reason field; the status itself says which kind of failure it was. */
const FAILURE_REASONS: Partial<Record<TransakStatus, string>> = {
  FAILED: 'payment_failed',
  CANCELLED: 'cancelled',
};

export const mapTransakStatus = statusMapper('Transak', TRANSAK_STATUS_MAP, FAILURE_REASONS);
