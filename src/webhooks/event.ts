import type { Order } from '../domain/order';
import type { SellOrder } from '../domain/sell-order';

export const ORDER_STATUS_CHANGED = 'order.status_changed';

/** One status change of an order, as an order webhook tells it. */
export interface OrderStatusChange {
  /** When the status changed (the body's `timestamp`). */
  occurredAt: string;
  /** A sell order carries `kind: "off_ramp"`; a buy order carries no kind. */
  order: Order | SellOrder;
  sequence: number;
}

/**
 * The body of an order webhook (docs/api.md, "Webhooks to the integrator"): the order as the status
 * endpoint returns it, plus `sequence`, so receivers can drop stale events. Built from the change
 * alone, so every attempt sends the same bytes.
 */
export function orderWebhookBody(change: OrderStatusChange): string {
  return JSON.stringify({
    type: ORDER_STATUS_CHANGED,
    timestamp: change.occurredAt,
    data: { ...change.order, sequence: change.sequence },
  });
}

export const WEBHOOK_TEST = 'webhook.test';

/** The body of a test event (POST /api/on_ramp/webhooks/test): no order, only who asked and when. */
export function testWebhookBody(integratorId: string, webhookId: string, occurredAt: string): string {
  return JSON.stringify({
    type: WEBHOOK_TEST,
    timestamp: occurredAt,
    data: { integrator_id: integratorId, webhook_id: webhookId, message: 'A test event sent on request; no order changed.' },
  });
}
