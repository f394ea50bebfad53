import type { CurrencyDictionary } from '../../domain/currency';
import { eventDigest, parseJson, parseSigned, webhookReport } from '../kit/webhook';
import type { SellWebhookEvent } from '../sell-types';
import type { IncomingWebhook } from '../types';
import { MOONPAY_SELL_WEBHOOK_PREFIX, MoonpaySellWebhookSchema } from './sell-schemas';
import { fromSellTransaction } from './sell-transformers';
import { verifyMoonpaySignature } from './webhook';

/** Whether a body's `type` names a sell transaction event; anything unreadable is not. */
export function marksMoonpaySell(json: unknown): boolean {
  if (typeof json !== 'object' || json === null) return false;
  const type = (json as { type?: unknown }).type;
  return typeof type === 'string' && type.startsWith(MOONPAY_SELL_WEBHOOK_PREFIX);
}

/**
 * Whether a webhook at MoonPay's one webhook URL says it is a sell event (`type` starting with
 * `sell_transaction_`), read from the unverified body: it only routes the webhook to
 * parseMoonpaySellWebhook, which verifies it.
 */
export function isMoonpaySellWebhook(webhook: IncomingWebhook): boolean {
  try {
    return marksMoonpaySell(JSON.parse(webhook.rawBody.toString('utf8')));
  } catch {
    return false;
  }
}

/**
 * Verifies `Moonpay-Signature-V2` exactly as for a buy webhook, then reads a sell transaction event;
 * a verified event of another type (a buy's, however well signed) or an undocumented status is
 * refused (WebhookVerificationError).
 */
export function parseMoonpaySellWebhook(
  webhook: IncomingWebhook,
  webhookKey: string,
  dictionary: CurrencyDictionary,
  nowSeconds = Math.floor(Date.now() / 1000),
): SellWebhookEvent {
  verifyMoonpaySignature(webhook, webhookKey, nowSeconds);
  const event = parseSigned(parseJson(webhook.rawBody), MoonpaySellWebhookSchema, 'signed body is not a MoonPay sell transaction event');
  const snapshot = webhookReport(() => fromSellTransaction(event.data, dictionary));
  // MoonPay's events carry no id; the body's digest stands in, prefixed so that it is never a buy event's.
  return { ...snapshot, eventId: eventDigest(Buffer.concat([Buffer.from('sell:'), webhook.rawBody])) };
}
