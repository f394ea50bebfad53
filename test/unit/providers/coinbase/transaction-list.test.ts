import { currencyDictionary } from '../../../../src/domain/currencies';
import { CoinbaseTransactionsSchema } from '../../../../src/providers/coinbase/schemas';
import { fromTransactionPage, fromTransactions, toListRange } from '../../../../src/providers/coinbase/transformers';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';

const ORDER_ID = '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90';
const at = (iso: string) => Date.parse(iso);
const window = { fromMs: at('2025-09-02T00:00:00Z'), toMs: at('2025-09-03T00:00:00Z') };

const row = (overrides: Record<string, unknown> = {}) => ({
  transactionId: '1f087a54-ff1f-62e8-9f85-aa77ac0499a5',
  status: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
  partnerUserRef: ORDER_ID,
  purchaseCurrency: 'USDC',
  purchaseNetwork: 'base',
  purchaseAmount: { value: '146.03', currency: 'USDC' },
  paymentTotal: { value: '150.00', currency: 'USD' },
  walletAddress: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
  txHash: '0x31814ba2fef2a400a9816767370be09ca12d9e9753b972198fe330a0ecedcbf6',
  createdAt: '2025-09-02T02:34:13Z',
  ...overrides,
});

const page = (rows: unknown[], nextPageKey?: string) => CoinbaseTransactionsSchema.parse({ transactions: rows, nextPageKey });

describe('the list of all buy transactions', () => {
  test('asks for the window in whole seconds, the start rounded down and the end up', () => {
    expect(toListRange({ fromMs: at('2025-09-02T10:00:00.250Z'), toMs: at('2025-09-02T11:00:00.001Z') })).toEqual({
      startDate: '2025-09-02T10:00:00Z',
      endDate: '2025-09-02T11:00:01Z',
    });
    expect(toListRange(window)).toEqual({ startDate: '2025-09-02T00:00:00Z', endDate: '2025-09-03T00:00:00Z' });
  });

  test('a row says what a status lookup of the same transaction says', () => {
    const listed = fromTransactionPage(page([row()]), window, currencyDictionary);
    const { orderId, providerOrderId, providerOrderCreatedAt, ...lookup } = fromTransactions(
      ORDER_ID,
      page([row()]).transactions,
      currencyDictionary,
    );
    expect(listed).toEqual({
      transactions: [{ ...lookup, orderId, providerOrderId, createdAt: providerOrderCreatedAt }],
      unreadable: 0,
    });
    expect(listed.transactions[0]).toMatchObject({
      orderId: ORDER_ID,
      providerOrderId: '1f087a54-ff1f-62e8-9f85-aa77ac0499a5',
      providerStatus: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
      status: 'complete',
      createdAt: '2025-09-02T02:34:13.000Z',
      reported: { fiatAmount: '150.00' },
    });
  });

  test('a failed row carries its reason; a row without partnerUserRef names no order of ours', () => {
    const { transactions } = fromTransactionPage(
      page([
        row({ status: 'ONRAMP_TRANSACTION_STATUS_FAILED', failureReason: 'FAILURE_REASON_BUY_FAILED' }),
        row({ transactionId: 'phantom', partnerUserRef: '' }),
      ]),
      window,
      currencyDictionary,
    );
    expect(transactions[0]).toMatchObject({ status: 'failed', failureReason: 'FAILURE_REASON_BUY_FAILED' });
    expect(transactions[1]!.providerOrderId).toBe('phantom');
    expect(transactions[1]).not.toHaveProperty('orderId');
  });

  test('keeps the rows inside the window, counts those without a creation time as unreadable', () => {
    const listed = fromTransactionPage(
      page([
        row({ transactionId: 'at-end', createdAt: '2025-09-03T00:00:00Z' }),
        row({ transactionId: 'inside' }),
        row({ transactionId: 'at-start', createdAt: '2025-09-02T00:00:00Z' }),
        row({ transactionId: 'before', createdAt: '2025-09-01T23:59:59Z' }),
        row({ transactionId: 'no-time', createdAt: undefined }),
        row({ transactionId: 'not-a-time', createdAt: 'yesterday' }),
      ]),
      window,
      currencyDictionary,
    );
    expect(listed.transactions.map((t) => t.providerOrderId)).toEqual(['inside', 'at-start']);
    expect(listed.unreadable).toBe(2);
  });

  test('nextPageKey is the cursor, as it is; an empty or absent one ends the list', () => {
    expect(fromTransactionPage(page([row()], 'eyJndF9za2lwIjowfQ=='), window, currencyDictionary).cursor).toBe('eyJndF9za2lwIjowfQ==');
    expect(fromTransactionPage(page([row()], ''), window, currencyDictionary)).not.toHaveProperty('cursor');
    expect(fromTransactionPage(page([row()]), window, currencyDictionary)).not.toHaveProperty('cursor');
  });

  test('a status Coinbase does not document fails the page, as it fails a lookup', () => {
    expect(() => fromTransactionPage(page([row({ status: 'ONRAMP_TRANSACTION_STATUS_REFUNDED' })]), window, currencyDictionary)).toThrow(
      UnknownProviderStatusError,
    );
  });
});
