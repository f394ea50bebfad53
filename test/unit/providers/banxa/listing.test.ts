import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { banxaListDates, banxaListPage, banxaPageOf } from '../../../../src/providers/banxa/listing';
import { BanxaOrderListSchema, BanxaOrderSchema, type BanxaOrder } from '../../../../src/providers/banxa/schemas';
import { fromListedOrder, fromOrder } from '../../../../src/providers/banxa/transformers';
import type { ProviderOrderSnapshot } from '../../../../src/providers/types';
import { currencyId as idOf } from '../../../helpers/currencies';

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8'));

const [listedFixture] = BanxaOrderListSchema.parse(fixture('order-list.json')).orders;
const listed = listedFixture as BanxaOrder;

describe('fromListedOrder', () => {
  test('an order of the list reads as its status lookup reads it: our id, its id, the mapped status, the terms, the creation time', () => {
    expect(fromListedOrder(listed, currencyDictionary)).toEqual({
      orderId: 'a4b427ccb872a1744b317456bd0d165f',
      providerOrderId: '191fa5b4b1f45e1cf784422e09317d56',
      providerStatus: 'complete',
      status: 'complete',
      cryptoAmount: '696.63',
      transactionHash: '0x5ea06c4724e8119704a1b57c918acf31742eb06cdf3f8678fdb17f41bbaf968e',
      reported: {
        walletAddress: '0x75b8d4d81377d4b0f11798779563462264914a24',
        cryptoCurrency: null, // the dictionary has no USDC on Tron
        fiatCurrency: idOf('CAD'),
        fiatAmount: '1000.00',
      },
      providerOrderCreatedAt: '2022-08-22T09:10:43.724Z',
    });
    expect(fromListedOrder(listed, currencyDictionary)).toEqual(fromOrder(listed, currencyDictionary));
    const single = BanxaOrderSchema.parse(fixture('order.json'));
    expect(fromListedOrder(single, currencyDictionary)).toEqual(fromOrder(single, currencyDictionary));
  });

  test("a Banxa final status is mapped as the lookup maps it (declined: failed, with the lookup's reason)", () => {
    expect(fromListedOrder({ ...listed, status: 'declined' }, currencyDictionary)).toMatchObject({
      providerStatus: 'declined',
      status: 'failed',
      failureReason: 'payment_declined',
    });
    expect(fromListedOrder({ ...listed, status: 'refunded' }, currencyDictionary)).toMatchObject({ status: 'refunded' });
  });

  test('an order naming no partner reference is still listed, by Banxa id, with no order id', () => {
    const { externalId: _ref, ...order } = listed;
    expect(fromOrder(order, currencyDictionary)).toBeUndefined();
    expect(fromListedOrder(order, currencyDictionary)).toMatchObject({ orderId: '', providerOrderId: listed.id, status: 'complete' });
  });
});

describe('the list pages', () => {
  const at = Date.parse('2026-03-10T12:00:00.000Z');
  const window = { fromMs: at - 3_600_000, toMs: at + 3_600_000 };
  const row = (id: string, createdAt: string | undefined, orderId = `order-${id}`): ProviderOrderSnapshot => ({
    orderId,
    providerOrderId: id,
    providerStatus: 'complete',
    status: 'complete',
    ...(createdAt ? { providerOrderCreatedAt: createdAt } : {}),
  });
  const inside = (id: string) => row(id, new Date(at).toISOString());

  test('asks for the days the window touches and one more on each side', () => {
    expect(banxaListDates(window)).toEqual({ start: '2026-03-09', end: '2026-03-11' });
    expect(banxaListDates({ fromMs: Date.parse('2026-03-31T23:00:00Z'), toMs: Date.parse('2026-04-02T00:00:00Z') })).toEqual({
      start: '2026-03-30',
      end: '2026-04-02',
    });
  });

  test('the cursor is the next page number while pages are full; a short page, or the last of pageTotal, ends the walk', () => {
    expect(banxaListPage([inside('a'), inside('b')], window, 1, 2)).toMatchObject({ cursor: '2' });
    expect(banxaListPage([inside('a'), inside('b')], window, 4, 2, 9)).toMatchObject({ cursor: '5' });
    expect(banxaListPage([inside('a'), inside('b')], window, 3, 2, 3)).not.toHaveProperty('cursor');
    expect(banxaListPage([inside('a')], window, 1, 2)).not.toHaveProperty('cursor');
    expect(banxaListPage([], window, 1, 2)).toEqual({ transactions: [], unreadable: 0 });
    // A full page of which some orders were left out (sells) still has a next page.
    expect(banxaListPage([inside('a')], window, 1, 2, undefined, 2)).toMatchObject({ cursor: '2' });
  });

  test('keeps the rows inside the window, counts the unreadable ones, lists one without our id by Banxa id alone', () => {
    const page = banxaListPage(
      [
        inside('a'),
        row('early', '2026-03-10T10:59:59.999Z'),
        row('late', '2026-03-10T13:00:00.000Z'),
        row('no-time', undefined),
        row('phantom', new Date(at).toISOString(), ''),
      ],
      window,
      1,
      100,
    );
    expect(page.unreadable).toBe(1);
    expect(page.transactions.map((t) => t.providerOrderId)).toEqual(['a', 'phantom']);
    expect(page.transactions[0]).toEqual({
      orderId: 'order-a',
      providerOrderId: 'a',
      providerStatus: 'complete',
      status: 'complete',
      createdAt: new Date(at).toISOString(),
    });
    expect(page.transactions[1]).not.toHaveProperty('orderId');
  });

  test('page numbers: none is the first; anything but a positive whole number is refused', () => {
    expect(banxaPageOf(undefined)).toBe(1);
    expect(banxaPageOf('7')).toBe(7);
    for (const cursor of ['0', '-1', '1.5', 'x', '', '01', '1234567890']) expect(() => banxaPageOf(cursor)).toThrow(RangeError);
  });
});
