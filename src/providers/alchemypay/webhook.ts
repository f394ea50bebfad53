import { timingSafeEqual } from 'node:crypto';
import type { CurrencyDictionary } from '../../domain/currency';
import { parseStrictJson } from '../kit/strict-json';
import { eventDigest, parseSigned, webhookReport } from '../kit/webhook';
import { WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import { AlchemypayWebhookSchema } from './schemas';
import { alchemypaySign, canonicalBody, webhookSignString } from './signing';
import { fromOrder } from './transformers';

export const ALCHEMYPAY_TIMESTAMP_HEADER = 'timestamp';
/** A timestamp further than this from now is refused, so a captured webhook cannot be replayed later. */
export const ALCHEMYPAY_SIGNATURE_MAX_AGE_MS = 300_000;

/**
 * Checks `newSignature` ("Webhook Signature"): base64 HMAC-SHA256 (app secret) of
 * `timestamp + "POST" + callback path + body`, the body's fields sorted by name with empty ones,
 * `signature` and `newSignature` left out; the timestamp is the `timestamp` header (milliseconds).
 */
export function verifyAlchemypaySignature(
  webhook: IncomingWebhook,
  appSecret: string,
  callbackPath: string,
  nowMs: number,
): Record<string, unknown> {
  const header = webhook.headers[ALCHEMYPAY_TIMESTAMP_HEADER];
  if (typeof header !== 'string' || !/^\d{13}$/.test(header))
    throw new WebhookVerificationError(`no valid ${ALCHEMYPAY_TIMESTAMP_HEADER} header`);
  if (Math.abs(nowMs - Number(header)) > ALCHEMYPAY_SIGNATURE_MAX_AGE_MS) {
    throw new WebhookVerificationError(`timestamp is more than ${ALCHEMYPAY_SIGNATURE_MAX_AGE_MS / 1000} s away`);
  }
  const body = parseStrictJson(webhook.rawBody);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new WebhookVerificationError('signed body is not an object');
  const fields = body as Record<string, unknown>;
  const given = typeof fields.newSignature === 'string' ? Buffer.from(fields.newSignature, 'base64') : Buffer.alloc(0);
  const expected = Buffer.from(alchemypaySign(appSecret, signedString(header, callbackPath, fields)), 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookVerificationError('newSignature does not match the body');
  }
  return fields;
}

/**
 * The string the body's signature covers. The body is written out again to be signed, and a value
 * nested deeper than JSON.stringify can recurse cannot be: such a body is refused, not a crash.
 */
function signedString(timestamp: string, callbackPath: string, fields: Record<string, unknown>): string {
  try {
    return webhookSignString(timestamp, callbackPath, fields);
  } catch {
    throw new WebhookVerificationError('signed body cannot be written out to check its signature');
  }
}

/**
 * A verified on-ramp webhook as a broker event. Alchemy Pay's webhooks carry no event id: the digest
 * of the canonical body the signature covers stands in, so copies of one signed body that differ in
 * spacing, key order or number spelling (all of which verify) are one event.
 */
export function parseAlchemypayWebhook(
  webhook: IncomingWebhook,
  appSecret: string,
  callbackPath: string,
  dictionary: CurrencyDictionary,
  nowMs = Date.now(),
): ProviderWebhookEvent {
  const fields = verifyAlchemypaySignature(webhook, appSecret, callbackPath, nowMs);
  const order = parseSigned(fields, AlchemypayWebhookSchema, 'signed body is not an Alchemy Pay order webhook');
  return { ...webhookReport(() => fromOrder(order, dictionary)), eventId: eventDigest(canonicalBody(fields)) };
}
