import { MERCURYO_SIMULATOR_CREDENTIALS } from '../../../src/providers/mercuryo/config';
import { signCallback } from '../../../src/simulators/mercuryo/signing';
import type { RealProviderTestKit } from './kit';

export const mercuryoTestKit: RealProviderTestKit<'mercuryo'> = {
  secrets: ['secret', 'sdkPartnerToken', 'signKey'],
  publishedSigningCredentials: { signKey: MERCURYO_SIMULATOR_CREDENTIALS.signKey },
  signWebhook: (body) => ({ headers: { 'x-signature': signCallback(MERCURYO_SIMULATOR_CREDENTIALS.signKey, body) }, query: '' }),
  pollableAfterFirstWebhook: false,
  purchase: { market: 'GB', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const body = JSON.stringify({ data: { id: 'forged', merchant_transaction_id: orderId, type: 'withdraw', status: 'completed' } });
    return { query: '', headers: { 'x-signature': signCallback('guessed-sign-key', body) }, body };
  },
};
