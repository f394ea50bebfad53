import { COINBASE_SIMULATOR_CREDENTIALS } from '../../../src/providers/coinbase/config';
import { hook0Signature } from '../../../src/simulators/coinbase/signing';
import { nowSeconds, type RealProviderTestKit } from './kit';

/** The webhook id header its signature binds (a fixed one: the fuzz cases set their own content type). */
const HOOK_ID = { 'x-hook0-id': '00000000-0000-4000-8000-0000000000c0' };

export const coinbaseTestKit: RealProviderTestKit<'coinbase'> = {
  secrets: ['apiKeySecret', 'webhookSecret'],
  publishedSigningCredentials: { webhookSecret: COINBASE_SIMULATOR_CREDENTIALS.webhookSecret },
  signWebhook: (body) => ({
    headers: {
      'x-hook0-signature': hook0Signature(COINBASE_SIMULATOR_CREDENTIALS.webhookSecret, body, nowSeconds(), HOOK_ID, ['x-hook0-id']),
      ...HOOK_ID,
    },
    query: '',
  }),
  pollableAfterFirstWebhook: false,
  purchase: { market: 'US-CA', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const body = JSON.stringify({
      eventType: 'onramp.transaction.success',
      transactionId: 'forged',
      partnerUserRef: orderId,
      status: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
    });
    return {
      query: '',
      headers: { 'x-hook0-signature': hook0Signature('whsec_forger', body, nowSeconds(), HOOK_ID, ['x-hook0-id']), ...HOOK_ID },
      body,
    };
  },
};
