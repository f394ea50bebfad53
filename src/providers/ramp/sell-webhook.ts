import type { KeyObject } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import type { CurrencyDictionary } from '../../domain/currency';
import { eventDigest, parseSigned, webhookReport } from '../kit/webhook';
import type { SellWebhookEvent } from '../sell-types';
import { WebhookVerificationError, type IncomingWebhook } from '../types';
import { marksRampSale, RampSaleWebhookSchema } from './sell-schemas';
import { fromSale, saleClaimKey } from './sell-transformers';
import { RAMP_SIGNATURE_HEADER, verifyRampBody } from './webhook';
import { checkOrderMac, RAMP_ORDER_ID_PARAM, RAMP_ORDER_MAC_PARAM } from './webhook-url';

/**
 * Whether a webhook at Ramp's one webhook URL says it is a sale event, read from the unverified body:
 * it only routes the webhook to parseRampSaleWebhook, which verifies it.
 */
export function isRampSellWebhook(webhook: IncomingWebhook): boolean {
  try {
    return marksRampSale(JSON.parse(webhook.rawBody.toString('utf8')));
  } catch {
    return false;
  }
}

/**
 * Verifies an offrampWebhookV3Url call as a purchase webhook is verified (`X-Body-Signature`, the same
 * keys: Ramp states one scheme for all its webhooks), then its URL's order id against the sale MAC,
 * then reads the sale. A verified purchase event, or a sale status Ramp does not document, is refused.
 * The sale is claimed by its id: one sale never moves two orders, so a sale's genuine webhook posted
 * to another sell order's URL (whose MAC its customer saw in the widget URL) is refused there.
 */
export function parseRampSaleWebhook(
  webhook: IncomingWebhook,
  publicKey: KeyObject | string,
  urlSecret: string,
  dictionary: CurrencyDictionary,
): SellWebhookEvent {
  const header = webhook.headers[RAMP_SIGNATURE_HEADER];
  const json = verifyRampBody(webhook.rawBody, Array.isArray(header) ? header[0] : header, publicKey);
  const event = parseSigned(json, RampSaleWebhookSchema, 'signed body is not a Ramp sale event');
  const orderId = webhook.query[RAMP_ORDER_ID_PARAM];
  if (!orderId) throw new WebhookVerificationError(`webhook URL has no ${RAMP_ORDER_ID_PARAM} parameter`);
  checkOrderMac(urlSecret, orderId, webhook.query[RAMP_ORDER_MAC_PARAM], 'sale');
  const snapshot = webhookReport(() => fromSale(orderId, event.payload, dictionary, undefined, event.type));
  // The envelope's id where it has one (with the type: one id per status change is not documented); else the signed content's digest.
  const eventId = event.id === undefined ? eventDigest(`sale:${stableStringify(json)}`) : eventDigest(`sale:${event.id}:${event.type}`);
  return { ...snapshot, eventId, claimKey: saleClaimKey(event.payload.id) };
}
