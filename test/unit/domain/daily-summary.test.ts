import { currencyDictionary } from '../../../src/domain/currencies';
import {
  DailySummaryBuilder,
  STATUS_COLUMNS,
  SummaryRecordError,
  utcDayWindow,
  type SummarizedRecord,
} from '../../../src/domain/daily-summary';
import { ORDER_STATUSES, type OrderStatus } from '../../../src/domain/order-status';

const USD = 1;
const EUR = 2;
const JPY = 7;
const KWD = 52;
const BTC = 13;
const ETH = 14;
/** An id the dictionary does not have: its amounts keep the places they came with. */
const UNLISTED = 99_999;

let ids = 0;
const nextId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

interface Draft {
  integratorId?: string;
  providerCode?: string;
  status?: OrderStatus;
  from_currency?: number;
  from_amount?: string;
  to_currency?: number;
  to_amount?: string;
  fee?: string | null;
  discrepancies?: SummarizedRecord['order']['discrepancies'];
}

/** A completed 100.00 USD order of acme at the sandbox, for 0.001 BTC, whose offer quoted a 4.50 fee; `draft` changes it. */
function record(draft: Draft = {}): SummarizedRecord {
  const fee = draft.fee === undefined ? '4.50' : draft.fee;
  return {
    integratorId: draft.integratorId ?? 'acme',
    providerCode: draft.providerCode ?? 'sandbox',
    order: {
      id: nextId(),
      status: draft.status ?? 'complete',
      from_currency: draft.from_currency ?? USD,
      from_amount: draft.from_amount ?? '100.00',
      to_currency: draft.to_currency ?? BTC,
      to_amount: draft.to_amount ?? '0.00100000',
      ...(draft.discrepancies ? { discrepancies: draft.discrepancies } : {}),
    },
    ...(fee === null ? {} : { quote: { total_fee_amount: fee } }),
  };
}

function summarize(records: SummarizedRecord[]): DailySummaryBuilder {
  const builder = new DailySummaryBuilder(currencyDictionary);
  for (const r of records) builder.add(r);
  return builder;
}

const NOTHING = { completed: 0, failed: 0, expired: 0, refunded: 0, open: 0 };

describe('rows', () => {
  test('nothing added: no row, no total', () => {
    const builder = summarize([]);
    expect([builder.size, builder.rows(), builder.totals()]).toEqual([0, [], []]);
  });

  test('one completed order: its amount, its quoted fee and the crypto it delivered', () => {
    expect(summarize([record()]).rows()).toEqual([
      {
        integratorId: 'acme',
        providerCode: 'sandbox',
        fiatCurrency: USD,
        orders: 1,
        ...NOTHING,
        completed: 1,
        completedVolume: '100.00',
        quotedFees: '4.50',
        completedWithDiscrepancies: 0,
        completedWithoutQuotedFee: 0,
        cryptoDelivered: [{ currency: BTC, amount: '0.00100000' }],
      },
    ]);
  });

  test('every status falls in exactly one column, and the columns add up to the orders', () => {
    const [row] = summarize(ORDER_STATUSES.map((status) => record({ status }))).rows();
    expect(row).toMatchObject({ orders: ORDER_STATUSES.length, completed: 1, failed: 1, expired: 1, refunded: 1, open: 4 });
    expect(STATUS_COLUMNS.reduce((sum, column) => sum + row![column], 0)).toBe(row!.orders);
  });

  test.each<OrderStatus>(['created', 'pending', 'hold', 'processing', 'failed', 'expired', 'refunded'])(
    'a %s order is counted, and adds nothing to the amounts',
    (status) => {
      const [row] = summarize([record({ status })]).rows();
      expect(row).toMatchObject({
        orders: 1,
        completed: 0,
        completedVolume: '0.00',
        quotedFees: '0.00',
        completedWithDiscrepancies: 0,
        completedWithoutQuotedFee: 0,
        cryptoDelivered: [],
      });
    },
  );

  test('one row per integrator, provider and fiat currency, sorted by each in turn (by code unit, not by locale)', () => {
    const records = [
      record({ integratorId: 'zeta', providerCode: 'sandbox' }),
      record({ integratorId: 'acme', providerCode: 'transak', from_currency: EUR, from_amount: '50.00' }),
      record({ integratorId: 'acme', providerCode: 'transak', from_currency: USD }),
      record({ integratorId: 'Acme', providerCode: 'moonpay' }),
      record({ integratorId: 'acme', providerCode: 'moonpay', status: 'failed' }),
      record({ integratorId: 'acme', providerCode: 'moonpay' }),
    ];
    const keys = summarize(records)
      .rows()
      .map((r) => [r.integratorId, r.providerCode, r.fiatCurrency, r.orders]);
    expect(keys).toEqual([
      ['Acme', 'moonpay', USD, 1],
      ['acme', 'moonpay', USD, 2],
      ['acme', 'transak', USD, 1],
      ['acme', 'transak', EUR, 1],
      ['zeta', 'sandbox', USD, 1],
    ]);
  });

  test('the order records come in does not matter', () => {
    const records = [
      record({ integratorId: 'b', from_amount: '0.10' }),
      record({ integratorId: 'a', from_amount: '0.20', status: 'expired' }),
      record({ integratorId: 'a', from_amount: '0.30', to_currency: ETH, to_amount: '0.5' }),
      record({ integratorId: 'b', from_currency: EUR, from_amount: '7.25', fee: null }),
      record({ integratorId: 'a', from_amount: '0.40' }),
    ];
    const forward = summarize(records);
    const backward = summarize([...records].reverse());
    expect(backward.rows()).toEqual(forward.rows());
    expect(backward.totals()).toEqual(forward.totals());
  });
});

