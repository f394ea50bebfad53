import { currencyId } from '../currencies';
import { MERCURYO_SIMULATOR_CREDENTIALS } from '../../../src/providers/mercuryo/config';
import { signCallback } from '../../../src/simulators/mercuryo/signing';
import type { RealProviderTestKit } from './kit';

export const mercuryoTestKit: RealProviderTestKit<'mercuryo'> = {
  secrets: ['secret', 'sdkPartnerToken', 'signKey'],
  publishedSigningCredentials: { signKey: MERCURYO_SIMULATOR_CREDENTIALS.signKey },
  signWebhook: (body) => ({ headers: { 'x-signature': signCallback(MERCURYO_SIMULATOR_CREDENTIALS.signKey, body) }, query: '' }),
  pollableAfterFirstWebhook: false,
  sale: {
    crypto: currencyId('BTC', 'bitcoin'),
    fiat: currencyId('EUR'),
    amount: '0.01',
    country: 'DE',
    payoutMethod: 'card',
    refundAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
    ip: '127.0.0.1',
  },
  purchase: { market: 'GB', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const body = JSON.stringify({ data: { id: 'forged', merchant_transaction_id: orderId, type: 'withdraw', status: 'completed' } });
    return { query: '', headers: { 'x-signature': signCallback('guessed-sign-key', body) }, body };
  },
};
