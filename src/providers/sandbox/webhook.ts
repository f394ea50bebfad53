import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CurrencyDictionary } from '../../domain/currency';
import { parseJson, parseSigned, webhookReport } from '../kit/webhook';
import { IgnoredWebhookError, WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import { SandboxWebhookSchema } from './schemas';
import { fromOrder } from './transformers';

export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
export const SANDBOX_SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Verifies `Sandbox-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<raw body>")>` on the raw body, as
 * the sandbox signs its buy and sell webhooks alike; throws WebhookVerificationError otherwise.
 */
export function verifySandboxSignature(webhook: IncomingWebhook, secret: string, nowSeconds: number): void {
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
}

/** Whether a JSON body marks itself as a sell (off-ramp) order's event: `"side": "sell"`. */
export function marksSell(json: unknown): boolean {
  return typeof json === 'object' && json !== null && !Array.isArray(json) && (json as { side?: unknown }).side === 'sell';
}

/**
 * Verifies the signature and parses a buy order's event. A verified sell order's event is not one:
 * IgnoredWebhookError (the sell adapter's parseWebhook reads it), so nothing of a sell reaches a buy order.
 */
export function parseSandboxWebhook(
  webhook: IncomingWebhook,
  secret: string,
  dictionary: CurrencyDictionary,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): ProviderWebhookEvent {
  verifySandboxSignature(webhook, secret, nowSeconds);
  const json = parseJson(webhook.rawBody);
  if (marksSell(json)) throw new IgnoredWebhookError('a sell order event: not about a buy order');
  const event = parseSigned(json, SandboxWebhookSchema, 'signed body is not a sandbox order event');
  return { ...webhookReport(() => fromOrder(event.order, dictionary)), eventId: event.event_id };
}
