/**
 * The daily summary's answers: the JSON body matching its documented schema, and the CSV read back
 * by csv-parse (a parser this project did not write), one record per row, every cell a spreadsheet
 * would evaluate written as text.
 */
import { parse } from 'csv-parse/sync';
import { SUMMARY_CSV_COLUMNS, summaryBody, summaryCsv } from '../../../src/api/daily-summary-format';
import { DailySummarySchema } from '../../../src/api/schemas';
import { currencyDictionary } from '../../../src/domain/currencies';
import { DailySummaryBuilder, type SummarizedRecord } from '../../../src/domain/daily-summary';
import type { DailySummary } from '../../../src/operators/daily-summary';

const USD = 1;
const EUR = 2;
const BTC = 13;
const USDT_TRON = 16;
const UNLISTED = 99_999;
const FROM = Date.UTC(2026, 10, 29);

let ids = 0;
function record(
  integratorId: string,
  providerCode: string,
  overrides: Partial<SummarizedRecord['order']> = {},
  fee = '1.50',
): SummarizedRecord {
  return {
    integratorId,
    providerCode,
    quote: { total_fee_amount: fee },
    order: {
      id: `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
      status: 'complete',
      from_currency: USD,
      from_amount: '100.00',
      to_currency: BTC,
      to_amount: '0.00100000',
      ...overrides,
    },
  };
}

function summaryOf(records: SummarizedRecord[]): DailySummary {
  const builder = new DailySummaryBuilder(currencyDictionary);
  for (const r of records) builder.add(r);
  return {
    date: '2026-11-29',
    fromMs: FROM,
    toMs: FROM + 86_400_000,
    generatedAtMs: FROM + 90_000_000,
    providerCodes: ['moonpay', 'sandbox'],
    rows: builder.rows(),
    totals: builder.totals(),
  };
}

const parsed = (text: string) => parse<Record<string, string>>(text, { columns: true, record_delimiter: '\r\n' });

const SUMMARY = summaryOf([
  record('acme', 'sandbox'),
  record('acme', 'sandbox', { status: 'failed' }),
  record('acme', 'sandbox', { to_currency: USDT_TRON, to_amount: '95.5' }),
  record('acme', 'moonpay', { from_currency: EUR, from_amount: '80.00' }, '2.00'),
  record('zeta', 'sandbox', { status: 'pending' }),
]);

test('JSON: the window, when it was read, the filter, rows and totals, with tickers beside ids; as documented', () => {
  const body = summaryBody(SUMMARY, undefined, currencyDictionary);
  expect(DailySummarySchema.parse(body)).toEqual(body);
  expect(body).toMatchObject({
    date: '2026-11-29',
    from: '2026-11-29T00:00:00.000Z',
    to: '2026-11-30T00:00:00.000Z',
    generated_at: '2026-11-30T01:00:00.000Z',
    integrator_id: null,
    provider_codes: ['moonpay', 'sandbox'],
  });
  expect(body.rows[0]).toEqual({
    integrator_id: 'acme',
    provider_code: 'moonpay',
    fiat_currency: EUR,
    fiat_currency_code: 'EUR',
    orders: 1,
    completed: 1,
    failed: 0,
    expired: 0,
    refunded: 0,
    open: 0,
    completed_volume: '80.00',
    quoted_fees: '2.00',
    completed_with_discrepancies: 0,
    completed_without_quoted_fee: 0,
    crypto_delivered: [{ currency: BTC, currency_code: 'BTC', network: 'bitcoin', amount: '0.00100000' }],
  });
  expect(body.rows.map((r) => [r.integrator_id, r.provider_code, r.fiat_currency_code, r.orders])).toEqual([
    ['acme', 'moonpay', 'EUR', 1],
    ['acme', 'sandbox', 'USD', 3],
    ['zeta', 'sandbox', 'USD', 1],
  ]);
  expect(body.totals.map((t) => [t.fiat_currency_code, t.orders, t.completed, t.completed_volume, t.quoted_fees])).toEqual([
    ['USD', 4, 2, '200.00', '3.00'],
    ['EUR', 1, 1, '80.00', '2.00'],
  ]);
  expect(summaryBody(SUMMARY, 'acme', currencyDictionary).integrator_id).toBe('acme');
});

test('CSV: a header, then one record per row, currencies by ticker, amounts as decimal strings', () => {
  const text = summaryCsv(SUMMARY, currencyDictionary);
  expect(text.startsWith(`${SUMMARY_CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
  const rows = parsed(text);
  expect(rows).toHaveLength(3);
  expect(Object.keys(rows[0]!)).toEqual([...SUMMARY_CSV_COLUMNS]);
  expect(rows[1]).toEqual({
    date: '2026-11-29',
    integrator_id: 'acme',
    provider_code: 'sandbox',
    fiat_currency: String(USD),
    fiat_currency_code: 'USD',
    orders: '3',
    completed: '2',
    failed: '1',
    expired: '0',
    refunded: '0',
    open: '0',
    completed_volume: '200.00',
    quoted_fees: '3.00',
    completed_with_discrepancies: '0',
    completed_without_quoted_fee: '0',
    crypto_delivered: 'BTC/bitcoin 0.00100000; USDT/tron 95.500000',
  });
});

test('a day without orders: the header alone', () => {
  expect(parsed(summaryCsv(summaryOf([]), currencyDictionary))).toEqual([]);
  expect(summaryCsv(summaryOf([]), currencyDictionary)).toBe(`${SUMMARY_CSV_COLUMNS.join(',')}\r\n`);
});

test('a currency the dictionary does not have: no ticker (empty in CSV, null in JSON), its id kept', () => {
  const summary = summaryOf([record('acme', 'sandbox', { from_currency: UNLISTED, to_currency: UNLISTED + 1, to_amount: '2' })]);
  const [row] = parsed(summaryCsv(summary, currencyDictionary));
  expect(row).toMatchObject({ fiat_currency: String(UNLISTED), fiat_currency_code: '', crypto_delivered: `#${UNLISTED + 1} 2` });
  expect(summaryBody(summary, undefined, currencyDictionary).rows[0]).toMatchObject({
    fiat_currency_code: null,
    crypto_delivered: [{ currency: UNLISTED + 1, currency_code: null, network: null, amount: '2' }],
  });
});

test('a cell a spreadsheet would evaluate is written as text', () => {
  // Integrator ids and provider codes are checked where they are configured; the guard is there for every cell anyway.
  const summary = summaryOf([record('=HYPERLINK("x")', '-sandbox'), record('@acme', '+moonpay')]);
  const rows = parsed(summaryCsv(summary, currencyDictionary));
  expect(rows.map((r) => [r.integrator_id, r.provider_code])).toEqual([
    ['\'=HYPERLINK("x")', "'-sandbox"],
    ["'@acme", "'+moonpay"],
  ]);
});
