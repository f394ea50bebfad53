import type { CurrencyDictionary } from '../../domain/currency';
import { parseSigned, webhookReport } from '../kit/webhook';
import { parseStrictJson } from '../kit/strict-json';
import type { SellWebhookEvent } from '../sell-types';
import { WebhookVerificationError, type IncomingWebhook } from '../types';
import { SandboxSellWebhookSchema } from './sell-schemas';
import { fromSellOrder } from './sell-transformers';
import { marksSell, verifySandboxSignature } from './webhook';

/**
 * Whether a webhook at the sandbox's one webhook URL says it is about a sell order (`"side": "sell"`
 * in its body), read before anything is verified: it only routes the webhook to
 * parseSandboxSellWebhook, which verifies it. A body that is not JSON is not a sell event (the buy
 * parser refuses it).
 */
export function isSandboxSellWebhook(webhook: IncomingWebhook): boolean {
  try {
    return marksSell(JSON.parse(webhook.rawBody.toString('utf8')));
  } catch {
    return false;
  }
}

/**
 * Verifies the signature exactly as for a buy webhook, then parses a sell order's event: a body
 * that names a key twice, is not a sell event (a buy order's, however well signed), or reports a
 * status the sandbox does not document is refused (WebhookVerificationError).
 */
export function parseSandboxSellWebhook(
  webhook: IncomingWebhook,
  secret: string,
  dictionary: CurrencyDictionary,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): SellWebhookEvent {
  verifySandboxSignature(webhook, secret, nowSeconds);
  const json = parseStrictJson(webhook.rawBody);
  if (!marksSell(json)) throw new WebhookVerificationError('signed body is not a sell order event');
  const event = parseSigned(json, SandboxSellWebhookSchema, 'signed body is not a sandbox sell order event');
  return { ...webhookReport(() => fromSellOrder(event.order, dictionary)), eventId: event.event_id };
}