describe('amounts', () => {
  test('summed exactly: 0.10 + 0.20 is 0.30, and sums past 2^53 keep every digit', () => {
    const cents = summarize([record({ from_amount: '0.10', fee: '0.01' }), record({ from_amount: '0.20', fee: '0.02' })]).rows()[0];
    expect([cents!.completedVolume, cents!.quotedFees]).toEqual(['0.30', '0.03']);
    const huge = '999999999999999999.99';
    const [row] = summarize([record({ from_amount: huge }), record({ from_amount: huge }), record({ from_amount: '0.02' })]).rows();
    expect(row!.completedVolume).toBe('2000000000000000000.00');
  });

  test("written with the currency's places, or more when an amount had more, never rounded", () => {
    expect(summarize([record({ from_currency: JPY, from_amount: '15000', fee: '300' })]).rows()[0]).toMatchObject({
      completedVolume: '15000',
      quotedFees: '300',
    });
    expect(summarize([record({ from_currency: KWD, from_amount: '10.5', fee: '0.25' })]).rows()[0]).toMatchObject({
      completedVolume: '10.500',
      quotedFees: '0.250',
    });
    expect(summarize([record({ from_amount: '10', fee: '0.125' }), record({ from_amount: '0.001' })]).rows()[0]).toMatchObject({
      completedVolume: '10.001',
      quotedFees: '4.625',
    });
    expect(summarize([record({ from_currency: UNLISTED, from_amount: '12.5', fee: '1' })]).rows()[0]).toMatchObject({
      completedVolume: '12.5',
      quotedFees: '1',
    });
    expect(summarize([record({ status: 'failed', from_currency: UNLISTED })]).rows()[0]).toMatchObject({
      completedVolume: '0',
      quotedFees: '0',
    });
  });

  test('crypto delivered per crypto currency, by id, at its places', () => {
    const [row] = summarize([
      record({ to_currency: ETH, to_amount: '0.5' }),
      record({ to_currency: BTC, to_amount: '0.00100000' }),
      record({ to_currency: ETH, to_amount: '0.25' }),
      record({ to_currency: BTC, to_amount: '0.002', status: 'refunded' }),
      record({ to_currency: BTC, to_amount: '0.00012345' }),
    ]).rows();
    expect(row!.cryptoDelivered).toEqual([
      { currency: BTC, amount: '0.00112345' },
      { currency: ETH, amount: '0.750000000000000000' },
    ]);
  });

  test('an order without a kept quote completes without a fee, and is counted so', () => {
    const [row] = summarize([record({ fee: null }), record({ fee: '1.25' })]).rows();
    expect(row).toMatchObject({ completed: 2, completedVolume: '200.00', quotedFees: '1.25', completedWithoutQuotedFee: 1 });
  });
});

