import { generateKeyPairSync, sign } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { BANXA_SIMULATOR_CREDENTIALS } from '../../src/providers/banxa';
import type { ProviderCode } from '../../src/providers/manifest';
import { banxaAuthorization } from '../../src/simulators/banxa/signing';
import { signCallback } from '../../src/simulators/mercuryo/signing';
import { moonpayWebhookSignature } from '../../src/simulators/moonpay/signing';
import { signWebhookData } from '../../src/simulators/transak/signing';

/** The providers with a real counterpart: every one in the manifest but the generic sandbox. */
export type RealProviderCode = Exclude<ProviderCode, 'sandbox'>;

export interface ForgedWebhook {
  /** Query string of the webhook URL, with its leading `?` (Ramp's carries the order id). */
  query: string;
  headers: Record<string, string>;
  body: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * A webhook in each provider's own format and signature scheme, announcing that the order is
 * complete, but signed with a key the broker does not trust: what a forger can send.
 */
const FORGERS: { [C in RealProviderCode]: (orderId: string) => ForgedWebhook | Promise<ForgedWebhook> } = {
  moonpay: (orderId) => {
    const body = JSON.stringify({
      type: 'transaction_updated',
      data: { id: 'forged', externalTransactionId: orderId, status: 'completed' },
    });
    return { query: '', headers: { 'moonpay-signature-v2': moonpayWebhookSignature('wk_test_forger', body, nowSeconds()) }, body };
  },
  transak: async (orderId) => {
    const claims = { eventID: 'ORDER_COMPLETED', webhookData: { id: 'forged', partnerOrderId: orderId, status: 'COMPLETED' } };
    return {
      query: '',
      headers: {},
      body: JSON.stringify({ data: await signWebhookData('not-the-access-token', claims, nowSeconds()) }),
    };
  },
  banxa: (orderId) => {
    const body = JSON.stringify({ order_id: 'forged', status: 'complete', status_date: new Date().toISOString(), external_id: orderId });
    const key = { apiKey: BANXA_SIMULATOR_CREDENTIALS.apiKey, apiSecret: 'guessed-api-secret' };
    return {
      query: '',
      headers: { authorization: banxaAuthorization(key, { method: 'POST', path: '/api/webhooks/banxa', body }, Date.now()) },
      body,
    };
  },
  mercuryo: (orderId) => {
    const body = JSON.stringify({ data: { id: 'forged', merchant_transaction_id: orderId, type: 'withdraw', status: 'completed' } });
    return { query: '', headers: { 'x-signature': signCallback('guessed-sign-key', body) }, body };
  },
  ramp: (orderId) => {
    const body = { type: 'RELEASED', purchase: { id: 'forged', status: 'RELEASED' } };
    const forger = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const signature = sign('sha256', Buffer.from(stableStringify(body)), forger.privateKey).toString('base64');
    return { query: `?order_id=${orderId}`, headers: { 'x-body-signature': signature }, body: JSON.stringify(body) };
  },
};

/** A forged webhook of this provider announcing that the order is complete. */
export async function forgedWebhook(code: RealProviderCode, orderId: string): Promise<ForgedWebhook> {
  return FORGERS[code](orderId);
}
