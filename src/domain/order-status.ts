/**
 * The broker's order status set and its transition table (docs/decisions.md, "Order statuses").
 * Pure: imported by workflow code, so no I/O and no Node built-ins.
 */
export const ORDER_STATUSES = ['created', 'pending', 'hold', 'processing', 'complete', 'failed', 'expired', 'refunded'] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Allowed moves. Everything not listed is refused, so a late, duplicated or reordered provider event
 * can never move an order back. `hold` may return to `pending`; `failed` may still become `refunded`;
 * `expired` may be revived by a late payment, but only to `processing` or `complete`. A refund means
 * a payment was taken, so any open status may become `refunded` (a lost `processing` event, or a
 * payment held for verification and returned).
 */
const TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  created: ['pending', 'hold', 'processing', 'complete', 'failed', 'expired', 'refunded'],
  pending: ['hold', 'processing', 'complete', 'failed', 'expired', 'refunded'],
  hold: ['pending', 'processing', 'complete', 'failed', 'expired', 'refunded'],
  processing: ['complete', 'failed', 'refunded'],
  complete: [],
  failed: ['refunded'],
  expired: ['processing', 'complete'],
  refunded: [],
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function allowedNextStatuses(from: OrderStatus): readonly OrderStatus[] {
  return TRANSITIONS[from];
}

/** No transition leads out of these: the order is settled for good. */
export function isTerminal(status: OrderStatus): boolean {
  return TRANSITIONS[status].length === 0;
}

/**
 * Final from the integrator's point of view, though a provider may still report a refund (after
 * `failed`) or a late payment (after `expired`); the workflow keeps listening for a grace period.
 */
export function isSettled(status: OrderStatus): boolean {
  return status === 'complete' || status === 'failed' || status === 'expired' || status === 'refunded';
}
