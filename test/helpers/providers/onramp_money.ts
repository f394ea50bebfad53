import { ONRAMP_MONEY_SIMULATOR_CREDENTIALS } from '../../../src/providers/onramp_money/config';
import { webhookHeaders } from '../../../src/simulators/onramp_money/signing';
import type { RealProviderTestKit } from './kit';

/** The webhook data of a raw body: its JSON when it is JSON (the signed payload carries it), else the text itself. */
function dataOf(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

export const onrampMoneyTestKit: RealProviderTestKit<'onramp_money'> = {
  secrets: ['apiKey', 'apiSecret'],
  publishedSigningCredentials: { apiSecret: ONRAMP_MONEY_SIMULATOR_CREDENTIALS.apiSecret },
  // Onramp.money signs the payload header, not the body: the header carries the body's data.
  signWebhook: (body) => ({ headers: webhookHeaders(ONRAMP_MONEY_SIMULATOR_CREDENTIALS.apiSecret, dataOf(body)), query: '' }),
  // merchantHistory names the broker's order from the first status on: no webhook needed first.
  pollableAfterFirstWebhook: false,
  purchase: { market: 'DE', paymentMethod: 'sepa' },
  forgeWebhook: (orderId) => {
    const data = { orderId: 1, merchantRecognitionId: orderId, status: 15, walletAddress: 'bc1qforged', coinId: 0, chainId: 10002 };
    return { query: '', headers: webhookHeaders('guessed-api-secret', data), body: JSON.stringify(data) };
  },
};
