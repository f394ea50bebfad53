import type { Order } from '../domain/order';

export const ORDER_STATUS_CHANGED = 'order.status_changed';

/** One status change of an order, as an order webhook tells it. */
export interface OrderStatusChange {
  /** When the status changed (the body's `timestamp`). */
  occurredAt: string;
  order: Order;
  sequence: number;
}

/**
 * The body of an order webhook (design.md): the order as the status endpoint returns it, plus
 * `sequence`, so receivers can drop stale events. Built from the change alone, so every attempt
 * sends the same bytes.
 */
export function orderWebhookBody(change: OrderStatusChange): string {
  return JSON.stringify({
    type: ORDER_STATUS_CHANGED,
    timestamp: change.occurredAt,
    data: { ...change.order, sequence: change.sequence },
  });
}
