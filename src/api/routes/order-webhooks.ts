import type { Router } from 'express';
import type { OrderService } from '../../orders/service';
import { integratorWebhookId } from '../../temporal/order-contract';
import type { WebhookDeliveryOptions } from '../../webhooks/delivery';
import { orderWebhookBody } from '../../webhooks/event';
import { deliverOnce, webhookEndpointOf, type DeliveredOnce } from '../deliver-once';
import { methodNotAllowed, ProblemError } from '../problem';
import { ownOrder } from './orders';

/** What became of a re-sent webhook, as POST /api/on_ramp/orders/{provider_code}/webhooks/resend answers it. */
export interface WebhookResendResult extends DeliveredOnce {
  webhook_id: string;
  sequence: number;
}

/**
 * POST /api/on_ramp/orders/{provider_code}/webhooks/resend: the order's latest webhook again, rebuilt
 * from its memo (the same webhook-id and bytes as the original), delivered once from the API
 * process like the test event (same signer, SSRF guard and timeout), never retried.
 * GET /api/on_ramp/orders/{provider_code}/webhooks: the order's webhook attempts, from its workflow.
 */
export function orderWebhookRoutes(router: Router, orders: OrderService, delivery: WebhookDeliveryOptions): void {
  router
    .route('/on_ramp/orders/:provider_code/webhooks/resend')
    .post(async (req, res) => {
      const memo = await ownOrder(req, res, orders);
      const endpoint = webhookEndpointOf(req);
      const webhookId = integratorWebhookId(memo.order.id, memo.sequence);
      const body = orderWebhookBody({ occurredAt: memo.order.updated_at, order: memo.order, sequence: memo.sequence });
      const result = await deliverOnce(delivery, endpoint, { id: webhookId, body });
      const answer: WebhookResendResult = { webhook_id: webhookId, sequence: memo.sequence, ...result };
      res.json(answer);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/on_ramp/orders/:provider_code/webhooks')
    .get(async (req, res) => {
      const memo = await ownOrder(req, res, orders);
      const deliveries = await orders.webhookDeliveries(memo.order.id);
      if (!deliveries) throw new ProblemError('not_found', 'No order with this code at this provider.');
      res.json({ deliveries });
    })
    .all(methodNotAllowed(['GET']));
}
