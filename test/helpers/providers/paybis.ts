import { constants, createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { paybisSimulatorKeys, PAYBIS_SIMULATOR_CREDENTIALS } from '../../../src/providers/paybis/config';
import { paybisSignature } from '../../../src/simulators/paybis/signing';
import type { RealProviderTestKit } from './kit';

const signingKey = paybisSimulatorKeys(undefined).webhookSigningKey;

/** A key the broker does not trust, made on first use and kept: RSA generation takes most of a second, and the fuzz forges hundreds. */
let forgerKey: KeyObject | undefined;
const forger = () => (forgerKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);

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
        amountFrom: { amount: '100.00', currency: 'GBP' },
        amountTo: { amount: '0.00123456', currency: 'BTC' },
        payout: { transactionHash: 'forged-hash', destinationWalletAddress: 'bc1qforgedforgedforgedforgedforgedforged0' },
      },
    });
    const digest = Buffer.from(createHash('sha512').update(body).digest('hex'));
    const signature = sign('sha512', digest, { key: forger(), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 });
    return { query: '', headers: { 'x-request-signature': signature.toString('base64') }, body };
  },
};
