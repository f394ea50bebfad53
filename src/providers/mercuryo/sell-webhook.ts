import { webhookReport } from '../kit/webhook';
import type { SellWebhookEvent } from '../sell-types';
import type { IncomingWebhook } from '../types';
import type { MercuryoCallbackData } from './schemas';
import { isMercuryoSellType } from './sell-schemas';
import { verifiedMercuryoCallback } from './webhook';

/** The callback's `type` (in `data`, or in the older `payload.data`); undefined when the body says none. */
export function callbackType(json: unknown): unknown {
  if (typeof json !== 'object' || json === null) return undefined;
  const envelope = json as { data?: unknown; payload?: { data?: unknown } };
  const data = envelope.data ?? (typeof envelope.payload === 'object' && envelope.payload !== null ? envelope.payload.data : undefined);
  return typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
}

/**
 * Whether a callback at the widget's one Callback URL is a sell's (`type` `sell` or `deposit`), read
 * from the unverified body: it only routes the callback to parseMercuryoSellWebhook, which verifies it.
 */
export function isMercuryoSellWebhook(webhook: IncomingWebhook): boolean {
  try {
    return isMercuryoSellType(callbackType(JSON.parse(webhook.rawBody.toString('utf8'))));
  } catch {
    return false;
  }
}

/**
 * Verifies `X-Signature` exactly as for buy callbacks, then reads a `sell` or `deposit` callback; a
 * verified callback of another type (a buy's, however well signed) or an undocumented status is
 * refused (WebhookVerificationError), wherever `read` finds it. `read` turns the verified data
 * into the snapshot (the adapter refines a `sell:failed` from the lookup there).
 */
export async function parseMercuryoSellWebhook(
  webhook: IncomingWebhook,
  signKey: string,
  read: (data: MercuryoCallbackData) => Promise<Omit<SellWebhookEvent, 'eventId'>>,
): Promise<SellWebhookEvent> {
  const data = verifiedMercuryoCallback(webhook, signKey, isMercuryoSellType, 'signed body is not a Mercuryo sell or deposit callback');
  // A status Mercuryo does not document refuses the callback as the buy parser does (webhookReport).
  const snapshot = await Promise.resolve()
    .then(() => read(data))
    .catch((err: unknown) =>
      webhookReport(() => {
        throw err;
      }),
    );
  // One operation has one id through its statuses; the update time tells two reports of one status apart.
  return { ...snapshot, eventId: [data.type, data.id, data.status, data.updated_at_ts ?? data.updated_at ?? ''].join(':') };
}
