import { currencyDictionary } from '../../../../src/domain/currencies';
import { historyListPage, historyPageOf, historySince, listedHistoryRow } from '../../../../src/providers/onramp_money/listing';
import { onrampMoneyCurrencyIds } from '../../../../src/providers/onramp_money/reported';
import {
  OnrampMoneyConfigMappingSchema,
  OnrampMoneyHistorySchema,
  type OnrampMoneyTransaction,
} from '../../../../src/providers/onramp_money/schemas';
import { fromTransaction } from '../../../../src/providers/onramp_money/transformers';
import { currencyId as id } from '../../../helpers/currencies';
import mappingData from './fixtures/config-mapping.json';
import merchantHistory from './fixtures/merchant-history.json';

const mapping = OnrampMoneyConfigMappingSchema.parse({ status: 1, code: 200, data: mappingData }).data;
const ids = onrampMoneyCurrencyIds(currencyDictionary, mapping);

/** The documented merchantHistory record (Merchant Transaction History, "Onramp response"), with our order id. */
const [documented] = OnrampMoneyHistorySchema.parse(merchantHistory).data;
const tx = documented!;

describe('listedHistoryRow', () => {
  test('a history row reads as its status lookup reads it: our id, its id, the mapped status, the terms, the creation time', () => {
    expect(listedHistoryRow(tx, ids)).toEqual({
      orderId: '23',
      providerOrderId: '338',
      providerStatus: '5',
      status: 'complete',
      cryptoAmount: '2.87',
      transactionHash: tx.transactionHash,
      reported: {
        walletAddress: '0x72c6668306f1d89425e86899b7444a0c2e5f25cf',
        cryptoCurrency: id('USDT', 'polygon'),
        fiatCurrency: id('INR'),
        fiatAmount: '250',
      },
      createdAt: '2022-10-07T22:29:52.000Z',
    });
    const { orderId, providerOrderId, providerOrderCreatedAt, ...looked } = fromTransaction(tx, ids);
    expect(listedHistoryRow(tx, ids)).toEqual({ ...looked, orderId, providerOrderId, createdAt: providerOrderCreatedAt });
  });

  test('a final status other than complete is mapped as the lookup maps it', () => {
    expect(listedHistoryRow({ ...tx, status: -4 }, ids)).toMatchObject({
      providerStatus: '-4',
      status: 'failed',
      failureReason: 'amount_mismatch',
    });
    expect(listedHistoryRow({ ...tx, status: -1 }, ids)).toMatchObject({ status: 'expired' });
  });

  test('a row naming no merchantRecognitionId is listed by Onramp.money orderId alone', () => {
    for (const merchantRecognitionId of ['', null, undefined]) {
      const listed = listedHistoryRow({ ...tx, merchantRecognitionId }, ids);
      expect(listed).toMatchObject({ providerOrderId: '338', status: 'complete' });
      expect(listed).not.toHaveProperty('orderId');
    }
  });

  test('a status code Onramp.money does not document, or no readable creation time, makes the row unreadable', () => {
    expect(listedHistoryRow({ ...tx, status: 7 }, ids)).toBeUndefined();
    expect(listedHistoryRow({ ...tx, createdAt: '07/10/2022' }, ids)).toBeUndefined();
    expect(listedHistoryRow({ ...tx, createdAt: null }, ids)).toBeUndefined();
  });
});

describe('the history pages', () => {
  const at = Date.parse('2026-03-10T12:00:00.000Z');
  const window = { fromMs: at - 3_600_000, toMs: at + 3_600_000 };
  let next = 1_000;
  const row = (createdAt: string | null, overrides: Partial<OnrampMoneyTransaction> = {}): OnrampMoneyTransaction => ({
    ...tx,
    orderId: next++,
    createdAt,
    merchantRecognitionId: `order-${next}`,
    ...overrides,
  });
  const inside = (overrides: Partial<OnrampMoneyTransaction> = {}) => row(new Date(at).toISOString(), overrides);

  test('since is 1 ms before the window, as the documented example asks', () => {
    expect(historySince(window)).toBe('2026-03-10T10:59:59.999Z');
  });

  test('the cursor is the next page number while pages are full; a short page ends the walk', () => {
    expect(historyListPage([inside(), inside()], window, 1, 2, ids)).toMatchObject({ cursor: '2' });
    expect(historyListPage([inside(), inside()], window, 4, 2, ids)).toMatchObject({ cursor: '5' });
    expect(historyListPage([inside()], window, 1, 2, ids)).not.toHaveProperty('cursor');
    expect(historyListPage([], window, 1, 2, ids)).toEqual({ transactions: [], unreadable: 0 });
  });

  test('a full page reaching a transaction made before the window ends the walk (the history is newest first)', () => {
    const page = historyListPage([inside(), row('2026-03-10T10:59:59.999Z')], window, 1, 2, ids);
    expect(page).not.toHaveProperty('cursor');
    expect(page.transactions).toHaveLength(1);
    // One made after the window does not: older pages may still hold the window's.
    expect(historyListPage([row('2026-03-10T13:00:00.000Z'), inside()], window, 1, 2, ids)).toMatchObject({ cursor: '2' });
    // Nor does an unreadable time; an older row in an undocumented status still does.
    expect(historyListPage([inside(), row('07/10/2022')], window, 1, 2, ids)).toMatchObject({ cursor: '2' });
    expect(historyListPage([inside(), row('2026-03-09T00:00:00.000Z', { status: 7 })], window, 1, 2, ids)).not.toHaveProperty('cursor');
  });

  test('keeps the rows inside the window (from included, to excluded), counts the unreadable ones', () => {
    const page = historyListPage(
      [
        row('2026-03-10T13:00:00.000Z'),
        row('2026-03-10T12:59:59.999Z', { orderId: 1 }),
        inside({ orderId: 2, merchantRecognitionId: '' }),
        inside({ orderId: 3, status: 7 }),
        row(null),
        row('2026-03-10T11:00:00.000Z', { orderId: 4 }),
      ],
      window,
      1,
      500,
      ids,
    );
    expect(page.unreadable).toBe(2);
    expect(page.transactions.map((t) => t.providerOrderId)).toEqual(['1', '2', '4']);
    expect(page.transactions[1]).not.toHaveProperty('orderId');
    expect(page).not.toHaveProperty('cursor');
  });

  test('page numbers: none is the first; anything but a positive whole number is refused', () => {
    expect(historyPageOf(undefined)).toBe(1);
    expect(historyPageOf('7')).toBe(7);
    for (const cursor of ['0', '-1', '1.5', 'x', '', '01', '1234567890']) expect(() => historyPageOf(cursor)).toThrow(RangeError);
  });
});
