import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { WebhookDeliverer, type WebhookDeliveryOptions } from '../../webhooks/delivery';
import { testWebhookBody } from '../../webhooks/event';
import { integratorOf } from '../auth';
import { methodNotAllowed, ProblemError } from '../problem';

/** What became of the test event, as POST /api/on_ramp/webhooks/test answers it. */
export interface WebhookTestResult {
  webhook_id: string;
  url: string;
  delivered: boolean;
  /** The endpoint's HTTP status, when it answered. */
  status_code?: number;
  /** Why it was not delivered: an HTTP status, a network error, a timeout, or the SSRF guard's refusal. */
  error?: string;
  latency_ms: number;
}

/**
 * POST /api/on_ramp/webhooks/test: one signed `webhook.test` event to the caller's webhook endpoint,
 * through the same signer, SSRF guard and timeout as order webhooks, never retried. Each request
 * gets its own connection pool, closed after the attempt.
 */
export function webhookTestRoutes(router: Router, delivery: WebhookDeliveryOptions): void {
  router
    .route('/on_ramp/webhooks/test')
    .post(async (req, res) => {
      const integrator = integratorOf(req);
      if (!integrator.webhook_url || !integrator.webhook_secret) {
        throw new ProblemError('not_found', 'No webhook endpoint is configured for this API key (webhook_url).');
      }
      const webhookId = `evt_test_${randomUUID()}`;
      const body = testWebhookBody(integrator.id, webhookId, new Date().toISOString());
      const deliverer = new WebhookDeliverer(delivery);
      const started = performance.now();
      try {
        const result = await deliverer.attempt({ url: integrator.webhook_url, secret: integrator.webhook_secret, id: webhookId, body });
        const answer: WebhookTestResult = {
          webhook_id: webhookId,
          url: integrator.webhook_url,
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
}
