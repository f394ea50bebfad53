import type { CurrencyDictionary } from '../../domain/currency';
import { eventDigest, parseSigned, webhookReport } from '../kit/webhook';
import type { SellWebhookEvent } from '../sell-types';
import { WebhookVerificationError, type IncomingWebhook } from '../types';
import { TransakSellWebhookClaimsSchema } from './sell-schemas';
import { fromSellOrder } from './sell-transformers';
import { marksSell, unverifiedClaims, verifyTransakWebhook, type AccessTokenSource } from './webhook';

/**
 * Whether a webhook at Transak's one webhook URL says it is about a sell order (`isBuyOrSell: "SELL"`
 * in the order its JWT carries), read by decoding the JWT without verifying it: it only routes the
 * webhook to parseTransakSellWebhook, which verifies it. A body that is no JWT is not a sell event
 * (the buy parser refuses it).
 */
export function isTransakSellWebhook(webhook: IncomingWebhook): boolean {
  return marksSell(unverifiedClaims(webhook.rawBody));
}

/**
 * Verifies the JWT exactly as for a buy webhook (the partner access token, HS256), then parses a
 * sell order's event. A verified event that is not a sell order's (a buy order's, however well
 * signed), or that reports a status Transak does not document for sells, is refused
 * (WebhookVerificationError).
 */
export async function parseTransakSellWebhook(
  webhook: IncomingWebhook,
  accessTokens: AccessTokenSource,
  dictionary: CurrencyDictionary,
  now: Date = new Date(),
): Promise<SellWebhookEvent> {
  const payload = await verifyTransakWebhook(webhook, accessTokens, now);
  if (!marksSell(payload)) throw new WebhookVerificationError('signed payload is not a SELL order event');
  const claims = parseSigned(payload, TransakSellWebhookClaimsSchema, 'signed payload is not a Transak sell order event');
  const order = claims.webhookData;
  const snapshot = webhookReport(() => fromSellOrder(order, dictionary));
  // No event id is documented; the same event delivered again digests the same (and never as a buy event's).
  const eventId = eventDigest(JSON.stringify(['SELL', snapshot.providerOrderId, claims.eventID, order.status, order.updatedAt ?? '']));
  return { ...snapshot, eventId };
}
