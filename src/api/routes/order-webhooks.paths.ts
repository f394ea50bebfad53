import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AUTHENTICATED, ok, problem, UNREADABLE_503 } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI paths of an order's webhook routes (./order-webhooks.ts). */
/** The OpenAPI paths of an order's webhook routes (./order-webhooks.ts): a buy's under /api/on_ramp, a sell's under /api/off_ramp. */
export function registerOrderWebhookPaths(registry: OpenAPIRegistry): void {
  registerKindPaths(registry, {
    prefix: '/api/on_ramp/orders',
    operation: '',
    order: 'order',
    otherKind: "A sell order's code is 404 here (its routes are under /api/off_ramp).",
  });
  registerKindPaths(registry, {
    prefix: '/api/off_ramp/orders',
    operation: 'Sell',
    order: 'sell order',
    otherKind: "A buy order's code is 404 here (its routes are under /api/on_ramp).",
  });
}

interface KindPaths {
  prefix: string;
  /** In the operation ids: resend<…>OrderWebhook, list<…>OrderWebhookDeliveries. */
  operation: string;
  order: string;
  otherKind: string;
}

function registerKindPaths(registry: OpenAPIRegistry, { prefix, operation, order, otherKind }: KindPaths): void {
  registry.registerPath({
    method: 'post',
    path: `${prefix}/{provider_code}/webhooks/resend`,
    operationId: `resend${operation}OrderWebhook`,
    tags: ['Integrator webhooks'],
    summary: `Sends the ${order}'s latest webhook to your webhook endpoint again and says what happened`,
    description:
      `The \`order.status_changed\` webhook of the ${order}'s latest status change, rebuilt from the order: the same \`webhook-id\` and the ` +
      'same body bytes as the original (freshly signed), so your de-duplication recognises it. Sent once, through the same SSRF guard ' +
      'and timeout as every order webhook, and not retried. The answer is 200 whether or not your endpoint accepted it: `delivered`, ' +
      `\`status_code\` or \`error\`, and \`latency_ms\` tell. ${otherKind}`,
    request: { params: S.OrderPathSchema, query: S.OrderStatusQuerySchema },
    responses: {
      200: ok('What became of the re-sent webhook.', S.WebhookResendResultSchema),
      400: problem(400, '`validation_error`: code is missing or not an order id.'),
      404: problem(
        404,
        `\`not_found\`: no such ${order} at this provider for this API key's integrator, or no webhook endpoint is configured for this API key.`,
      ),
      503: problem(503, UNREADABLE_503, ['Retry-After']),
      ...AUTHENTICATED,
    },
  });

  registry.registerPath({
    method: 'get',
    path: `${prefix}/{provider_code}/webhooks`,
    operationId: `list${operation}OrderWebhookDeliveries`,
    tags: ['Integrator webhooks'],
    summary: `The ${order}'s webhook delivery attempts`,
    description:
      `Every attempt the ${order}'s workflow made to deliver its webhooks to your endpoint (the newest 100), oldest first, with each ` +
      "attempt's outcome and your endpoint's HTTP status. Answered from the order's workflow, also after the order has finished. " +
      `Re-sends (POST …/webhooks/resend) are not listed. ${otherKind}`,
    request: { params: S.OrderPathSchema, query: S.OrderStatusQuerySchema },
    responses: {
      200: ok('The delivery attempts.', S.WebhookDeliveriesSchema),
      400: problem(400, '`validation_error`: code is missing or not an order id.'),
      404: problem(404, `\`not_found\`: no such ${order} at this provider for this API key's integrator.`),
      503: problem(
        503,
        "`service_unavailable`: Temporal cannot be reached, no worker answered in time, or the order's stored records cannot be decoded by the broker (an encryption setting; Retry-After 60).",
        ['Retry-After'],
      ),
      ...AUTHENTICATED,
    },
  });
}
