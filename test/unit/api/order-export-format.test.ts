/**
 * The rows of the order export, read back by csv-parse (a parser this project did not write): every
 * field survives quoting, and a cell a spreadsheet would evaluate is written as text.
 */
import { parse } from 'csv-parse/sync';
import { CSV_COLUMNS, csvField, csvHeader, csvRow, jsonLine } from '../../../src/api/order-export-format';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { OrderRecord, SellOrderRecord } from '../../../src/orders/search';

function record(overrides: Partial<OrderRecord['order']> = {}, extra: Partial<OrderRecord> = {}): OrderRecord {
  return {
    order: {
      id: '2b8c7c1e-4a8a-5b0e-9a55-0f5c1f7f2a10',
      status: 'complete',
      redirect_url: 'https://checkout.example/o/1',
      from_currency: 3,
      from_amount: '100.00',
      to_currency: 13,
      to_amount: '0.00123456',
      wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      payment_method: 'card',
      country_code: 'GB',
      external_user_id: 'user-1',
      external_order_id: 'order-1',
      created_at: '2026-11-30T01:00:00.000Z',
      updated_at: '2026-11-30T01:05:00.000Z',
      extras: { provider_order_id: 'P-1', provider_status: 'COMPLETED', transaction_hash: '0xabc', note: 'x' },
      ...overrides,
    },
    integratorId: 'dev',
    providerCode: 'sandbox',
    requestHash: 'h',
    sequence: 3,
    providerOrderId: 'P-1',
    quote: { total_fee_amount: '3.99' },
    requestedAt: '2026-11-30T00:59:59.200Z',
    ...extra,
  };
}

function sellRecord(overrides: Partial<SellOrderRecord['order']> = {}, extra: Partial<SellOrderRecord> = {}): SellOrderRecord {
  return {
    kind: 'off_ramp',
    order: {
      id: '7d3f1e2a-9c4b-5d6e-8f70-1a2b3c4d5e6f',
      kind: 'off_ramp',
      status: 'complete',
      redirect_url: 'https://checkout.example/s/1',
      from_currency: 13,
      from_amount: '0.01000000',
      to_currency: 3,
      to_amount: '512.30',
      refund_wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      payout_method: 'sepa',
      country_code: 'GB',
      external_user_id: 'user-2',
      external_order_id: 'sell-1',
      created_at: '2026-11-30T02:00:00.000Z',
      updated_at: '2026-11-30T02:30:00.000Z',
      extras: { provider_order_id: 'S-1', provider_status: 'PAID_OUT', note: 'y' },
      deposit: { address: 'bc1qdeposit0000000000000000000000000000xyz', network: 'bitcoin', amount: '0.01000000', memo: 'm-1' },
      transaction_hash: 'f00d',
      ...overrides,
    },
    integratorId: 'dev',
    providerCode: 'sandbox',
    requestHash: 'h',
    sequence: 4,
    providerOrderId: 'S-1',
    quote: { total_fee_amount: '4.10' },
    requestedAt: '2026-11-30T01:59:59.100Z',
    ...extra,
  };
}

const parsed = (text: string) => parse<Record<string, string>>(text, { columns: true, record_delimiter: '\r\n' });

test('a record holds every column, in the header’s order, read back as written', () => {
  const [row] = parsed(csvHeader() + csvRow(record(), currencyDictionary));
  expect(Object.keys(row!)).toEqual([...CSV_COLUMNS]);
  expect(row).toMatchObject({
    id: '2b8c7c1e-4a8a-5b0e-9a55-0f5c1f7f2a10',
    provider_code: 'sandbox',
    provider_order_id: 'P-1',
    status: 'complete',
    provider_status: 'COMPLETED',
    requested_at: '2026-11-30T00:59:59.200Z',
    from_currency: '3',
    from_currency_code: 'GBP',
    from_amount: '100.00',
    quoted_fee_amount: '3.99',
    to_currency: '13',
    to_currency_code: 'BTC',
    to_network: 'bitcoin',
    to_amount: '0.00123456',
    transaction_hash: '0xabc',
    discrepancies: '',
    extras: '{"note":"x"}',
    kind: 'on_ramp',
    payment_method: 'card',
    wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    payout_method: '',
    refund_wallet_address: '',
    deposit_address: '',
    deposit_memo: '',
    deposit_network: '',
    deposit_amount: '',
  });
});

