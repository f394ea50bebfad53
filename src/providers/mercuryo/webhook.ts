import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import { MercuryoCallbackSchema } from './schemas';
import { fromCallback } from './transformers';

export const MERCURYO_SIGNATURE_HEADER = 'x-signature';

const hmac = (key: string, body: Buffer | string) => createHmac('sha256', key).update(body).digest();

/**
 * Verifies `X-Signature: <hex HMAC-SHA256(sign key, body)>` and parses the callback.
 *
 * Mercuryo's scheme signs the body only: there is no timestamp, so a replayed callback verifies;
 * replays are harmless because the broker de-duplicates events and never moves an order back.
 * Mercuryo's pages disagree on the signed text (the raw body, or the raw body with all whitespace
 * removed), so both are accepted. The second lets whitespace be added inside string values without
 * breaking the signature: such a change can only make a value unrecognisable (an unknown status or
 * order id), never turn it into another valid one.
 */
export function parseMercuryoWebhook(webhook: IncomingWebhook, signKey: string): ProviderWebhookEvent {
  const header = webhook.headers[MERCURYO_SIGNATURE_HEADER];
  if (typeof header !== 'string' || !/^[0-9a-fA-F]{64}$/.test(header.trim())) {
    throw new WebhookVerificationError(`missing or malformed ${MERCURYO_SIGNATURE_HEADER} header`);
  }
  const signature = Buffer.from(header.trim(), 'hex');
  const raw = webhook.rawBody.toString('utf8');
  const verifies =
    timingSafeEqual(hmac(signKey, webhook.rawBody), signature) || timingSafeEqual(hmac(signKey, raw.replace(/\s/g, '')), signature);
  if (!verifies) throw new WebhookVerificationError('signature does not match');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new WebhookVerificationError('signed body is not JSON');
  }
  const callback = MercuryoCallbackSchema.safeParse(json);
  if (!callback.success) throw new WebhookVerificationError('signed body is not a Mercuryo transaction callback');
  const data = 'data' in callback.data ? callback.data.data : callback.data.payload.data;
  // The operation id is shared by every status of that operation, so the status is part of the event id.
  return { ...fromCallback(data), eventId: `${data.id}:${data.status}` };
}
