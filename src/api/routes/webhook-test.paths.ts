import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AUTHENTICATED, ok, problem } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI path of the webhook test route (./webhook-test.ts). */
export function registerWebhookTestPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/on_ramp/webhooks/test',
    operationId: 'sendTestWebhook',
    tags: ['Integrator webhooks'],
    summary: 'Sends a signed `webhook.test` event to your webhook endpoint and says what happened',
    description:
      'One Standard Webhooks message of type `webhook.test`, signed with your webhook secret like every order webhook, through the ' +
      'same SSRF guard and timeout; not retried. The answer is 200 whether or not your endpoint accepted it: `delivered`, ' +
      '`status_code` or `error`, and `latency_ms` tell.',
    responses: {
      200: ok('What became of the test event.', S.WebhookTestResultSchema),
      404: problem(404, '`not_found`: no webhook endpoint is configured for this API key.'),
      ...AUTHENTICATED,
    },
  });
}
