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
  purchase: { market: 'US-CA', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const body = JSON.stringify({
      type: 'transaction_updated',
      data: { id: 'forged', externalTransactionId: orderId, status: 'completed' },
    });
    return { query: '', headers: { 'moonpay-signature-v2': moonpayWebhookSignature('wk_test_forger', body, nowSeconds()) }, body };
  },
};