describe('an order paid differently than requested (discrepancies)', () => {
  test('another amount: the amount paid counts, with the fee its offer quoted, and the order is counted as such', () => {
    const [row] = summarize([
      record({ from_amount: '98.00', discrepancies: [{ field: 'from_amount', ordered: '100.00', reported: '98.00' }] }),
      record(),
    ]).rows();
    expect(row).toMatchObject({
      completed: 2,
      completedVolume: '198.00',
      quotedFees: '9.00',
      completedWithDiscrepancies: 1,
      completedWithoutQuotedFee: 0,
    });
  });

  test("another currency: the order is in the paid currency's row with what was paid, and its fee (quoted in the requested currency) is left out, counted", () => {
    const paidInEur = record({
      from_currency: EUR,
      from_amount: '92.00',
      fee: '4.50',
      discrepancies: [
        { field: 'from_currency', ordered: String(USD), reported: String(EUR) },
        { field: 'from_amount', ordered: '100.00', reported: '92.00' },
      ],
    });
    const rows = summarize([paidInEur, record()]).rows();
    expect(
      rows.map((r) => [
        r.fiatCurrency,
        r.orders,
        r.completedVolume,
        r.quotedFees,
        r.completedWithDiscrepancies,
        r.completedWithoutQuotedFee,
      ]),
    ).toEqual([
      [USD, 1, '100.00', '4.50', 0, 0],
      [EUR, 1, '92.00', '0.00', 1, 1],
    ]);
  });

  test('an order not completed counts only by status, whatever its discrepancies', () => {
    const [row] = summarize([
      record({ status: 'processing', from_currency: EUR, discrepancies: [{ field: 'from_currency', ordered: '1', reported: '2' }] }),
    ]).rows();
    expect(row).toMatchObject({ fiatCurrency: EUR, open: 1, completedWithDiscrepancies: 0, completedWithoutQuotedFee: 0 });
  });
});

describe('totals', () => {
  test('per fiat currency, across integrators and providers; amounts of different currencies never added together', () => {
    const builder = summarize([
      record({ integratorId: 'a', providerCode: 'moonpay', from_amount: '10.00', fee: '1.00' }),
      record({ integratorId: 'b', providerCode: 'sandbox', from_amount: '20.00', fee: null }),
      record({ integratorId: 'b', providerCode: 'sandbox', status: 'failed' }),
      record({
        integratorId: 'a',
        providerCode: 'sandbox',
        from_currency: EUR,
        from_amount: '5.00',
        fee: '0.50',
        to_currency: ETH,
        to_amount: '1',
      }),
    ]);
    expect(builder.totals()).toEqual([
      {
        fiatCurrency: USD,
        orders: 3,
        ...NOTHING,
        completed: 2,
        failed: 1,
        completedVolume: '30.00',
        quotedFees: '1.00',
        completedWithDiscrepancies: 0,
        completedWithoutQuotedFee: 1,
        cryptoDelivered: [{ currency: BTC, amount: '0.00200000' }],
      },
      {
        fiatCurrency: EUR,
        orders: 1,
        ...NOTHING,
        completed: 1,
        completedVolume: '5.00',
        quotedFees: '0.50',
        completedWithDiscrepancies: 0,
        completedWithoutQuotedFee: 0,
        cryptoDelivered: [{ currency: ETH, amount: '1.000000000000000000' }],
      },
    ]);
  });

  test("the totals add up the rows' figures", () => {
    const builder = summarize(
      ORDER_STATUSES.flatMap((status, i) => [
        record({ status, integratorId: `i${i % 3}`, from_amount: `${i}.0${i}` }),
        record({ status, providerCode: 'moonpay', from_currency: EUR, fee: i % 2 ? null : '0.3' }),
      ]),
    );
    const rows = builder.rows();
    for (const total of builder.totals()) {
      const of = rows.filter((r) => r.fiatCurrency === total.fiatCurrency);
      expect(total.orders).toBe(of.reduce((sum, r) => sum + r.orders, 0));
      for (const column of STATUS_COLUMNS) expect(total[column]).toBe(of.reduce((sum, r) => sum + r[column], 0));
      expect(total.completedWithoutQuotedFee).toBe(of.reduce((sum, r) => sum + r.completedWithoutQuotedFee, 0));
    }
    expect(builder.totals().map((t) => [t.fiatCurrency, t.completedVolume])).toEqual([
      [USD, '4.04'],
      [EUR, '100.00'],
    ]);
  });
});

