import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { eventDigest, parseSignedJson } from '../kit/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../types';
import type { BanxaCredentials } from './config';
import { BanxaWebhookSchema, type BanxaWebhook } from './schemas';

/** How far a webhook's nonce (its signing time) may be from the broker's clock. */
export const BANXA_NONCE_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Banxa's nonce is a Unix timestamp: milliseconds in its documentation, microseconds (16 digits)
 * in its current advice, seconds in older integrations. Read as milliseconds, or undefined.
 */
function nonceMillis(nonce: string): number | undefined {
  if (!/^\d{10}$|^\d{13}$|^\d{16}$/.test(nonce)) return undefined;
  const value = Number(nonce);
  return nonce.length === 10 ? value * 1000 : nonce.length === 16 ? Math.floor(value / 1000) : value;
}

/** `Authorization: Bearer <api key>:<hex HMAC-SHA256>:<nonce>`, split into its parts. */
function authorizationParts(header: string | string[] | undefined): { key: string; signature: string; nonce: string } {
  if (typeof header !== 'string') throw new WebhookVerificationError('missing Authorization header');
  const match = /^Bearer ([^:\s]+):([0-9a-f]{64}):(\d+)$/i.exec(header.trim());
  if (!match) throw new WebhookVerificationError('malformed Authorization header');
  const [, key = '', signature = '', nonce = ''] = match;
  return { key, signature: signature.toLowerCase(), nonce };
}

const equalText = (a: string, b: string) => {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
};

/**
 * Verifies Banxa's webhook signature: the HMAC-SHA256, keyed with the API secret, of
 * `POST\n<path of the webhook URL>\n<nonce>\n<raw body>`, under the partner's own API key, with a
 * nonce within the tolerance of the broker's clock.
 */
export function verifyBanxaWebhook(
  webhook: IncomingWebhook,
  credentials: BanxaCredentials,
  webhookPath: string,
  nowMs: number = Date.now(),
): void {
  const { key, signature, nonce } = authorizationParts(webhook.headers.authorization);
  if (!equalText(key, credentials.apiKey)) throw new WebhookVerificationError('signed with another API key');
  const signedAt = nonceMillis(nonce);
  if (signedAt === undefined) throw new WebhookVerificationError('nonce is not a Unix timestamp');
  if (Math.abs(nowMs - signedAt) > BANXA_NONCE_TOLERANCE_MS) throw new WebhookVerificationError('nonce outside the tolerance window');
  const expected = createHmac('sha256', credentials.apiSecret).update(`POST\n${webhookPath}\n${nonce}\n`).update(webhook.rawBody).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw new WebhookVerificationError('signature does not match');
}

/** The signed body as an order webhook; a body that is not one is refused like a bad signature. */
export function parseBanxaWebhookBody(rawBody: Buffer): BanxaWebhook {
  return parseSignedJson(rawBody, BanxaWebhookSchema, 'signed body is not a Banxa order webhook');
}

/** Banxa's webhooks carry no event id; retries repeat the same payload, so its digest serves as one. */
export function banxaEventId(rawBody: Buffer): string {
  return `banxa_${eventDigest(rawBody).slice(0, 32)}`;
}
