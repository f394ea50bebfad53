import { currencyDictionary } from '../../../../src/domain/currencies';
import {
  groupPurchases,
  listCursorOf,
  listCursorText,
  listedPage,
  purchaseKeyOf,
  type MercuryoListCursor,
} from '../../../../src/providers/mercuryo/listing';
import { mercuryoCurrencyIds } from '../../../../src/providers/mercuryo/reported';
import { MercuryoTransactionsSchema, type MercuryoTransactions } from '../../../../src/providers/mercuryo/schemas';
import { fromPurchase, fromTransactions, operationsOf } from '../../../../src/providers/mercuryo/transformers';
import type { ProviderTransactionPage, TransactionWindow } from '../../../../src/providers/types';
import cancelledAfterWithdraw from './fixtures/transactions-buy-acquirer-cancelled-withdraw-failed.json';
import orderFailed from './fixtures/transactions-buy-order-failed.json';
import paidCompleted from './fixtures/transactions-buy-paid-withdraw-completed.json';
import mobilePending from './fixtures/transactions-mobile-pay-paid-withdraw-pending.json';

const ids = mercuryoCurrencyIds(currencyDictionary);
const items = (json: unknown): MercuryoTransactions['data'] => MercuryoTransactionsSchema.parse(json).data;
const EVER: TransactionWindow = { fromMs: 0, toMs: Date.UTC(2100, 0, 1) };
const FIRST: MercuryoListCursor = { offset: 0, carried: [] };

const documented = [...items(paidCompleted), ...items(mobilePending), ...items(cancelledAfterWithdraw), ...items(orderFailed)];

/**
 * The documented items, each operation split into an item of its own (one-operation items, as in
 * Mercuryo's own example), newest first: a withdraw leg, made after its payment leg, before it.
 */
const split = (data: MercuryoTransactions['data']) =>
  data.flatMap((item) =>
    Object.entries(item)
      .reverse()
      .map(([type, op]) => ({ [type]: op })),
  );

