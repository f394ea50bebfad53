import {
  ProviderRejectedError,
  type ProviderAdapter,
  type ProviderOrderSnapshot,
  type ProviderTransaction,
  type TransactionListing,
} from '../../../src/providers/types';
import { lookUpProviderBooks, lookedUpTransaction } from '../../../src/reconciliation/lookups';
import { BooksWalkError, MAX_LISTED_TRANSACTIONS, readProviderBooks } from '../../../src/reconciliation/provider-books';
import type { BookedOrder } from '../../../src/domain/reconciliation';

const T0 = Date.UTC(2026, 10, 28);
const HOUR = 3_600_000;

function listed(id: string, overrides: Partial<ProviderTransaction> = {}): ProviderTransaction {
  return {
    providerOrderId: id,
    orderId: `o-${id}`,
    createdAt: new Date(T0 + HOUR).toISOString(),
    status: 'complete',
    providerStatus: 'done',
    ...overrides,
  };
}

/** A listing answering pages from a script, recording each call's window, cursor and time. */
function scripted(
  pages: Record<string, { transactions: ProviderTransaction[]; cursor?: string; unreadable?: number }>,
  extra: Partial<TransactionListing> = {},
) {
  const calls: { fromMs: number; toMs: number; cursor?: string; at: number }[] = [];
  const listing: TransactionListing = {
    callsPerSecond: 1000,
    list: (window, cursor) => {
      calls.push({ ...window, cursor, at: Date.now() });
      return Promise.resolve(pages[`${window.fromMs}:${cursor ?? ''}`] ?? { transactions: [] });
    },
    ...extra,
  };
  return { listing, calls };
}

describe('readProviderBooks', () => {
  test('walks every page of the window in order, keeping each transaction once', async () => {
    const { listing, calls } = scripted({
      [`${T0}:`]: { transactions: [listed('a'), listed('b')], cursor: '2' },
      [`${T0}:2`]: { transactions: [listed('b'), listed('c')], cursor: '4' },
      [`${T0}:4`]: { transactions: [listed('d')], unreadable: 2 },
    });
    const books = await readProviderBooks(listing, T0, T0 + 24 * HOUR, { pauseMs: 0 });
    expect(books.transactions.map((t) => t.providerOrderId)).toEqual(['a', 'b', 'c', 'd']);
    expect(books.unreadable).toBe(2);
    expect(calls.map((c) => c.cursor)).toEqual([undefined, '2', '4']);
    expect(books.transactions[0]).toEqual({
      providerOrderId: 'a',
      orderId: 'o-a',
      createdAtMs: T0 + HOUR,
      status: 'complete',
      providerStatus: 'done',
    });
  });

  test('a transaction listed twice is kept as its latest answer, unless that takes a final status back', async () => {
    const { listing } = scripted({
      [`${T0}:`]: { transactions: [listed('a', { status: 'processing' }), listed('b', { status: 'complete' })], cursor: 'x' },
      [`${T0}:x`]: { transactions: [listed('a', { status: 'complete' }), listed('b', { status: 'processing' })] },
    });
    const books = await readProviderBooks(listing, T0, T0 + HOUR, { pauseMs: 0 });
    expect(Object.fromEntries(books.transactions.map((t) => [t.providerOrderId, t.status]))).toEqual({ a: 'complete', b: 'complete' });
  });

  test('a window wider than the provider allows is read in slices', async () => {
    const { listing, calls } = scripted({}, { maxWindowMs: 10 * HOUR });
    await readProviderBooks(listing, T0, T0 + 24 * HOUR, { pauseMs: 0 });
    expect(calls.map((c) => [c.fromMs - T0, c.toMs - T0])).toEqual([
      [0, 10 * HOUR],
      [10 * HOUR, 20 * HOUR],
      [20 * HOUR, 24 * HOUR],
    ]);
  });

  test('paced to the documented rate between calls', async () => {
    const { listing, calls } = scripted(
      { [`${T0}:`]: { transactions: [], cursor: '1' }, [`${T0}:1`]: { transactions: [], cursor: '2' } },
      { callsPerSecond: 20 },
    );
    await readProviderBooks(listing, T0, T0 + HOUR);
    expect(calls).toHaveLength(3);
    expect(calls[2]!.at - calls[0]!.at).toBeGreaterThanOrEqual(95);
  });

  test('a row with an id over its bound or no readable time is counted unreadable, never carried', async () => {
    const { listing } = scripted({
      [`${T0}:`]: {
        transactions: [
          listed('x'.repeat(600)),
          listed('ok'),
          listed('late', { createdAt: 'yesterday' }),
          listed('s', { providerStatus: 'y'.repeat(300) }),
        ],
      },
    });
    const books = await readProviderBooks(listing, T0, T0 + HOUR, { pauseMs: 0 });
    expect(books.transactions.map((t) => t.providerOrderId)).toEqual(['ok']);
    expect(books.unreadable).toBe(3);
  });

  test('a list going round fails the walk: a cursor again, or full pages of known rows only', async () => {
    const looping = scripted({
      [`${T0}:`]: { transactions: [listed('a')], cursor: 'x' },
      [`${T0}:x`]: { transactions: [listed('b')], cursor: 'y' },
      [`${T0}:y`]: { transactions: [listed('c')], cursor: 'x' },
    });
    await expect(readProviderBooks(looping.listing, T0, T0 + HOUR, { pauseMs: 0 })).rejects.toThrow(BooksWalkError);
    // Offsets that move forward over the same rows for ever.
    let calls = 0;
    const treadmill: TransactionListing = {
      callsPerSecond: 1000,
      list: () => Promise.resolve({ transactions: [listed('a'), listed('b')], cursor: String(++calls) }),
    };
    await expect(readProviderBooks(treadmill, T0, T0 + HOUR, { pauseMs: 0 })).rejects.toThrow('goes round');
    expect(calls).toBe(6);
  });

  test('a list longer than a walk keeps fails it rather than filling the worker', async () => {
    let page = 0;
    const endless: TransactionListing = {
      callsPerSecond: 1000,
      list: () => {
        page++;
        const transactions = Array.from({ length: 10_000 }, (_, i) => listed(`${page}-${i}`));
        return Promise.resolve({ transactions, cursor: String(page) });
      },
    };
    await expect(readProviderBooks(endless, T0, T0 + HOUR, { pauseMs: 0 })).rejects.toThrow(`more than ${MAX_LISTED_TRANSACTIONS}`);
    expect(page).toBe(MAX_LISTED_TRANSACTIONS / 10_000 + 1);
  });

  test("a provider's failure fails the read (a half-read side would report what it did not read)", async () => {
    const listing: TransactionListing = { callsPerSecond: 1000, list: () => Promise.reject(new Error('HTTP 503')) };
    await expect(readProviderBooks(listing, T0, T0 + HOUR, { pauseMs: 0 })).rejects.toThrow('HTTP 503');
  });
});

