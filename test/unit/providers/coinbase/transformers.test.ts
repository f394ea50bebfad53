import { currencyDictionary } from '../../../../src/domain/currencies';
import { CoinbaseTransactionsSchema } from '../../../../src/providers/coinbase/schemas';
import { fromTransactions } from '../../../../src/providers/coinbase/transformers';

const ORDER_ID = '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90';
const transaction = (createdAt: unknown) => ({
  transactionId: '1f087a54-ff1f-62e8-9f85-aa77ac0499a5',
  status: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS',
  partnerUserRef: ORDER_ID,
  createdAt,
});

describe('the transaction status lookup', () => {
  test('reads createdAt as when Coinbase made the transaction', () => {
    const { transactions } = CoinbaseTransactionsSchema.parse({ transactions: [transaction('2025-09-02T02:34:13Z')] });
    expect(fromTransactions(ORDER_ID, transactions, currencyDictionary)).toMatchObject({
      orderId: ORDER_ID,
      status: 'processing',
      providerOrderCreatedAt: '2025-09-02T02:34:13.000Z',
    });
  });

  test('a createdAt that is not a time is left out; the transaction is still read', () => {
    const { transactions } = CoinbaseTransactionsSchema.parse({ transactions: [transaction({ seconds: 1 })] });
    const snapshot = fromTransactions(ORDER_ID, transactions, currencyDictionary);
    expect(snapshot).not.toHaveProperty('providerOrderCreatedAt');
    expect(snapshot.status).toBe('processing');
  });
});
