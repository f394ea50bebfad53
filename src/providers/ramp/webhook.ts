import { verify, type KeyObject } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import type { CurrencyDictionary } from '../../domain/currency';
import { eventDigest, parseJson, parseSigned, webhookReport } from '../kit/webhook';
import { IgnoredWebhookError, WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import { marksRampSale } from './sell-schemas';
import { RampWebhookSchema } from './schemas';
import { fromPurchase } from './transformers';
import { checkOrderMac, RAMP_ORDER_ID_PARAM, RAMP_ORDER_MAC_PARAM } from './webhook-url';

export const RAMP_SIGNATURE_HEADER = 'x-body-signature';
/**
 * Ramp signs the body's key-sorted compact JSON (fast-json-stable-stringify) with ECDSA on secp256k1
 * over SHA-256 and sends the DER signature in base64. The scheme has no timestamp, so a genuine
 * webhook can be replayed; duplicates are harmless to the broker (same event id, forward-only statuses).
 */
export function verifyRampBody(rawBody: Buffer, signature: string | undefined, publicKey: KeyObject | string): unknown {
  if (signature === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) {
    throw new WebhookVerificationError(`missing or malformed ${RAMP_SIGNATURE_HEADER} header`);
  }
  const json = parseJson(rawBody, 'body is not JSON');
  let valid = false;
  try {
    valid = verify('sha256', Buffer.from(stableStringify(json)), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) throw new WebhookVerificationError('signature does not match');
  return json;
}

/** Verifies and parses a webhookStatusUrl call; the order id comes from the URL's query, checked against its MAC. */
export function parseRampWebhook(
  webhook: IncomingWebhook,
  publicKey: KeyObject | string,
  urlSecret: string,
  dictionary: CurrencyDictionary,
): ProviderWebhookEvent {
  const header = webhook.headers[RAMP_SIGNATURE_HEADER];
  const json = verifyRampBody(webhook.rawBody, Array.isArray(header) ? header[0] : header, publicKey);
  // A genuine sale event is the sell parser's (the route sends it there); here it moves no buy order.
  if (marksRampSale(json)) throw new IgnoredWebhookError('a Ramp sale event is no purchase event');
  const event = parseSigned(json, RampWebhookSchema, 'signed body is not a Ramp purchase event');
  const orderId = webhook.query[RAMP_ORDER_ID_PARAM];
  if (!orderId) throw new WebhookVerificationError(`webhook URL has no ${RAMP_ORDER_ID_PARAM} parameter`);
  checkOrderMac(urlSecret, orderId, webhook.query[RAMP_ORDER_MAC_PARAM]);
  // Ramp's purchase events carry no event id: a digest of the signed content stands in for one.
  const eventId = eventDigest(stableStringify(json));
  // The purchase is claimed by its id alone: a body of it with or without the view token claims the same.
  return {
    ...webhookReport(() => fromPurchase(orderId, event.purchase, dictionary, undefined, event.type)),
    eventId,
    claimKey: event.purchase.id,
  };
}
