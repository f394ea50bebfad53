import { ALCHEMYPAY_SIMULATOR_CREDENTIALS } from '../../../src/providers/alchemypay/config';
import { webhookNewSignature } from '../../../src/simulators/alchemypay/signing';
import type { RealProviderTestKit, WebhookSigning } from './kit';

const WEBHOOK_PATH = '/api/webhooks/alchemypay';

/** A body signed as Alchemy Pay signs it: `newSignature` inside the body, the timestamp in a header. */
function signed(appSecret: string, fields: Record<string, unknown>, timestamp = String(Date.now())) {
  const body = JSON.stringify({ ...fields, newSignature: webhookNewSignature(appSecret, timestamp, WEBHOOK_PATH, fields) });
  return { headers: { timestamp }, body };
}

/**
 * The signature is inside the body: a JSON object is sent signed again (its `newSignature`
 * replaced); a raw body that is no JSON object, or too deep to write out again, cannot be signed
 * and is sent as it is.
 */
function resigned(appSecret: string, raw: string): WebhookSigning {
  const timestamp = String(Date.now());
  try {
    const json: unknown = JSON.parse(raw);
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return { headers: { timestamp }, query: '' };
    const { newSignature: _, ...fields } = json as Record<string, unknown>;
    return { ...signed(appSecret, fields, timestamp), query: '' };
  } catch {
    return { headers: { timestamp }, query: '' };
  }
}

export const alchemypayTestKit: RealProviderTestKit<'alchemypay'> = {
  secrets: ['appSecret'],
  publishedSigningCredentials: { appSecret: ALCHEMYPAY_SIMULATOR_CREDENTIALS.appSecret },
  signWebhook: (body) => resigned(ALCHEMYPAY_SIMULATOR_CREDENTIALS.appSecret, body),
  pollableAfterFirstWebhook: false,
  purchase: { market: 'GB', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const { headers, body } = signed('guessed-app-secret', {
      appId: ALCHEMYPAY_SIMULATOR_CREDENTIALS.appId,
      orderNo: '1000000000000000001',
      merchantOrderNo: orderId,
      status: 'FINISHED',
      crypto: 'USDT',
      network: 'TRX',
    });
    return { query: '', headers, body };
  },
};
