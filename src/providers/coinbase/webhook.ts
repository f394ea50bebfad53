import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CurrencyDictionary } from '../../domain/currency';
import { eventDigest, parseSignedJson, webhookReport } from '../kit/webhook';
import { WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import { CoinbaseWebhookSchema } from './schemas';
import { fromTransaction } from './transformers';

export const COINBASE_SIGNATURE_HEADER = 'x-hook0-signature';
/** A signature older (or newer) than this is refused, as Coinbase's own example does (5 minutes). */
export const COINBASE_SIGNATURE_MAX_AGE_SECONDS = 300;

interface SignatureHeader {
  timestamp: string;
  /** The names of the headers v1 binds, space-separated, as sent. */
  headerNames: string;
  v1: Buffer;
}

/** `X-Hook0-Signature: t=<unix>,v0=<hex>,h=<names>,v1=<hex>`: elements split on `,`, each name from its value on the first `=`. */
function readHeader(value: string): SignatureHeader {
  const elements: Record<string, string> = {};
  for (const element of value.split(',')) {
    const at = element.indexOf('=');
    if (at > 0) elements[element.slice(0, at).trim()] ??= element.slice(at + 1).trim();
  }
  const t = elements.t ?? '';
  const v1 = elements.v1 ?? '';
  const h = elements.h ?? '';
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-fA-F]{64}$/.test(v1) || !/^[a-z0-9-]*( [a-z0-9-]+)*$/i.test(h)) {
    throw new WebhookVerificationError(`malformed ${COINBASE_SIGNATURE_HEADER} header`);
  }
  return { timestamp: t, headerNames: h, v1: Buffer.from(v1, 'hex') };
}

/** A request header's value as one string: a repeated header is refused rather than guessed at. */
function headerValue(webhook: IncomingWebhook, name: string): string {
  const value = webhook.headers[name.toLowerCase()];
  if (Array.isArray(value)) throw new WebhookVerificationError(`header ${name} is repeated`);
  return value ?? '';
}

/**
 * Checks `v1`, the HMAC-SHA256 (webhook secret) of `<t>.<h>.<the values of the headers h names,
 * joined by ".">.<raw body>`, in constant time, and the timestamp's age. (`v0`, over `<t>.<body>`
 * only, is not needed: v1 covers it.)
 */
export function verifyCoinbaseSignature(webhook: IncomingWebhook, secret: string, nowSeconds: number): void {
  const value = webhook.headers[COINBASE_SIGNATURE_HEADER];
  if (typeof value !== 'string') throw new WebhookVerificationError(`no single ${COINBASE_SIGNATURE_HEADER} header`);
  const { timestamp, headerNames, v1 } = readHeader(value);
  if (Math.abs(nowSeconds - Number(timestamp)) > COINBASE_SIGNATURE_MAX_AGE_SECONDS) {
    throw new WebhookVerificationError(`signature timestamp is more than ${COINBASE_SIGNATURE_MAX_AGE_SECONDS} s away`);
  }
  const values = headerNames === '' ? [] : headerNames.split(' ').map((name) => headerValue(webhook, name));
  const digest = createHmac('sha256', secret)
    .update(`${timestamp}.${headerNames}.${values.join('.')}.`)
    .update(webhook.rawBody)
    .digest();
  if (!timingSafeEqual(digest, v1)) throw new WebhookVerificationError('signature does not match the body');
}

/**
 * A verified Onramp webhook as a broker event. The events carry no id of their own; the digest of
 * the body stands in, so a redelivered event is recognised as a duplicate.
 */
export function parseCoinbaseWebhook(
  webhook: IncomingWebhook,
  secret: string,
  dictionary: CurrencyDictionary,
  nowSeconds = Math.floor(Date.now() / 1000),
): ProviderWebhookEvent {
  verifyCoinbaseSignature(webhook, secret, nowSeconds);
  const event = parseSignedJson(webhook.rawBody, CoinbaseWebhookSchema, 'signed body is not a Coinbase Onramp transaction event');
  return { ...webhookReport(() => fromTransaction(event, dictionary)), eventId: eventDigest(webhook.rawBody) };
}
