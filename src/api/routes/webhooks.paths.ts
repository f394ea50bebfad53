import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ADDRESS_RATE_LIMITED, AUTHENTICATED, ok, problem } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI path of the provider webhook route (./webhooks.ts), which takes no API key. */
export function registerWebhookPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/webhooks/{provider_code}',
    operationId: 'receiveProviderWebhook',
    tags: ['Provider webhooks'],
    summary: 'Where providers send their webhooks',
    description:
      "No API key: each provider's signature (for the sandbox providers, the `Sandbox-Signature` header) is verified on the raw " +
      "body. A verified event is handed to the order's workflow before the broker answers 200, also for an order the broker does " +
      'not know (which is logged). An event already handed over, or about an order of another provider or a provider order that ' +
      'another order holds, is acknowledged with 200 and not handed over; so is a verified event the broker does not act on ' +
      "(Paybis's KYC events, for example).",
    security: [],
    request: {
      params: S.WebhookPathSchema,
      body: { required: false, content: { 'application/json': { schema: S.WebhookBodySchema } } },
    },
    responses: {
      200: ok('The event was accepted.', S.WebhookReceiptSchema),
      400: problem(400, '`validation_error`: the body could not be read.'),
      401: problem(401, '`invalid_signature`: the signature does not verify.'),
      404: problem(404, '`not_found`: unknown provider.'),
      413: problem(413, '`payload_too_large`: the body is over 256 KiB.'),
      415: problem(415, '`unsupported_media_type`: unsupported Content-Encoding.'),
      422: problem(
        422,
        '`provider_rejected`: the event names only an id, and the provider does not know that order (Banxa); ' +
          '`event_out_of_bounds`: a text of the event is longer than the broker takes (the detail names it and its limit). Sending it again does not help.',
      ),
      429: ADDRESS_RATE_LIMITED,
      500: AUTHENTICATED[500]!,
      503: problem(
        503,
        "`service_unavailable`: Temporal cannot be reached, or the order's or its provider order claim's stored records cannot be decoded by the broker (an encryption setting); " +
          '`provider_unavailable`: the provider cannot be reached to read an event that names only an id (Banxa). The provider retries.',
        ['Retry-After'],
      ),
    },
  });
}
