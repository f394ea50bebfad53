import { currencyDictionary } from '../../../../src/domain/currencies';
import { PaybisTransactionSchema, PaybisWebhookSchema } from '../../../../src/providers/paybis/schemas';
import { fromTransaction, fromWebhook } from '../../../../src/providers/paybis/transformers';

const REQUEST_ID = 'f3a7c7b0-0000-4000-8000-000000000001';
const LISTED = {
  id: 'tx-1',
  status: 'completed',
  partnerTransactionId: 'ord_123',
  request: { id: REQUEST_ID },
  to: { address: 'bc1qexample' },
  hash: '0xabc',
  amounts: { spentOriginal: { amount: '100.00', currency: 'GBP' }, receivedOriginal: { amount: '0.0015', currency: 'BTC' } },
  createdAt: '2025-06-01T09:30:00+00:00',
};

describe('the transaction list', () => {
  test("reads the transaction's createdAt as when Paybis made it", () => {
    expect(fromTransaction('ord_123', REQUEST_ID, PaybisTransactionSchema.parse(LISTED), currencyDictionary)).toMatchObject({
      orderId: 'ord_123',
      providerOrderId: REQUEST_ID,
      status: 'complete',
      providerOrderCreatedAt: '2025-06-01T09:30:00.000Z',
    });
  });

  test('a rejected transaction ended unpaid (expired) only when the list shows no payment; otherwise it fails the order', () => {
    const read = (fields: object) =>
      fromTransaction(
        'ord_123',
        REQUEST_ID,
        PaybisTransactionSchema.parse({ ...LISTED, status: 'rejected', hash: null, ...fields }),
        currencyDictionary,
      );
    expect(read({ paidAt: '2025-06-01T09:35:00+00:00' })).toMatchObject({ status: 'failed', failureReason: 'rejected_by_provider' });
    expect(read({ hash: '0xabc' })).toMatchObject({ status: 'failed', failureReason: 'rejected_by_provider' });
    // A list without paidAt says nothing of the payment: the rejection is read as after it.
    expect(read({})).toMatchObject({ status: 'failed', failureReason: 'rejected_by_provider' });
    const unpaid = read({ paidAt: null });
    expect(unpaid).toMatchObject({ providerStatus: 'rejected', status: 'expired' });
    expect(unpaid).not.toHaveProperty('failureReason');
  });

  test('a createdAt that is not a time is left out; the transaction is still read', () => {
    const snapshot = fromTransaction(
      'ord_123',
      REQUEST_ID,
      PaybisTransactionSchema.parse({ ...LISTED, createdAt: 'June' }),
      currencyDictionary,
    );
    expect(snapshot).not.toHaveProperty('providerOrderCreatedAt');
    expect(snapshot.status).toBe('complete');
  });
});

test('the status webhook carries no creation time, so it reports none', () => {
  const webhook = PaybisWebhookSchema.parse({
    event: 'TRANSACTION_STATUS_CHANGED',
    data: { requestId: REQUEST_ID, partnerTransactionId: 'ord_123', transaction: { status: 'completed', flow: 'buyCrypto' } },
  });
  expect(fromWebhook(webhook, currencyDictionary)).not.toHaveProperty('providerOrderCreatedAt');
});
