import { EUR_SELL_MARKET } from '../sell-orders';
import { BANXA_SIMULATOR_CREDENTIALS } from '../../../src/providers/banxa/config';
import { banxaAuthorization } from '../../../src/simulators/banxa/signing';
import type { RealProviderTestKit } from './kit';

const WEBHOOK_PATH = '/api/webhooks/banxa';

export const banxaTestKit: RealProviderTestKit<'banxa'> = {
  secrets: ['apiKey', 'apiSecret'],
  publishedSigningCredentials: { apiSecret: BANXA_SIMULATOR_CREDENTIALS.apiSecret },
  signWebhook: (body) => ({
    headers: { authorization: banxaAuthorization(BANXA_SIMULATOR_CREDENTIALS, { method: 'POST', path: WEBHOOK_PATH, body }, Date.now()) },
    query: '',
  }),
  pollableAfterFirstWebhook: false,
  sale: EUR_SELL_MARKET,
  readsOrderForWebhook: true,
  purchase: { market: 'DE', paymentMethod: 'sepa' },
  forgeWebhook: (orderId) => {
    const body = JSON.stringify({ order_id: 'forged', status: 'complete', status_date: new Date().toISOString(), external_id: orderId });
    const key = { apiKey: BANXA_SIMULATOR_CREDENTIALS.apiKey, apiSecret: 'guessed-api-secret' };
    return {
      query: '',
      headers: { authorization: banxaAuthorization(key, { method: 'POST', path: WEBHOOK_PATH, body }, Date.now()) },
      body,
    };
  },
};
