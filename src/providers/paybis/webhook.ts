import { createPublicKey, type KeyObject } from 'node:crypto';
import { eventDigest, parseSignedJson } from '../kit/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../types';
import { PaybisWebhookSchema, type PaybisWebhook } from './schemas';
import { PAYBIS_SIGNATURE_HEADER, verifyPaybisSignature } from './signature';

export const paybisWebhookKey = (pem: string): KeyObject => createPublicKey(pem);

/**
 * Verifies Paybis's webhook signature: `X-Request-Signature`, base64 RSASSA-PSS SHA-512 made with
 * Paybis's private key, checked with the public key from onboarding. The scheme has no timestamp:
 * a replayed genuine webhook verifies, and is dropped as a duplicate by its digest.
 */
export function verifyPaybisWebhook(webhook: IncomingWebhook, publicKey: KeyObject): void {
  const header = webhook.headers[PAYBIS_SIGNATURE_HEADER];
  if (typeof header !== 'string' || header.trim() === '') throw new WebhookVerificationError(`missing ${PAYBIS_SIGNATURE_HEADER} header`);
  if (!verifyPaybisSignature(webhook.rawBody, header.trim(), publicKey))
    throw new WebhookVerificationError('signature does not verify with the Paybis webhook key');
}

/** The signed body as a transaction status webhook; anything else (a KYC status event, another shape) is refused. */
export function parsePaybisWebhookBody(rawBody: Buffer): PaybisWebhook {
  return parseSignedJson(rawBody, PaybisWebhookSchema, 'signed body is not a Paybis transaction status webhook');
}

/** Paybis's widget webhooks carry no event id; retries repeat the same payload, so its digest serves as one. */
export function paybisEventId(rawBody: Buffer): string {
  return `paybis_${eventDigest(rawBody).slice(0, 32)}`;
}
