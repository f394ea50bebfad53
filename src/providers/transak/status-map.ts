import type { OrderStatus } from '../../domain/order-status';

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

/**
 * A status Transak has not documented maps to `created`: no transition leads to it, so it can never
 * move an order, and the next documented status (or a poll) decides.
 */
export const UNKNOWN_STATUS_FALLBACK: OrderStatus = 'created';

export function brokerStatus(status: string): OrderStatus {
  return Object.hasOwn(TRANSAK_STATUS_MAP, status) ? TRANSAK_STATUS_MAP[status as TransakStatus] : UNKNOWN_STATUS_FALLBACK;
}

const FAILURE_REASONS: Partial<Record<TransakStatus, string>> = {
  FAILED: 'payment_failed',
  CANCELLED: 'cancelled',
};

/** Transak documents no failure-reason field; the status itself says which kind of failure it was. */
export function failureReason(status: string): string | undefined {
  return Object.hasOwn(FAILURE_REASONS, status) ? FAILURE_REASONS[status as TransakStatus] : undefined;
}
