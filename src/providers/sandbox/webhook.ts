import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CurrencyDictionary } from '../../domain/currency';
import { parseSignedJson, webhookReport } from '../kit/webhook';
import { WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import { SandboxWebhookSchema } from './schemas';
import { fromOrder } from './transformers';

export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
export const SANDBOX_SIGNATURE_TOLERANCE_SECONDS = 300;

/** Verifies `Sandbox-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<raw body>")>` and parses the event. */
export function parseSandboxWebhook(
  webhook: IncomingWebhook,
  secret: string,
  dictionary: CurrencyDictionary,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): ProviderWebhookEvent {
  const header = webhook.headers[SANDBOX_SIGNATURE_HEADER];
  if (typeof header !== 'string') throw new WebhookVerificationError(`missing ${SANDBOX_SIGNATURE_HEADER} header`);
  const parts = new Map(
    header.split(',').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const signature = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) {
    throw new WebhookVerificationError('malformed signature header');
  }
  if (Math.abs(nowSeconds - timestamp) > SANDBOX_SIGNATURE_TOLERANCE_SECONDS) {
    throw new WebhookVerificationError('signature timestamp outside the tolerance window');
  }
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(webhook.rawBody).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    throw new WebhookVerificationError('signature does not match');
  }
  const event = parseSignedJson(webhook.rawBody, SandboxWebhookSchema, 'signed body is not a sandbox order event');
  return { ...webhookReport(() => fromOrder(event.order, dictionary)), eventId: event.event_id };
}
