import { ONRAMP_MONEY_SIMULATOR_CREDENTIALS } from '../../../src/providers/onramp_money/config';
import { signPayload, webhookHeaders } from '../../../src/simulators/onramp_money/signing';
import type { RealProviderTestKit, WebhookSigning } from './kit';

/** The longest payload header signed: well inside Node's 16 KiB of request headers. */
const MAX_PAYLOAD_HEADER = 8 * 1024;

/**
 * The signed payload of a raw body, base64 of `{"timestamp", "body"}`: the body's own JSON text
 * embedded as it is (never parsed and written again, which a deeply nested body would not survive),
 * or the text as a JSON string when it is not JSON.
 */
function payloadOf(body: string): string {
  let json = true;
  try {
    JSON.parse(body);
  } catch {
    json = false;
  }
  const text = `{"timestamp":${Date.now()},"body":${json ? body : JSON.stringify(body)}}`;
  return Buffer.from(text, 'utf8').toString('base64');
}

export const onrampMoneyTestKit: RealProviderTestKit<'onramp_money'> = {
  secrets: ['apiKey', 'apiSecret'],
  publishedSigningCredentials: { apiSecret: ONRAMP_MONEY_SIMULATOR_CREDENTIALS.apiSecret },
  // Onramp.money signs the payload header, not the body: the header carries the body's data. A body
  // too large for an HTTP header (Node refuses headers past 16 KiB) cannot be signed: no headers.
  signWebhook: (body): WebhookSigning => {
    const payload = payloadOf(body);
    if (payload.length > MAX_PAYLOAD_HEADER) return { headers: {}, query: '' };
    // The signature first: the fuzz mangles a kit's first header.
    const signature = signPayload(ONRAMP_MONEY_SIMULATOR_CREDENTIALS.apiSecret, payload);
    return { headers: { 'x-onramp-signature': signature, 'x-onramp-payload': payload }, query: '' };
  },
  // merchantHistory names the broker's order from the first status on: no webhook needed first.
  pollableAfterFirstWebhook: false,
  purchase: { market: 'DE', paymentMethod: 'sepa' },
  // Bank rails only (UPI, bank transfers, PIX, SEPA): no card in any market.
  cardMarkets: [],
  forgeWebhook: (orderId) => {
    const data = { orderId: 1, merchantRecognitionId: orderId, status: 15, walletAddress: 'bc1qforged', coinId: 0, chainId: 10002 };
    return { query: '', headers: webhookHeaders('guessed-api-secret', data), body: JSON.stringify(data) };
  },
};
