import { currencyDictionary } from '../../../../src/domain/currencies';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { fromListedTransaction, listedPage, toListRange } from '../../../../src/providers/paybis/listing';
import { PaybisTransactionListSchema, PaybisTransactionSchema } from '../../../../src/providers/paybis/schemas';
import { fromTransaction } from '../../../../src/providers/paybis/transformers';

const ORDER_ID = '2f8c1a7e-0b1d-4c3e-9a4f-6d2e8b7c1a90';
const REQUEST_ID = 'f3a7c7b0-0000-4000-8000-000000000001';
const at = (iso: string) => Date.parse(iso);
const window = { fromMs: at('2025-06-01T00:00:00Z'), toMs: at('2025-06-02T00:00:00Z') };

const row = (overrides: Record<string, unknown> = {}) => ({
  id: 'tx-1',
  status: 'completed',
  partnerTransactionId: ORDER_ID,
  request: { id: REQUEST_ID },
  to: { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  hash: '0x31814ba2fef2a400a9816767370be09ca12d9e9753b972198fe330a0ecedcbf6',
  paidAt: '2025-06-01T09:31:00+00:00',
  amounts: { spentOriginal: { amount: '150.00', currency: 'GBP' }, receivedOriginal: { amount: '0.0015', currency: 'BTC' } },
  createdAt: '2025-06-01T09:30:00+00:00',
  ...overrides,
});

const list = (rows: unknown[], nextCursor?: string | null) => PaybisTransactionListSchema.parse({ data: rows, meta: { nextCursor } });

describe('the transaction list for reconciliation', () => {
  test('asks for the window as ISO 8601 instants, as the status lookup does', () => {
    expect(toListRange({ fromMs: at('2025-06-01T10:00:00.250Z'), toMs: at('2025-06-01T11:00:00.001Z') })).toEqual({
      from: '2025-06-01T10:00:00.250Z',
      to: '2025-06-01T11:00:00.001Z',
    });
  });

  test('a row says what a status lookup of the same transaction says', () => {
    const tx = PaybisTransactionSchema.parse(row());
    const { orderId, providerOrderId, providerOrderCreatedAt, ...lookup } = fromTransaction(ORDER_ID, REQUEST_ID, tx, currencyDictionary);
    expect(fromListedTransaction(tx, currencyDictionary)).toEqual({
      ...lookup,
      orderId,
      providerOrderId,
      createdAt: providerOrderCreatedAt,
    });
    expect(fromListedTransaction(tx, currencyDictionary)).toMatchObject({
      orderId: ORDER_ID,
      providerOrderId: REQUEST_ID,
      providerStatus: 'completed',
      status: 'complete',
      createdAt: '2025-06-01T09:30:00.000Z',
      reported: { fiatAmount: '150.00', walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
    });
  });

  test('our order id is exactly the partnerTransactionId; a row without one names no order of ours', () => {
    for (const partnerTransactionId of [null, undefined, '']) {
      const listed = fromListedTransaction(PaybisTransactionSchema.parse(row({ partnerTransactionId })), currencyDictionary);
      expect(listed).toMatchObject({ providerOrderId: REQUEST_ID, status: 'complete' });
      expect(listed).not.toHaveProperty('orderId');
    }
    expect(fromListedTransaction(PaybisTransactionSchema.parse(row({ partnerTransactionId: 'ord_7' })), currencyDictionary)?.orderId).toBe(
      'ord_7',
    );
  });

  test('a rejection reads as the lookup reads it: failed when the list shows it paid, an unpaid end when it says it unpaid', () => {
    const read = (fields: object) =>
      fromListedTransaction(PaybisTransactionSchema.parse(row({ status: 'rejected', ...fields })), currencyDictionary);
    expect(read({})).toMatchObject({ status: 'failed', failureReason: 'rejected_by_provider' });
    expect(read({ paidAt: null, hash: null })).toMatchObject({ providerStatus: 'rejected', status: 'expired' });
  });

  test('each transaction of a request is its own row, under the request id, each naming our order', () => {
    const page = listedPage(
      list([
        row({ id: 'tx-1', status: 'cancelled', hash: null, paidAt: null, createdAt: '2025-06-01T09:30:00Z' }),
        row({ id: 'tx-2', status: 'completed', createdAt: '2025-06-01T09:40:00Z' }),
      ]),
      window,
      currencyDictionary,
    );
    expect(page.transactions.map((t) => [t.providerOrderId, t.orderId, t.status])).toEqual([
      [REQUEST_ID, ORDER_ID, 'expired'],
      [REQUEST_ID, ORDER_ID, 'complete'],
    ]);
  });

  test('keeps the rows inside the window, counts those without a creation time as unreadable', () => {
    const page = listedPage(
      list([
        row({ request: { id: 'before' }, createdAt: '2025-05-31T23:59:59.999Z' }),
        row({ request: { id: 'at-start' }, createdAt: '2025-06-01T00:00:00Z' }),
        row({ request: { id: 'inside' } }),
        row({ request: { id: 'at-end' }, createdAt: '2025-06-02T00:00:00Z' }),
        row({ request: { id: 'not-a-time' }, createdAt: 'June' }),
      ]),
      window,
      currencyDictionary,
    );
    expect(page.transactions.map((t) => t.providerOrderId)).toEqual(['at-start', 'inside']);
    expect(page.unreadable).toBe(1);
  });

  test('meta.nextCursor is the cursor, as it is; a null, empty or absent one ends the list', () => {
    expect(listedPage(list([row()], 'eyJvZmZzZXQiOjEwMH0='), window, currencyDictionary).cursor).toBe('eyJvZmZzZXQiOjEwMH0=');
    for (const next of [null, '', undefined]) {
      expect(listedPage(list([row()], next), window, currencyDictionary)).not.toHaveProperty('cursor');
    }
  });

  test('a status Paybis does not document fails the page, as it fails a lookup', () => {
    expect(() => listedPage(list([row({ status: 'refunded' })]), window, currencyDictionary)).toThrow(UnknownProviderStatusError);
  });
});
