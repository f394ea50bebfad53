import express, { type Router } from 'express';
import type { OrderService } from '../../orders/service';
import type { ProviderRegistry } from '../../providers/registry';
import { WebhookVerificationError } from '../../providers/types';
import { methodNotAllowed, ProblemError } from '../problem';

/**
 * Provider webhooks: the raw body is kept for the signature check, and a verified event is signalled
 * to the order's workflow before the broker answers 2xx, so an acknowledged event is never lost.
 */
export function webhookRoutes(router: Router, providers: ProviderRegistry, orders: OrderService): void {
  router
    .route('/webhooks/:provider_code')
    .post(express.raw({ type: () => true, limit: '256kb' }), async (req, res) => {
      const adapter = providers.get(String(req.params.provider_code));
      if (!adapter) throw new ProblemError('not_found', 'Unknown provider.');
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let event;
      try {
        event = await adapter.parseWebhook({ headers: req.headers, rawBody, query: stringQuery(req.query) });
      } catch (err) {
        if (err instanceof WebhookVerificationError) {
          req.log.warn({ provider: adapter.info.code, reason: err.message }, 'provider webhook refused');
          throw new ProblemError('invalid_signature', 'The webhook signature does not verify.');
        }
        throw err;
      }
      const outcome = await orders.signalProviderEvent(event);
      if (outcome === 'unknown_order') {
        req.log.warn({ provider: adapter.info.code, orderId: event.orderId, eventId: event.eventId }, 'webhook for an unknown or closed order');
      }
      res.status(200).json({ received: true });
    })
    .all(methodNotAllowed(['POST']));
}

function stringQuery(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
