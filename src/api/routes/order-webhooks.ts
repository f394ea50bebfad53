import type { Request, Router } from 'express';
import type { OrderService } from '../../orders/service';
import type { OrderMemo } from '../../temporal/shared';
import { integratorWebhookId } from '../../temporal/shared';
import { WebhookDeliverer, type WebhookDeliveryOptions } from '../../webhooks/delivery';
import { orderWebhookBody } from '../../webhooks/event';
import { integratorOf } from '../auth';
import { methodNotAllowed, ProblemError, REQUEST_PARSE, validationProblem } from '../problem';
import { forOrder } from '../tracing';
import { StatusQuerySchema } from './orders';

/** What became of a re-sent webhook, as POST /api/on_ramp/orders/{provider_code}/webhooks/resend answers it. */
export interface WebhookResendResult {
  webhook_id: string;
  sequence: number;
  delivered: boolean;
  /** The endpoint's HTTP status, when it answered. */
  status_code?: number;
  /** Why it was not delivered: an HTTP status, a network error, a timeout, or the SSRF guard's refusal. */
  error?: string;
  latency_ms: number;
}

/** The caller's order named by `?code=` at `:provider_code`, as the status route reads it; another integrator's is 404. */
async function ownOrder(req: Request, orders: OrderService): Promise<OrderMemo> {
  const integrator = integratorOf(req);
  const parsed = StatusQuerySchema.safeParse(req.query, REQUEST_PARSE);
  if (!parsed.success) throw validationProblem(parsed.error, 'query');
  const memo = await orders.get(parsed.data.code);
  if (!memo || memo.integratorId !== integrator.id || memo.providerCode !== req.params.provider_code) {
    throw new ProblemError('not_found', 'No order with this code at this provider.');
  }
  return memo;
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
      const integrator = integratorOf(req);
      const memo = await ownOrder(req, orders);
      forOrder(res, memo.order.id);
      if (!integrator.webhook_url || !integrator.webhook_secret) {
        throw new ProblemError('not_found', 'No webhook endpoint is configured for this API key (webhook_url).');
      }
      const webhookId = integratorWebhookId(memo.order.id, memo.sequence);
      const body = orderWebhookBody({ occurredAt: memo.order.updated_at, order: memo.order, sequence: memo.sequence });
      const deliverer = new WebhookDeliverer(delivery);
      const started = performance.now();
      try {
        const result = await deliverer.attempt({ url: integrator.webhook_url, secret: integrator.webhook_secret, id: webhookId, body });
        const answer: WebhookResendResult = {
          webhook_id: webhookId,
          sequence: memo.sequence,
          delivered: result.outcome === 'delivered',
          ...('status' in result && result.status !== undefined ? { status_code: result.status } : {}),
          ...('error' in result ? { error: result.error } : {}),
          latency_ms: Math.round(performance.now() - started),
        };
        res.json(answer);
      } finally {
        await deliverer.close();
      }
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/on_ramp/orders/:provider_code/webhooks')
    .get(async (req, res) => {
      const memo = await ownOrder(req, orders);
      forOrder(res, memo.order.id);
      const deliveries = await orders.webhookDeliveries(memo.order.id);
      if (!deliveries) throw new ProblemError('not_found', 'No order with this code at this provider.');
      res.json({ deliveries });
    })
    .all(methodNotAllowed(['GET']));
}
