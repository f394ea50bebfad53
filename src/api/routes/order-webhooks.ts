import type { Request, Response, Router } from 'express';
import type { OrderService } from '../../orders/service';
import { integratorWebhookId, type OrderMemo } from '../../temporal/order-contract';
import type { SellOrderMemo } from '../../temporal/sell-order-contract';
import type { WebhookDeliveryOptions } from '../../webhooks/delivery';
import { orderWebhookBody } from '../../webhooks/event';
import { deliverOnce, webhookEndpointOf, type DeliveredOnce } from '../deliver-once';
import { methodNotAllowed, ProblemError } from '../problem';
import { ownOrder } from './orders';
import { ownSellOrder } from './sell-orders';

/** What became of a re-sent webhook, as POST /api/{on,off}_ramp/orders/{provider_code}/webhooks/resend answers it. */
export interface WebhookResendResult extends DeliveredOnce {
  webhook_id: string;
  sequence: number;
}

/** The caller's order of one kind named by the request (another kind's, another integrator's: not_found). */
type OwnOrder = (req: Request, res: Response, orders: OrderService) => Promise<OrderMemo | SellOrderMemo>;

/**
 * POST /api/on_ramp/orders/{provider_code}/webhooks/resend: the order's latest webhook again, rebuilt
 * from its memo (the same webhook-id and bytes as the original), delivered once from the API
 * process like the test event (same signer, SSRF guard and timeout), never retried.
 * GET /api/on_ramp/orders/{provider_code}/webhooks: the order's webhook attempts, from its workflow.
 * The same two under /api/off_ramp for sell orders, whose workflow builds its webhooks and keeps its
 * attempts as a buy's does (one body builder, one webhookDeliveries query).
 */
export function orderWebhookRoutes(router: Router, orders: OrderService, delivery: WebhookDeliveryOptions): void {
  kindWebhookRoutes(router, '/on_ramp/orders', ownOrder, orders, delivery, 'No order with this code at this provider.');
  kindWebhookRoutes(router, '/off_ramp/orders', ownSellOrder, orders, delivery, 'No sell order with this code at this provider.');
}

function kindWebhookRoutes(
  router: Router,
  prefix: string,
  own: OwnOrder,
  orders: OrderService,
  delivery: WebhookDeliveryOptions,
  notFound: string,
): void {
  router
    .route(`${prefix}/:provider_code/webhooks/resend`)
    .post(async (req, res) => {
      const memo = await own(req, res, orders);
      const endpoint = webhookEndpointOf(req);
      const webhookId = integratorWebhookId(memo.order.id, memo.sequence);
      const body = orderWebhookBody({ occurredAt: memo.order.updated_at, order: memo.order, sequence: memo.sequence });
      const result = await deliverOnce(delivery, endpoint, { id: webhookId, body });
      const answer: WebhookResendResult = { webhook_id: webhookId, sequence: memo.sequence, ...result };
      res.json(answer);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route(`${prefix}/:provider_code/webhooks`)
    .get(async (req, res) => {
      const memo = await own(req, res, orders);
      const deliveries = await orders.webhookDeliveries(memo.order.id);
      if (!deliveries) throw new ProblemError('not_found', notFound);
      res.json({ deliveries });
    })
    .all(methodNotAllowed(['GET']));
}
