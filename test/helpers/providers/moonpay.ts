import { EUR_SELL_MARKET } from '../sell-orders';
import { MOONPAY_SIMULATOR_CREDENTIALS } from '../../../src/providers/moonpay/config';
import { moonpayWebhookSignature } from '../../../src/simulators/moonpay/signing';
import { nowSeconds, type RealProviderTestKit } from './kit';

export const moonpayTestKit: RealProviderTestKit<'moonpay'> = {
  secrets: ['secretKey', 'webhookKey'],
  publishedSigningCredentials: { webhookKey: MOONPAY_SIMULATOR_CREDENTIALS.webhookKey },
  signWebhook: (body) => ({
    headers: { 'moonpay-signature-v2': moonpayWebhookSignature(MOONPAY_SIMULATOR_CREDENTIALS.webhookKey, body, nowSeconds()) },
    query: '',
  }),
  pollableAfterFirstWebhook: false,
  sale: EUR_SELL_MARKET,
  // MoonPay documents no sell refund status or reason (docs/providers/moonpay.md).
  saleEndings: ['complete', 'failed', 'expired'],
  purchase: { market: 'US-CA', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const body = JSON.stringify({
      type: 'transaction_updated',
      data: { id: 'forged', externalTransactionId: orderId, status: 'completed' },
    });
    return { query: '', headers: { 'moonpay-signature-v2': moonpayWebhookSignature('wk_test_forger', body, nowSeconds()) }, body };
  },
};
