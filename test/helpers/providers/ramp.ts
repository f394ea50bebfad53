import { EUR_SELL_MARKET } from '../sell-orders';
import { generateKeyPairSync, sign } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { RAMP_SIMULATOR_CREDENTIALS, RAMP_SIMULATOR_WEBHOOK_URL_SECRET } from '../../../src/providers/ramp/config';
import { rampWebhookQuery } from '../../../src/providers/ramp/webhook-url';
import { rampSimulatorSigningKey, signRampBody } from '../../../src/simulators/ramp/signing';
import type { RealProviderTestKit, WebhookSigning } from './kit';

const signingKey = rampSimulatorSigningKey(undefined);

export const rampTestKit: RealProviderTestKit<'ramp'> = {
  secrets: ['webhookPublicKey', 'webhookUrlSecret'],
  publishedSigningCredentials: { webhookPublicKey: RAMP_SIMULATOR_CREDENTIALS.webhookPublicKey },
  // Ramp signs the body's JSON, so a body that is not JSON keeps no signature; the order id is in the URL's query.
  signWebhook: (body, orderId): WebhookSigning => {
    const query = `?${new URLSearchParams(rampWebhookQuery(RAMP_SIMULATOR_WEBHOOK_URL_SECRET, orderId)).toString()}`;
    try {
      return { headers: { 'x-body-signature': signRampBody(JSON.parse(body), signingKey) }, query };
    } catch {
      return { headers: {}, query };
    }
  },
  // Ramp creates the purchase in its widget and echoes no reference: its first webhook names it.
  pollableAfterFirstWebhook: true,
  sale: EUR_SELL_MARKET,
  // Ramp documents no failed or refunded sale (docs/providers/ramp.md): its checkout plays neither.
  saleEndings: ['complete', 'expired'],
  purchase: { market: 'US-TX', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const body = { type: 'RELEASED', purchase: { id: 'forged', status: 'RELEASED' } };
    const forger = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const signature = sign('sha256', Buffer.from(stableStringify(body)), forger.privateKey).toString('base64');
    return { query: `?order_id=${orderId}`, headers: { 'x-body-signature': signature }, body: JSON.stringify(body) };
  },
};
