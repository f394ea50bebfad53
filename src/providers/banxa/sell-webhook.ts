import { eventDigest } from '../kit/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../types';

/**
 * Whether a webhook at Banxa's one webhook URL says it is about a sell order (`order_type: "SELL"`
 * in its body), read before anything is verified: it only routes the webhook to the sell parser,
 * which verifies it as the buy parser does. A body that is not JSON is not a sell event.
 */
export function isBanxaSellWebhook(webhook: IncomingWebhook): boolean {
  try {
    const body: unknown = JSON.parse(webhook.rawBody.toString('utf8'));
    return typeof body === 'object' && body !== null && (body as Record<string, unknown>).order_type === 'SELL';
  } catch {
    return false;
  }
}

/** A sell event's id: the digest of its raw body, never the same as a buy event's (Banxa's webhooks carry no id). */
export function banxaSellEventId(rawBody: Buffer): string {
  return `banxa_sell_${eventDigest(rawBody).slice(0, 32)}`;
}

/** A verified body that says it is no sell's is refused as a forgery would be. */
export function requireSellBody(orderType: string | null | undefined): void {
  if (orderType !== 'SELL') throw new WebhookVerificationError('signed body is not a SELL order event');
}
