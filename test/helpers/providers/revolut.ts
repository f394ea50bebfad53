import { REVOLUT_SIMULATOR_CREDENTIALS } from '../../../src/providers/revolut/config';
import { revolutWebhookHeaders } from '../../../src/simulators/revolut/signing';
import type { RealProviderTestKit } from './kit';

export const revolutTestKit: RealProviderTestKit<'revolut'> = {
  secrets: ['apiKey', 'webhookSecret'],
  publishedSigningCredentials: { webhookSecret: REVOLUT_SIMULATOR_CREDENTIALS.webhookSecret },
  signWebhook: (body) => ({ headers: revolutWebhookHeaders(REVOLUT_SIMULATOR_CREDENTIALS.webhookSecret, body, Date.now()), query: '' }),
  // The order key (our id and the wallet) is known from creation on.
  pollableAfterFirstWebhook: false,
  readsOrderForWebhook: true,
  purchase: { market: 'GB', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const body = JSON.stringify({ order_id: orderId, wallet: 'bc1qforgedforgedforgedforgedforgedforged0', event: 'ORDER_COMPLETED' });
    return { query: '', headers: revolutWebhookHeaders('wsk_guessed_signing_secret', body, Date.now()), body };
  },
};
