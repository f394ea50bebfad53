import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { createPaybisAdapter, PAYBIS_SIMULATOR_CREDENTIALS } from '../../../../src/providers/paybis';
import { DEV_PAYBIS_WEBHOOK_PRIVATE_KEY, DEV_PAYBIS_WEBHOOK_PUBLIC_KEY } from '../../../../src/providers/paybis/development-keys';
import { parsePaybisWebhookBody, paybisEventId, verifyPaybisWebhook } from '../../../../src/providers/paybis/webhook';
import { IgnoredWebhookError, WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { paybisSignature } from '../../../../src/simulators/paybis/signing';

const publicKey = createPublicKey(DEV_PAYBIS_WEBHOOK_PUBLIC_KEY);
const signingKey = createPrivateKey(DEV_PAYBIS_WEBHOOK_PRIVATE_KEY);
const BODY = JSON.stringify({
  event: 'TRANSACTION_STATUS_CHANGED',
  data: {
    requestId: 'f3a7c7b0-0000-4000-8000-000000000001',
    partnerTransactionId: 'ord_123',
    quote: { quoteId: 'q-1' },
    transaction: { invoice: 'PB21095868675TX1', status: 'completed', flow: 'buyCrypto' },
    amountFrom: { amount: '100.00', currency: 'GBP' },
    amountTo: { amount: '0.0015', currency: 'BTC' },
    payout: { transactionHash: '0xabc', destinationWalletAddress: 'bc1qexample' },
  },
});

const incoming = (signature: string | undefined, body = BODY): IncomingWebhook => ({
  headers: signature === undefined ? {} : { 'x-request-signature': signature },
  rawBody: Buffer.from(body),
  query: {},
});

function refusal(webhook: IncomingWebhook): string {
  try {
    verifyPaybisWebhook(webhook, publicKey);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('expected a WebhookVerificationError');
}

describe('Paybis webhook signature', () => {
  test('accepts the simulator-signed body under the Paybis key', () => {
    expect(() => verifyPaybisWebhook(incoming(paybisSignature(BODY, signingKey)), publicKey)).not.toThrow();
  });

  test('refuses a forged signature (another RSA key)', () => {
    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(refusal(incoming(paybisSignature(BODY, forger.privateKey)))).toMatch(/does not verify/);
  });

  test('refuses a genuine signature on a changed body', () => {
    const signature = paybisSignature(BODY, signingKey);
    expect(refusal(incoming(signature, BODY.replace('completed', 'started')))).toMatch(/does not verify/);
  });

  test('refuses a missing or malformed header', () => {
    expect(refusal(incoming(undefined))).toMatch(/missing/);
    expect(refusal(incoming(''))).toMatch(/missing/);
    expect(refusal(incoming('%%%'))).toMatch(/does not verify/);
  });

  test('a replayed genuine webhook verifies and keeps its event id, so it is dropped as a duplicate', () => {
    const first = incoming(paybisSignature(BODY, signingKey));
    const replay = incoming(paybisSignature(BODY, signingKey));
    expect(() => verifyPaybisWebhook(replay, publicKey)).not.toThrow();
    expect(paybisEventId(replay.rawBody)).toBe(paybisEventId(first.rawBody));
  });

  test('only a transaction status event is read; a KYC event is ignored (acknowledged), an undocumented one or another shape refused', () => {
    expect(parsePaybisWebhookBody(Buffer.from(BODY)).data.transaction.status).toBe('completed');
    const kyc = JSON.stringify({ event: 'VERIFICATION_STATUS_UPDATED', data: { partnerUserId: 'u', status: 'started' } });
    expect(() => parsePaybisWebhookBody(Buffer.from(kyc))).toThrow(IgnoredWebhookError);
    // An event Paybis does not document is refused, as an undocumented status is (401: Paybis retries it).
    for (const event of ['SOMETHING_NEW', 'verification_status_updated', 'TRANSACTION_STATUS_CHANGED ', '']) {
      expect(() => parsePaybisWebhookBody(Buffer.from(JSON.stringify({ event, data: {} })))).toThrow(WebhookVerificationError);
    }
    expect(() => parsePaybisWebhookBody(Buffer.from('not json'))).toThrow(WebhookVerificationError);
    expect(() => parsePaybisWebhookBody(Buffer.from(JSON.stringify({ data: {} })))).toThrow(WebhookVerificationError);
    const broken = JSON.stringify({ event: 'TRANSACTION_STATUS_CHANGED', data: { requestId: 'r' } });
    expect(() => parsePaybisWebhookBody(Buffer.from(broken))).toThrow(WebhookVerificationError);
  });
});

describe('Paybis adapter webhooks', () => {
  const adapter = createPaybisAdapter(
    {
      ...PAYBIS_SIMULATOR_CREDENTIALS,
      apiUrl: 'http://127.0.0.1:1',
      widgetUrl: 'http://127.0.0.1:1',
      brokerPublicUrl: 'http://127.0.0.1:1',
    },
    currencyDictionary,
  );
  const signed = (body: string) => incoming(paybisSignature(body, signingKey), body);
  const withStatus = (status: string) => BODY.replace('"completed"', JSON.stringify(status));

  test('a genuine KYC event is ignored; a forged one is refused', async () => {
    const kyc = JSON.stringify({ event: 'VERIFICATION_STATUS_UPDATED', data: { partnerUserId: 'u', status: 'approved' }, timestamp: 1 });
    await expect(adapter.parseWebhook(signed(kyc))).rejects.toBeInstanceOf(IgnoredWebhookError);
    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await expect(adapter.parseWebhook(incoming(paybisSignature(kyc, forger.privateKey), kyc))).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
  });

  test('an attempt that ended unpaid or was rejected is left to the lookup (ignored, naming the order); every other status is reported', async () => {
    // `rejected` may come before or after the payment, which the webhook does not say: the lookup does.
    for (const status of ['cancelled', 'payment-error', 'payment_error', 'rejected']) {
      const error = await adapter.parseWebhook(signed(withStatus(status))).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(IgnoredWebhookError);
      expect((error as IgnoredWebhookError).orderId).toBe('ord_123');
    }
    for (const status of ['started', 'paid', 'completed']) {
      await expect(adapter.parseWebhook(signed(withStatus(status)))).resolves.toMatchObject({ orderId: 'ord_123', providerStatus: status });
    }
    // A status Paybis does not document is still refused, so that Paybis keeps it and retries.
    await expect(adapter.parseWebhook(signed(withStatus('brand-new')))).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  test('a transaction that names no partner transaction id is no request of the broker: ignored', async () => {
    await expect(adapter.parseWebhook(signed(BODY.replace('"partnerTransactionId":"ord_123",', '')))).rejects.toBeInstanceOf(
      IgnoredWebhookError,
    );
  });
});