test("a sell order's record says its kind and holds the crypto sent, the payout, the deposit and its transaction", () => {
  const [buy, sell] = parsed(csvHeader() + csvRow(record(), currencyDictionary) + csvRow(sellRecord(), currencyDictionary));
  expect(Object.keys(sell!)).toEqual([...CSV_COLUMNS]);
  expect(buy!.kind).toBe('on_ramp');
  expect(sell).toMatchObject({
    kind: 'off_ramp',
    id: '7d3f1e2a-9c4b-5d6e-8f70-1a2b3c4d5e6f',
    provider_order_id: 'S-1',
    provider_status: 'PAID_OUT',
    status: 'complete',
    from_currency: '13',
    from_currency_code: 'BTC',
    from_amount: '0.01000000',
    to_currency: '3',
    to_currency_code: 'GBP',
    to_amount: '512.30',
    quoted_fee_amount: '4.10',
    payout_method: 'sepa',
    payment_method: '',
    wallet_address: '',
    refund_wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    deposit_address: 'bc1qdeposit0000000000000000000000000000xyz',
    deposit_memo: 'm-1',
    deposit_network: 'bitcoin',
    deposit_amount: '0.01000000',
    transaction_hash: 'f00d',
    extras: '{"note":"y"}',
  });
  const [early] = parsed(csvHeader() + csvRow(sellRecord({ deposit: undefined, transaction_hash: undefined }), currencyDictionary));
  expect(early).toMatchObject({ kind: 'off_ramp', deposit_address: '', deposit_network: '', deposit_amount: '', transaction_hash: '' });
});

test('commas, quotes and line breaks inside fields survive', () => {
  const id = 'a,b "c"\r\nd';
  const [row] = parsed(csvHeader() + csvRow(record({ external_order_id: id, extras: { memo: 'line1\nline2, "q"' } }), currencyDictionary));
  expect(row!.external_order_id).toBe(id);
  expect(JSON.parse(row!.extras!)).toEqual({ memo: 'line1\nline2, "q"' });
});

test.each(['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx'])(
  'a field starting like a formula (%j) is written as text',
  (value) => {
    expect(csvField(value).replace(/^"/, '').startsWith("'")).toBe(true);
    const [row] = parsed(csvHeader() + csvRow(record({ external_user_id: value }), currencyDictionary));
    expect(row!.external_user_id).toBe(`'${value}`);
  },
);

test('fields a spreadsheet reads as they are stay unchanged', () => {
  for (const value of ['order-1', '100.00', 'a=b', 'x@y', '']) expect(csvField(value)).toBe(value);
});

test('discrepancies and the absence of a quote or references', () => {
  const [row] = parsed(
    csvHeader() +
      csvRow(
        record(
          { status: 'processing', extras: {}, discrepancies: [{ field: 'from_amount', ordered: '100.00', reported: '90.00' }] },
          { providerOrderId: undefined, quote: undefined },
        ),
        currencyDictionary,
      ),
  );
  expect(row).toMatchObject({
    provider_order_id: '',
    provider_status: '',
    quoted_fee_amount: '',
    transaction_hash: '',
    extras: '',
    discrepancies: 'from_amount: ordered 100.00, reported 90.00',
  });
});

test('a JSON line is the order with its provider and quoted fee, one line', () => {
  const line = jsonLine(record({ external_order_id: 'a\nb' }));
  expect(line.endsWith('\n')).toBe(true);
  expect(line.slice(0, -1)).not.toContain('\n');
  const parsedLine = JSON.parse(line);
  expect(parsedLine).toEqual({
    kind: 'on_ramp',
    ...record({ external_order_id: 'a\nb' }).order,
    provider_code: 'sandbox',
    requested_at: '2026-11-30T00:59:59.200Z',
    quoted_fee_amount: '3.99',
  });
  expect(JSON.parse(jsonLine(record({}, { quote: undefined })))).not.toHaveProperty('quoted_fee_amount');
});

test("a sell order's JSON line is the sell order as its route returns it, kind included", () => {
  expect(JSON.parse(jsonLine(sellRecord()))).toEqual({
    ...sellRecord().order,
    provider_code: 'sandbox',
    requested_at: '2026-11-30T01:59:59.100Z',
    quoted_fee_amount: '4.10',
  });
  expect(JSON.parse(jsonLine(sellRecord())).kind).toBe('off_ramp');
});
