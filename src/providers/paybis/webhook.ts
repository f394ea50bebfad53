import { createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { eventDigest, parseJson, parseSigned } from '../kit/webhook';
import { IgnoredWebhookError, WebhookVerificationError, type IncomingWebhook } from '../types';
import { PAYBIS_TRANSACTION_EVENT, PaybisWebhookSchema, type PaybisWebhook } from './schemas';
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

/** What every Paybis webhook names: its kind of event. */
const PaybisEventSchema = z.object({ event: z.string() });

/**
 * Events Paybis documents for the same URL that are not the broker's to act on: the customer's KYC
 * (`VERIFICATION_STATUS_UPDATED`, docs.payb.is Webhooks: Verification Status Update).
 */
export const PAYBIS_IGNORED_EVENTS: ReadonlySet<string> = new Set(['VERIFICATION_STATUS_UPDATED']);

/**
 * The signed body as a transaction status webhook. A documented event of another kind is verified
 * and not the broker's to act on (IgnoredWebhookError, acknowledged). An event Paybis does not
 * document is refused like an undocumented status (docs/decisions.md, Unknown provider statuses):
 * Paybis keeps it and retries. A body that names no event, or a transaction event of another shape,
 * is refused.
 */
export function parsePaybisWebhookBody(rawBody: Buffer): PaybisWebhook {
  const json = parseJson(rawBody);
  const { event } = parseSigned(json, PaybisEventSchema, 'signed body is not a Paybis webhook');
  if (PAYBIS_IGNORED_EVENTS.has(event)) throw new IgnoredWebhookError(`a Paybis ${event} event`);
  if (event !== PAYBIS_TRANSACTION_EVENT)
    throw new WebhookVerificationError(`signed body reports an event Paybis does not document (${JSON.stringify(event.slice(0, 64))})`);
  return parseSigned(json, PaybisWebhookSchema, 'signed body is not a Paybis transaction status webhook');
}

/** Paybis's widget webhooks carry no event id; retries repeat the same payload, so its digest serves as one. */
export function paybisEventId(rawBody: Buffer): string {
  return `paybis_${eventDigest(rawBody).slice(0, 32)}`;
}