/** Every page of a list answering `data` `limit` items at a time, walked through the cursors. */
function walk(data: MercuryoTransactions['data'], limit: number, window = EVER): ProviderTransactionPage[] {
  const pages: ProviderTransactionPage[] = [];
  let cursor: string | undefined;
  do {
    const at = listCursorOf(cursor);
    const page = listedPage(data.slice(at.offset, at.offset + limit), window, at, limit, ids);
    pages.push(page);
    cursor = page.cursor;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
}

const lookupOf = (orderId: string, data: MercuryoTransactions['data']) => {
  const { orderId: id, providerOrderCreatedAt, ...rest } = fromTransactions(orderId, { data }, ids);
  return { ...rest, orderId: id, createdAt: providerOrderCreatedAt };
};

describe('listedPage: Mercuryo purchases in the reconciliation terms', () => {
  test('each documented purchase once, saying what the status lookup says of it', () => {
    const page = listedPage(documented, EVER, FIRST, 50, ids);
    expect(page).toEqual({
      transactions: [
        lookupOf('2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90', documented),
        lookupOf('036fecc9-0b73-4875-bd6f-2b868e30cf55', documented),
        lookupOf('7b1e0c52-4d6f-4e8a-9c3b-2a1f0e9d8c7b', documented),
        lookupOf('qq1122ww', documented),
      ],
      unreadable: 0,
    });
    expect(page.transactions.map((t) => t.status)).toEqual(['complete', 'processing', 'refunded', 'failed']);
    // The payment leg's creation, not the withdraw leg's.
    expect(page.transactions[0]!.createdAt).toBe('2025-04-18T19:56:08.000Z');
  });

  test('keeps to the window, by the creation of the purchase (`from` included, `to` excluded)', () => {
    const at = Date.parse('2025-04-18T19:56:08.000Z');
    const listed = (window: TransactionWindow) => listedPage(documented, window, FIRST, 50, ids).transactions.map((t) => t.orderId);
    expect(listed({ fromMs: at, toMs: at + 1 })).toEqual(['2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90']);
    expect(listed({ fromMs: at + 1, toMs: at + 60_000 })).toEqual([]);
    expect(listed({ fromMs: at - 60_000, toMs: at })).toEqual([]);
  });

  test('a full page answers the next offset, a short page none', () => {
    expect(listedPage(documented, EVER, { offset: 100, carried: [] }, 4, ids).cursor).toBe('104');
    expect(listedPage(documented, EVER, { offset: 100, carried: [] }, 5, ids)).not.toHaveProperty('cursor');
  });

  test('a purchase made without merchant_transaction_id is one purchase by its transaction id, with no order id', () => {
    const json = structuredClone(paidCompleted) as { data: Record<string, { merchant_transaction_id: string | null }>[] };
    for (const op of Object.values(json.data[0]!)) op.merchant_transaction_id = null;
    const [listed, ...more] = listedPage(items(json), EVER, FIRST, 50, ids).transactions;
    expect(more).toEqual([]);
    expect(listed).toMatchObject({ providerOrderId: '0dbd28d5208d1a411', status: 'complete' });
    expect(listed).not.toHaveProperty('orderId');
  });

  test('operations listed as items of their own, on one page, are still one purchase each', () => {
    const page = listedPage(split(documented), EVER, FIRST, 50, ids);
    expect(page.transactions).toEqual(listedPage(documented, EVER, FIRST, 50, ids).transactions);
  });

  test('a purchase cut by the end of a page is listed once, whole, from the page holding its payment leg', () => {
    // Pages of 5 cut the refunded purchase: its withdraw leg ends the first page, its payment leg opens the second.
    const data = split(documented);
    const pages = walk(data, 5);
    expect(pages.map((p) => p.transactions.map((t) => t.orderId))).toEqual([
      ['2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90', '036fecc9-0b73-4875-bd6f-2b868e30cf55'],
      ['7b1e0c52-4d6f-4e8a-9c3b-2a1f0e9d8c7b', 'qq1122ww'],
    ]);
    expect(pages[0]!.cursor).toMatch(/^5\./);
    const listed = pages.flatMap((p) => p.transactions);
    expect(listed).toEqual(listedPage(documented, EVER, FIRST, 50, ids).transactions);
    // The refund shows only with both legs: the cancelled payment alone would read failed.
    expect(listed.find((t) => t.orderId === '7b1e0c52-4d6f-4e8a-9c3b-2a1f0e9d8c7b')?.status).toBe('refunded');
    // Whatever the page size, each purchase once and as a whole.
    for (const limit of [1, 2, 3, 4, 6, 7, 8]) {
      expect(walk(data, limit).flatMap((p) => p.transactions)).toEqual(listed);
    }
  });

  test('a withdraw leg whose payment leg never comes (made before the first day asked) is dropped with the last page', () => {
    const [withdrawOnly] = split(items(paidCompleted));
    const pages = walk([withdrawOnly!, ...items(orderFailed)], 1);
    expect(pages.flatMap((p) => p.transactions).map((t) => t.orderId)).toEqual(['qq1122ww']);
    expect(pages.at(-1)).not.toHaveProperty('cursor');
    expect(pages.map((p) => p.unreadable)).toEqual(pages.map(() => 0));
  });

  test('a purchase in undocumented statuses only, or with no creation time, is counted unreadable, not listed', () => {
    const json = structuredClone({ data: documented }) as { data: Record<string, { status: string; created_at?: string }>[] };
    json.data[3]!.buy!.status = 'brand_new_status';
    json.data[1]!.mobile_pay!.created_at = 'yesterday';
    const page = listedPage(items(json), EVER, FIRST, 50, ids);
    expect(page.transactions.map((t) => t.orderId)).toEqual([
      '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
      '7b1e0c52-4d6f-4e8a-9c3b-2a1f0e9d8c7b',
    ]);
    expect(page.unreadable).toBe(2);
  });

  test('off-ramp operations make no purchase and are left out', () => {
    const sell = {
      sell: {
        id: '0aa',
        transaction_id: '0ab',
        merchant_transaction_id: 'sale-1',
        status: 'succeeded',
        created_at: '2025-01-01 00:00:00',
      },
    };
    expect(listedPage(items({ data: [sell, ...items(orderFailed)] }), EVER, FIRST, 50, ids)).toEqual({
      transactions: [lookupOf('qq1122ww', items(orderFailed))],
      unreadable: 0,
    });
  });
});

describe('purchases of a page', () => {
  test('grouped as the lookup groups them: the order id, else the transaction id, else the operation; repeats once', () => {
    const ops = operationsOf(split(documented));
    const buy = ops.find((o) => o.type === 'buy')!;
    expect(purchaseKeyOf(buy)).toBe('order:2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90');
    expect(purchaseKeyOf({ ...buy, merchant_transaction_id: null })).toBe('transaction:0dbd28d5208d1a411');
    expect(purchaseKeyOf({ ...buy, merchant_transaction_id: undefined, transaction_id: undefined })).toBe(
      'operation:buy:0dbd28d52087c8092',
    );
    const groups = groupPurchases([...ops, buy]);
    expect(groups.map((g) => g.map((o) => o.type))).toEqual([
      ['withdraw', 'buy'],
      ['withdraw', 'mobile_pay'],
      ['withdraw', 'buy_acquirer'],
      ['buy'],
    ]);
    expect(groups.map((g) => fromPurchase(g, ids)?.status)).toEqual(['complete', 'processing', 'refunded', 'failed']);
  });

  test('fromPurchase reads no purchase from operations without a payment or withdraw leg', () => {
    expect(fromPurchase([], ids)).toBeUndefined();
    expect(fromPurchase([{ id: '1', type: 'deposit', status: 'completed' }], ids)).toBeUndefined();
  });
});

describe('list cursors', () => {
  test('the next offset alone, or with the operations carried to the next page', () => {
    expect(listCursorOf(undefined)).toEqual(FIRST);
    expect(listCursorOf('50')).toEqual({ offset: 50, carried: [] });
    expect(listCursorText({ offset: 50, carried: [] })).toBe('50');
    const carried = operationsOf(split(items(paidCompleted))).slice(0, 1);
    const text = listCursorText({ offset: 3, carried });
    expect(text).toMatch(/^3\.[A-Za-z0-9_-]+$/);
    expect(listCursorOf(text)).toEqual({ offset: 3, carried });
  });

  test('anything else is refused', () => {
    const notOperations = Buffer.from(JSON.stringify([{ id: 1 }])).toString('base64url');
    for (const cursor of ['', 'ten', '-1', '1234567890', '3.', '3.!!', `3.${notOperations}`, '3.bm90IGpzb24']) {
      expect(() => listCursorOf(cursor)).toThrow(RangeError);
    }
  });
});
