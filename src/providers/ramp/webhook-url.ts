import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from '../types';

/** Query parameter of webhookStatusUrl that carries the broker's order id. */
export const RAMP_ORDER_ID_PARAM = 'order_id';
/** Query parameter carrying the broker's MAC of that order id. */
export const RAMP_ORDER_MAC_PARAM = 'order_mac';

/**
 * The query of an order's webhookStatusUrl. Ramp signs the body but not the URL, so the order id in
 * it carries the broker's own HMAC: a genuine webhook of one purchase cannot be posted to another
 * order's URL, because nobody outside the broker can make that order's MAC.
 */
export function rampWebhookQuery(secret: string, orderId: string, side: RampWebhookSide = 'purchase'): Record<string, string> {
  return { [RAMP_ORDER_ID_PARAM]: orderId, [RAMP_ORDER_MAC_PARAM]: orderMac(secret, orderId, side) };
}

/**
 * Which URL the MAC is for: webhookStatusUrl (purchases) or offrampWebhookV3Url (sales). Each has a
 * MAC of its own, so that a sell order's URL takes no purchase webhook and a buy order's no sale's.
 */
export type RampWebhookSide = 'purchase' | 'sale';

const MAC_LABELS: Readonly<Record<RampWebhookSide, string>> = { purchase: 'ramp-order', sale: 'ramp-sale-order' };

const orderMac = (secret: string, orderId: string, side: RampWebhookSide) =>
  createHmac('sha256', secret).update(`${MAC_LABELS[side]}:${orderId}`).digest('hex');

export function checkOrderMac(secret: string, orderId: string, mac: string | undefined, side: RampWebhookSide = 'purchase'): void {
  const expected = Buffer.from(orderMac(secret, orderId, side), 'hex');
  const given = Buffer.from(mac !== undefined && /^[0-9a-f]{64}$/.test(mac) ? mac : '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookVerificationError(`webhook URL's ${RAMP_ORDER_ID_PARAM} is not one this broker issued`);
  }
}
