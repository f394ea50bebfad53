import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CurrencyDictionary } from '../../domain/currency';
import { eventDigest, parseJson, parseSigned, webhookReport } from '../kit/webhook';
import { IgnoredWebhookError, WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import { MoonpayWebhookSchema } from './schemas';
import { fromTransaction } from './transformers';

export const MOONPAY_SIGNATURE_HEADER = 'moonpay-signature-v2';
/** A signature older (or newer) than this is refused, so a captured webhook cannot be replayed later. */
export const MOONPAY_SIGNATURE_MAX_AGE_SECONDS = 300;

/** `Moonpay-Signature-V2: t=<unix seconds>,s=<hex>`: the elements split on `,`, each prefix from its value on `=`. */
function readHeader(value: string): { timestamp: number; signature: Buffer } {
  const elements: Record<string, string> = {};
  for (const element of value.split(',')) {
    const at = element.indexOf('=');
    if (at > 0) elements[element.slice(0, at).trim()] = element.slice(at + 1).trim();
  }
  const t = elements.t ?? '';
  const s = elements.s ?? '';
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-fA-F]{64}$/.test(s)) {
    throw new WebhookVerificationError(`malformed ${MOONPAY_SIGNATURE_HEADER} header`);
  }
  return { timestamp: Number(t), signature: Buffer.from(s, 'hex') };
}

/** Checks the HMAC-SHA256 (webhook key) of "<t>.<raw body>" in constant time, and the timestamp's age. */
export function verifyMoonpaySignature(webhook: IncomingWebhook, webhookKey: string, nowSeconds: number): void {
  const value = webhook.headers[MOONPAY_SIGNATURE_HEADER];
  if (typeof value !== 'string') throw new WebhookVerificationError(`no ${MOONPAY_SIGNATURE_HEADER} header`);
  const { timestamp, signature } = readHeader(value);
  if (Math.abs(nowSeconds - timestamp) > MOONPAY_SIGNATURE_MAX_AGE_SECONDS) {
    throw new WebhookVerificationError(`signature timestamp is more than ${MOONPAY_SIGNATURE_MAX_AGE_SECONDS} s away`);
  }
  const digest = createHmac('sha256', webhookKey).update(`${timestamp}.`).update(webhook.rawBody).digest();
  if (!timingSafeEqual(digest, signature)) throw new WebhookVerificationError('signature does not match the body');
}

/** Whether the body's `type` is a sell event's (`sell_transaction_…`; docs/providers/moonpay.md, "Sell (off-ramp)"). */
function isSellType(json: unknown): boolean {
  const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type.startsWith('sell_');
}

/**
 * A verified buy webhook as a broker event. MoonPay's events carry no id of their own; the digest of
 * the body stands in, so a redelivered event is recognised as a duplicate.
 */
export function parseMoonpayWebhook(
  webhook: IncomingWebhook,
  webhookKey: string,
  dictionary: CurrencyDictionary,
  nowSeconds = Math.floor(Date.now() / 1000),
): ProviderWebhookEvent {
  verifyMoonpaySignature(webhook, webhookKey, nowSeconds);
  const json = parseJson(webhook.rawBody);
  // A sell transaction's event is no buy event, however well signed: the sell adapter's parser reads it.
  if (isSellType(json)) throw new IgnoredWebhookError('a sell transaction event: not about a buy order');
  const event = parseSigned(json, MoonpayWebhookSchema, 'signed body is not a MoonPay buy transaction event');
  return { ...webhookReport(() => fromTransaction(event.data, dictionary)), eventId: eventDigest(webhook.rawBody) };
}
