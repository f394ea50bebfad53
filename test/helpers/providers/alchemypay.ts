import { ALCHEMYPAY_SIMULATOR_CREDENTIALS } from '../../../src/providers/alchemypay/config';
import { webhookNewSignature } from '../../../src/simulators/alchemypay/signing';
import type { RealProviderTestKit } from './kit';

const WEBHOOK_PATH = '/api/webhooks/alchemypay';

/** A body signed as Alchemy Pay signs it: `newSignature` inside the body, the timestamp in a header. */
function signed(appSecret: string, fields: Record<string, unknown>) {
  const timestamp = String(Date.now());
  return { timestamp, body: JSON.stringify({ ...fields, newSignature: webhookNewSignature(appSecret, timestamp, WEBHOOK_PATH, fields) }) };
}

export const alchemypayTestKit: RealProviderTestKit<'alchemypay'> = {
  secrets: ['appSecret'],
  publishedSigningCredentials: { appSecret: ALCHEMYPAY_SIMULATOR_CREDENTIALS.appSecret },
  // The signature is inside the body: a raw body that is not the provider's JSON object cannot be signed, and is sent as it is.
  signWebhook: () => ({ headers: { timestamp: String(Date.now()) }, query: '' }),
  pollableAfterFirstWebhook: false,
  purchase: { market: 'GB', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const { timestamp, body } = signed('guessed-app-secret', {
      appId: ALCHEMYPAY_SIMULATOR_CREDENTIALS.appId,
      orderNo: '1000000000000000001',
      merchantOrderNo: orderId,
      status: 'FINISHED',
      crypto: 'USDT',
      network: 'TRX',
    });
    return { query: '', headers: { timestamp }, body };
  },
};
