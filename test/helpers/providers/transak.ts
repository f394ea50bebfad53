import { currencyId } from '../currencies';
import { EUR_SELL_MARKET } from '../sell-orders';
import { TRANSAK_SIMULATOR_CREDENTIALS } from '../../../src/providers/transak/config';
import { signWebhookData } from '../../../src/simulators/transak/signing';
import { nowSeconds, type RealProviderTestKit } from './kit';

export const transakTestKit: RealProviderTestKit<'transak'> = {
  secrets: ['apiSecret'],
  /** The secret that gets the access token its webhooks are signed with. */
  publishedSigningCredentials: { apiSecret: TRANSAK_SIMULATOR_CREDENTIALS.apiSecret },
  // Transak signs with the partner's current access token, which only the simulator and the broker hold.
  signWebhook: () => ({ headers: {}, query: '' }),
  pollableAfterFirstWebhook: false,
  sale: { ...EUR_SELL_MARKET, fiat: currencyId('GBP'), country: 'GB', payoutMethod: 'bank_transfer' },
  purchase: { market: 'GB', paymentMethod: 'bank_transfer' },
  forgeWebhook: async (orderId) => {
    const claims = { eventID: 'ORDER_COMPLETED', webhookData: { id: 'forged', partnerOrderId: orderId, status: 'COMPLETED' } };
    return {
      query: '',
      headers: {},
      body: JSON.stringify({ data: await signWebhookData('not-the-access-token', claims, nowSeconds()) }),
    };
  },
};
