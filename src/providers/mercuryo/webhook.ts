import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseSignedJson, webhookReport } from '../kit/webhook';
import { IgnoredWebhookError, WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import type { MercuryoCurrencyIds } from './reported';
import { MercuryoCallbackSchema, type MercuryoCallbackData } from './schemas';
import { isMercuryoSellType } from './sell-schemas';
import { fromCallback } from './transformers';

export const MERCURYO_SIGNATURE_HEADER = 'x-signature';

/**
 * What Mercuryo signs: the raw body with all whitespace removed (widget.docs.mercuryo.io,
 * "Callback Signature Verification"). Whitespace is outside the signature, so the callback is read
 * from this text too: whitespace added anywhere in a body changes nothing the adapter reads.
 */
const signedText = (rawBody: Buffer) => rawBody.toString('utf8').replace(/\s/g, '');

/**
 * Verifies `X-Signature: <hex HMAC-SHA256(sign key, body without whitespace)>` and reads the
 * callback's transaction data; refused (WebhookVerificationError) when the signature does not match,
 * the body is not a callback, or `accepts` refuses its type.
 */
export function verifiedMercuryoCallback(
  webhook: IncomingWebhook,
  signKey: string,
  accepts: (type: string) => boolean,
  refusal: string,
): MercuryoCallbackData {
  const header = webhook.headers[MERCURYO_SIGNATURE_HEADER];
  if (typeof header !== 'string' || !/^[0-9a-fA-F]{64}$/.test(header.trim())) {
    throw new WebhookVerificationError(`missing or malformed ${MERCURYO_SIGNATURE_HEADER} header`);
  }
  const text = signedText(webhook.rawBody);
  const expected = createHmac('sha256', signKey).update(text).digest();
  if (!timingSafeEqual(expected, Buffer.from(header.trim(), 'hex'))) throw new WebhookVerificationError('signature does not match');
  const callback = parseSignedJson(text, MercuryoCallbackSchema, 'signed body is not a Mercuryo transaction callback');
  const data = 'data' in callback ? callback.data : callback.payload.data;
  if (!accepts(data.type)) throw new WebhookVerificationError(refusal);
  return data;
}

/**
 * Verifies and parses a buy callback.
 *
 * The scheme signs the body only: there is no timestamp, so a replayed callback verifies. The event
 * id is built from the event's own fields, so a replay, whitespace added or not, is the same event,
 * which the broker de-duplicates, and a late event never moves an order back. A callback in a type or
 * status Mercuryo does not document is refused: it is never turned into a broker status. A verified
 * `sell` or `deposit` callback is a sell order's, not about a buy order: IgnoredWebhookError (the
 * sell adapter's parser reads it, where isSellWebhook routes it).
 */
export function parseMercuryoWebhook(webhook: IncomingWebhook, signKey: string, ids: MercuryoCurrencyIds): ProviderWebhookEvent {
  const data = verifiedMercuryoCallback(webhook, signKey, () => true, 'signed body is not a Mercuryo transaction callback');
  if (isMercuryoSellType(data.type))
    throw new IgnoredWebhookError(`a ${data.type} callback: not about a buy order`, data.merchant_transaction_id ?? undefined);
  const snapshot = webhookReport(() => fromCallback(data, ids));
  // One operation has one id through all its statuses; its update time tells two reports of one status apart.
  return { ...snapshot, eventId: [data.type, data.id, data.status, data.updated_at_ts ?? data.updated_at ?? ''].join(':') };
}
