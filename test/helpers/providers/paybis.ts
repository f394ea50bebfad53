import { constants, createHash, generateKeyPairSync, sign } from 'node:crypto';
import { paybisSimulatorKeys, PAYBIS_SIMULATOR_CREDENTIALS } from '../../../src/providers/paybis/config';
import { paybisSignature } from '../../../src/simulators/paybis/signing';
import type { RealProviderTestKit } from './kit';

const signingKey = paybisSimulatorKeys(undefined).webhookSigningKey;

export const paybisTestKit: RealProviderTestKit<'paybis'> = {
  secrets: ['apiKey', 'privateKey', 'webhookPublicKey'],
  publishedSigningCredentials: { webhookPublicKey: PAYBIS_SIMULATOR_CREDENTIALS.webhookPublicKey },
  signWebhook: (body) => ({ headers: { 'x-request-signature': paybisSignature(body, signingKey) }, query: '' }),
  // The request id comes back from creation: the order can be polled at once.
  pollableAfterFirstWebhook: false,
  purchase: { market: 'GB', paymentMethod: 'card' },
  forgeWebhook: (orderId) => {
    const body = JSON.stringify({
      event: 'TRANSACTION_STATUS_CHANGED',
      data: {
        requestId: 'forged',
        partnerTransactionId: orderId,
        transaction: { invoice: 'PB000000000000TX1', status: 'completed', flow: 'buyCrypto' },
      },
    });
    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const digest = Buffer.from(createHash('sha512').update(body).digest('hex'));
    const signature = sign('sha512', digest, { key: forger.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 });
    return { query: '', headers: { 'x-request-signature': signature.toString('base64') }, body };
  },
};