function booked(id: string, overrides: Partial<BookedOrder> = {}): BookedOrder {
  return {
    orderId: id,
    integratorId: 'acme',
    requestedAtMs: T0,
    updatedAtMs: T0,
    status: 'complete',
    walletAddress: 'w',
    cryptoCurrency: 1,
    fiatCurrency: 2,
    fiatAmount: '10.00',
    ...overrides,
  };
}

function lookingUp(answers: Record<string, ProviderOrderSnapshot | Error>): ProviderAdapter & { asked: unknown[][] } {
  const asked: unknown[][] = [];
  return {
    asked,
    getOrder: (orderId: string, providerOrderId?: string, context?: unknown) => {
      asked.push([orderId, providerOrderId, context]);
      const answer = answers[orderId];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer!);
    },
  } as unknown as ProviderAdapter & { asked: unknown[][] };
}

describe('lookUpProviderBooks (a provider without a list)', () => {
  test("each order looked up with its pin and request time; the provider's answers as its books", async () => {
    const adapter = lookingUp({
      a: {
        orderId: 'a',
        providerOrderId: 'pa',
        providerStatus: 'paid',
        status: 'complete',
        providerOrderCreatedAt: new Date(T0 + 5).toISOString(),
      },
      b: { orderId: 'b', providerStatus: 'none', status: 'created' },
      c: new ProviderRejectedError('not_found', 'no such order'),
      d: new Error('HTTP 503'),
      e: { orderId: 'e', providerOrderId: 'x'.repeat(600), providerStatus: 'paid', status: 'complete' },
    });
    const orders = ['a', 'b', 'c', 'd', 'e'].map((id) => booked(id, id === 'a' ? { providerOrderId: 'pa' } : {}));
    const books = await lookUpProviderBooks(adapter, orders, { pauseMs: 0 });
    expect(adapter.asked[0]).toEqual(['a', 'pa', { orderCreatedAt: new Date(T0).toISOString() }]);
    expect(books.transactions).toEqual([
      { providerOrderId: 'pa', orderId: 'a', createdAtMs: T0 + 5, status: 'complete', providerStatus: 'paid' },
    ]);
    // Unanswered (an outage, an answer out of bounds): left out of the comparison, counted.
    expect([...books.unanswered]).toEqual(['d', 'e']);
    expect(books.unreadable).toBe(2);
  });

  test('an answer naming no provider order stands under the order id when the provider has moved it', () => {
    expect(lookedUpTransaction(booked('a'), { orderId: '', providerStatus: 'paid', status: 'complete' })).toEqual({
      providerOrderId: 'order:a',
      orderId: 'a',
      createdAtMs: T0,
      status: 'complete',
      providerStatus: 'paid',
    });
  });
});
