import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import type { WebhookDeliveryOptions } from '../../webhooks/delivery';
import { testWebhookBody } from '../../webhooks/event';
import { integratorOf } from '../auth';
import { deliverOnce, webhookEndpointOf, type DeliveredOnce } from '../deliver-once';
import { methodNotAllowed } from '../problem';

/** What became of the test event, as POST /api/on_ramp/webhooks/test answers it. */
export interface WebhookTestResult extends DeliveredOnce {
  webhook_id: string;
  url: string;
}

/**
 * POST /api/on_ramp/webhooks/test: one signed `webhook.test` event to the caller's webhook endpoint,
 * through the same signer, SSRF guard and timeout as order webhooks, never retried.
 */
export function webhookTestRoutes(router: Router, delivery: WebhookDeliveryOptions): void {
  router
    .route('/on_ramp/webhooks/test')
    .post(async (req, res) => {
      const endpoint = webhookEndpointOf(req);
      const webhookId = `evt_test_${randomUUID()}`;
      const body = testWebhookBody(integratorOf(req).id, webhookId, new Date().toISOString());
      const result = await deliverOnce(delivery, endpoint, { id: webhookId, body });
      const answer: WebhookTestResult = { webhook_id: webhookId, url: endpoint.url, ...result };
      res.json(answer);
    })
    .all(methodNotAllowed(['POST']));
}