describe('a record that cannot be counted fails the summary, and counts nothing of itself', () => {
  test.each<[string, Draft, string]>([
    ['an amount in exponent notation', { from_amount: '1e3' }, 'from_amount'],
    ['a negative amount', { from_amount: '-5.00' }, 'from_amount'],
    ['an empty amount', { from_amount: '' }, 'from_amount'],
    ['an amount with spaces', { from_amount: ' 5.00' }, 'from_amount'],
    ['a crypto amount that is no decimal', { to_amount: 'NaN' }, 'to_amount'],
    ['a quoted fee that is no decimal', { fee: 'four' }, 'quote.total_fee_amount'],
    ['an unknown status', { status: 'lost' as OrderStatus }, 'status'],
    ['a status inherited from Object', { status: 'toString' as OrderStatus }, 'status'],
    ['a fiat currency that is no id', { from_currency: 1.5 }, 'from_currency'],
    ['a crypto currency that is no id', { to_currency: Number.NaN }, 'to_currency'],
  ])('%s', (_what, draft, field) => {
    const builder = summarize([record()]);
    const before = builder.rows();
    const bad = record(draft);
    let thrown: unknown;
    try {
      builder.add(bad);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SummaryRecordError);
    expect(thrown).toMatchObject({ orderId: bad.order.id, field, message: `order ${bad.order.id}: its ${field} cannot be counted` });
    expect(builder.rows()).toEqual(before);
    expect(builder.size).toBe(1);
  });

  test('an amount an order not completed does not add is not read', () => {
    expect(summarize([record({ status: 'failed', from_amount: '', to_amount: 'x', fee: 'y' })]).rows()[0]).toMatchObject({ failed: 1 });
  });
});

describe('utcDayWindow', () => {
  test('a UTC day, from its 00:00 (included) to the next 00:00 (excluded)', () => {
    expect(utcDayWindow('2026-11-30')).toEqual({ fromMs: Date.parse('2026-11-30T00:00:00Z'), toMs: Date.parse('2026-12-01T00:00:00Z') });
    expect(utcDayWindow('2026-12-31')).toEqual({ fromMs: Date.parse('2026-12-31T00:00:00Z'), toMs: Date.parse('2027-01-01T00:00:00Z') });
    expect(utcDayWindow('2028-02-29')?.toMs).toBe(Date.parse('2028-03-01T00:00:00Z'));
    expect(utcDayWindow('1970-01-01')?.fromMs).toBe(0);
    expect(utcDayWindow('9999-12-31')?.fromMs).toBe(Date.UTC(9999, 11, 31));
  });

  test.each([
    '2026-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-11-31',
    '2026-1-01',
    '26-11-30',
    '1969-12-31',
    '2026-11-30T00:00:00Z',
    ' 2026-11-30',
    '',
  ])('%j is no day', (date) => {
    expect(utcDayWindow(date)).toBeUndefined();
  });
});
