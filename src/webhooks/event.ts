import type { IntegratorNotification } from '../temporal/shared';

export const ORDER_STATUS_CHANGED = 'order.status_changed';

/**
 * The body of an order webhook (design.md): the order as the status endpoint returns it, plus
 * `sequence`, so receivers can drop stale events. Built from the notification alone, so every
 * attempt sends the same bytes.
 */
export function orderWebhookBody(notification: IntegratorNotification): string {
  return JSON.stringify({
    type: ORDER_STATUS_CHANGED,
    timestamp: notification.occurredAt,
    data: { ...notification.order, sequence: notification.sequence },
  });
}
