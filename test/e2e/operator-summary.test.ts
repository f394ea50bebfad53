/**
 * GET /api/operator/summaries/daily against a real Temporal dev server, with encryption keys set
 * (memos encrypted): orders of two integrators at two providers (the sandbox and MoonPay's
 * simulator), completed, failed and left open, one paid with another amount and one in another
 * currency; the summary's JSON and CSV (read back by csv-parse) hold exactly their counts, volumes
 * and quoted fees; filters; refusals (no operator key, an integrator's key, a bad date, a day not
 * ended, a namespace whose retention may have deleted the day's orders).
 *
 * The orders are made today, and a day is summarized only once it has ended: the stack's operator
 * clock (BuildApiOverrides.operatorClock) stands just past the moment today's summary may be asked
 * for, while everything else runs on the real clock.
 */
import { msToTs } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { parse } from 'csv-parse/sync';
import { SUMMARY_CSV_COLUMNS } from '../../src/api/daily-summary-format';
import { sha256Hex } from '../../src/config/integrators';
import { DEFAULT_DEV_OPERATOR_KEY } from '../../src/config/operators';
import type { LocalStack } from '../../src/dev/local-stack';
import { decimal } from '../../src/domain/money';
import { TEST_API_KEY, TEST_ENCRYPTION_KEYS, testConfig } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { expectConforms } from '../helpers/openapi';
import { checkout, draftOrder, EUR, offersQuery, USD, waitForStatus, type OrderDraft } from '../helpers/orders';
import { JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const OTHER_KEY = 'obk_test_other_00000000000000000000000000';
const ENV = { ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS };
const DAY_MS = 86_400_000;
const PATH = '/api/operator/summaries/daily';
const MOONPAY = JOURNEYS.find((journey) => journey.code === 'moonpay')!;

let env: TestWorkflowEnvironment;
let stack: LocalStack;
/** Today (UTC), the day every order here is requested in. */
let today: string;
let yesterday: string;
let tomorrow: string;
/** The first answer, while the namespace kept closed workflows a day (the dev server's default). */
let underShortRetention: Response;

type Outcome = 'complete' | 'failed' | 'open';

interface Placed {
  id: string;
  integratorId: string;
  providerCode: string;
  outcome: Outcome;
  /** The total fee of the offer the order was placed against. */
  fee: string;
  /** The order as the status endpoint shows it once it reached its outcome. */
  final?: Record<string, any>;
}

const placed: Placed[] = [];

async function offerFee(draft: OrderDraft, apiKey: string): Promise<string> {
  // A provider may be left out for a passing reason (its first quote slow on a loaded machine): asked again, as an integrator would.
  const found = await eventually(async () => {
    const offers = await callApi(stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}&include_errors=true`, { apiKey });
    const entry = offers.body?.[draft.provider_code];
    return entry && !('error' in entry) ? (entry.total_fee_amount as string) : undefined;
  }, `a ${draft.provider_code} offer`);
  return found;
}

/** Places the order after its offer, then drives it to `outcome` at its provider, paid as `paid` says. */
async function place(
  draft: OrderDraft,
  apiKey: string,
  integratorId: string,
  outcome: Outcome,
  paid: { paidFiatAmount?: string; paidFiatCurrency?: string } = {},
): Promise<void> {
  const fee = await offerFee(draft, apiKey);
  const res = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft, apiKey });
  expect(res.status).toBe(200);
  placed.push({ id: res.body.id, integratorId, providerCode: draft.provider_code, outcome, fee });
  if (outcome === 'open') return;
  const faults = stack.simulators.get(draft.provider_code).faults;
  Object.assign(faults, paid);
  try {
    await fetch(res.body.redirect_url);
    expect((await checkout(res.body.redirect_url, outcome === 'complete' ? 'pay' : 'fail')).status).toBe(200);
  } finally {
    Object.assign(faults, { paidFiatAmount: '', paidFiatCurrency: '' });
  }
}

const operatorGet = (query: string, headers: Record<string, string> = { authorization: `Bearer ${DEFAULT_DEV_OPERATOR_KEY}` }) =>
  fetch(`${stack.apiUrl}${PATH}?${query}`, { headers });

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  // Every order of the file in one UTC day: a run starting just before midnight waits for the next day.
  const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
  if (untilMidnight < 5 * 60_000) await new Promise((r) => setTimeout(r, untilMidnight + 1000));
  const now = Date.now();
  today = utcDate(now);
  yesterday = utcDate(now - DAY_MS);
  tomorrow = utcDate(now + DAY_MS);
  const todayEnds = Date.parse(`${tomorrow}T00:00:00Z`);

  env = await startTemporal();
  const base = testConfig({}, ENV);
  stack = await startTestStack(env, {
    env: ENV,
    config: {
      integrators: [...base.integrators, { id: 'other', name: 'Other', api_key_sha256: [sha256Hex(OTHER_KEY)] }],
      // Two orders a page: the walk goes page after page.
      dailySummaryLimits: { ...base.dailySummaryLimits, pageSize: 2 },
    },
    // Today as if it had ended as long ago as its summary needs; the real clock once that is past.
    operatorClock: () => Math.max(Date.now(), todayEnds + base.dailySummaryLimits.settleMs),
  });

  const dev = base.integrators[0]!.id;
  expect(dev).toBe('dev');
  const sandbox = (overrides: Partial<OrderDraft> = {}) => draftOrder({ ip: '127.0.0.1', ...overrides });
  await place(sandbox(), TEST_API_KEY, dev, 'complete');
  await place(sandbox(), TEST_API_KEY, dev, 'complete', { paidFiatAmount: '98.00' });
  await place(sandbox(), TEST_API_KEY, dev, 'complete', { paidFiatCurrency: 'EUR' });
  await place(sandbox(), TEST_API_KEY, dev, 'failed');
  await place(sandbox(), TEST_API_KEY, dev, 'open');
  await place(journeyOrder(MOONPAY), TEST_API_KEY, dev, 'complete');
  await place(journeyOrder(MOONPAY), TEST_API_KEY, dev, 'failed');
  await place(sandbox({ from_amount: '50.00' }), OTHER_KEY, 'other', 'complete');
  await place(journeyOrder(MOONPAY), OTHER_KEY, 'other', 'open');
  for (const order of placed) {
    const apiKey = order.integratorId === 'other' ? OTHER_KEY : TEST_API_KEY;
    if (order.outcome !== 'open')
      order.final = await waitForStatus(stack.apiUrl, order.providerCode, order.id, order.outcome, 30_000, apiKey);
    else order.final = (await callApi(stack.apiUrl, `/api/on_ramp/orders/${order.providerCode}?code=${order.id}`, { apiKey })).body;
  }
  expect(placed.filter((o) => o.outcome === 'open').map((o) => o.final!.status)).toEqual([
    expect.stringMatching(/^(created|pending)$/),
    expect.stringMatching(/^(created|pending)$/),
  ]);

  // The dev server keeps closed workflows a day: a completed order of today may be deleted by tomorrow, so today is refused.
  underShortRetention = await operatorGet(`date=${today}`);
  const namespace = stack.config.temporal.namespace;
  await env.client.workflowService.updateNamespace({ namespace, config: { workflowExecutionRetentionTtl: msToTs(30 * DAY_MS) } });
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

/** What the summary must hold: the placed orders counted as docs/operations.md says, from what the status endpoint shows. */
function expectedRows(): Record<string, any>[] {
  const rows = new Map<string, Record<string, any>>();
  for (const order of placed) {
    const final = order.final!;
    const key = `${order.integratorId}/${order.providerCode}/${final.from_currency}`;
    const row = rows.get(key) ?? {
      integrator_id: order.integratorId,
      provider_code: order.providerCode,
      fiat_currency: final.from_currency,
      orders: 0,
      completed: 0,
      failed: 0,
      expired: 0,
      refunded: 0,
      open: 0,
      volume: decimal(0),
      fees: decimal(0),
      completed_with_discrepancies: 0,
      completed_without_quoted_fee: 0,
    };
    rows.set(key, row);
    row.orders++;
    row[order.outcome === 'complete' ? 'completed' : order.outcome]++;
    if (order.outcome !== 'complete') continue;
    row.volume = row.volume.plus(final.from_amount);
    const currencyDiffers = (final.discrepancies ?? []).some((d: { field: string }) => d.field === 'from_currency');
    if (currencyDiffers) row.completed_without_quoted_fee++;
    else row.fees = row.fees.plus(order.fee);
    if (final.discrepancies) row.completed_with_discrepancies++;
  }
  return [...rows.values()]
    .sort(
      (a, b) =>
        a.integrator_id.localeCompare(b.integrator_id) ||
        a.provider_code.localeCompare(b.provider_code) ||
        a.fiat_currency - b.fiat_currency,
    )
    .map(({ volume, fees, ...row }) => ({ ...row, completed_volume: volume.toFixed(2), quoted_fees: fees.toFixed(2) }));
}

test("a namespace keeping closed orders a day (the dev server's default) cannot keep a whole day: refused, naming date", async () => {
  expect(underShortRetention.status).toBe(400);
  expect(underShortRetention.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = (await underShortRetention.json()) as any;
  expect(problem).toMatchObject({ code: 'validation_error', errors: [{ path: 'date', message: expect.stringContaining('retention') }] });
  expect(problem.detail).toContain('1 day(s)');
});

test('the orders the providers settled are as driven: the discrepancies the summary counts are real', () => {
  const [, lessPaid, otherCurrency] = placed;
  expect(lessPaid!.final).toMatchObject({ status: 'complete', from_amount: '98.00', from_currency: USD });
  expect(lessPaid!.final!.discrepancies).toEqual([{ field: 'from_amount', ordered: '100.00', reported: '98.00' }]);
  expect(otherCurrency!.final).toMatchObject({ status: 'complete', from_currency: EUR });
  expect(otherCurrency!.final!.discrepancies).toEqual([expect.objectContaining({ field: 'from_currency', ordered: String(USD) })]);
});

test('JSON: one row per integrator, provider and fiat currency, with exactly their counts, volumes and quoted fees', async () => {
  const expected = expectedRows();
  const counted = (summary: any) => summary.rows.map(({ fiat_currency_code: _code, crypto_delivered: _crypto, ...row }: any) => row);
  // Visibility follows the orders' last changes within moments (the last mismatch is the failure's message).
  const body = await eventually(async () => {
    const res = await operatorGet(`date=${today}`);
    expect(res.status).toBe(200);
    const summary = (await res.json()) as any;
    expect(counted(summary)).toEqual(expected);
    return summary;
  }, 'the summary to count every order as it ended');
  expectConforms('GET', PATH, 200, body);
  expect(body).toMatchObject({
    date: today,
    from: `${today}T00:00:00.000Z`,
    to: `${tomorrow}T00:00:00.000Z`,
    integrator_id: null,
    provider_codes: expect.arrayContaining(['sandbox', 'moonpay', 'transak']),
  });
  expect(Date.parse(body.generated_at)).toBeGreaterThanOrEqual(Date.parse(body.to));

  // The figures spelt out, beside the model above.
  const row = (integrator: string, provider: string, currency: number) =>
    body.rows.find((r: any) => r.integrator_id === integrator && r.provider_code === provider && r.fiat_currency === currency);
  const [full, lessPaid, , , , moonpayPaid] = placed;
  expect(row('dev', 'sandbox', USD)).toEqual({
    integrator_id: 'dev',
    provider_code: 'sandbox',
    fiat_currency: USD,
    fiat_currency_code: 'USD',
    orders: 4,
    completed: 2,
    failed: 1,
    expired: 0,
    refunded: 0,
    open: 1,
    completed_volume: '198.00',
    quoted_fees: decimal(full!.fee).plus(lessPaid!.fee).toFixed(2),
    completed_with_discrepancies: 1,
    completed_without_quoted_fee: 0,
    crypto_delivered: [
      {
        currency: 13,
        currency_code: 'BTC',
        network: 'bitcoin',
        amount: decimal(full!.final!.to_amount).plus(lessPaid!.final!.to_amount).toFixed(8),
      },
    ],
  });
  expect(row('dev', 'sandbox', EUR)).toMatchObject({
    fiat_currency_code: 'EUR',
    orders: 1,
    completed: 1,
    quoted_fees: '0.00',
    completed_with_discrepancies: 1,
    completed_without_quoted_fee: 1,
  });
  expect(row('dev', 'moonpay', USD)).toMatchObject({
    orders: 2,
    completed: 1,
    failed: 1,
    completed_volume: decimal(moonpayPaid!.final!.from_amount).toFixed(2),
    quoted_fees: decimal(moonpayPaid!.fee).toFixed(2),
  });
  expect(row('other', 'sandbox', USD)).toMatchObject({ orders: 1, completed: 1, completed_volume: '50.00' });
  expect(row('other', 'moonpay', USD)).toMatchObject({ orders: 1, open: 1, completed_volume: '0.00', quoted_fees: '0.00' });

  expect(body.totals.map((t: any) => [t.fiat_currency_code, t.orders, t.completed, t.failed, t.open])).toEqual([
    ['USD', 8, 4, 2, 2],
    ['EUR', 1, 1, 0, 0],
  ]);
  const usd = body.totals[0];
  const usdRows = body.rows.filter((r: any) => r.fiat_currency === USD);
  expect(usd.completed_volume).toBe(usdRows.reduce((sum: any, r: any) => sum.plus(r.completed_volume), decimal(0)).toFixed(2));
  expect(usd.quoted_fees).toBe(usdRows.reduce((sum: any, r: any) => sum.plus(r.quoted_fees), decimal(0)).toFixed(2));
});

test('CSV: the same rows, a header first, currencies by ticker, read back by csv-parse', async () => {
  const json = (await (await operatorGet(`date=${today}`)).json()) as any;
  const res = await operatorGet(`date=${today}&format=csv`);
  expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8; header=present']);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="daily-summary-${today}.csv"`);
  const text = await res.text();
  expectConforms('GET', PATH, 200, text, res.headers.get('content-type')!);
  expect(text.split('\r\n')[0]).toBe(SUMMARY_CSV_COLUMNS.join(','));
  const rows = parse<Record<string, string>>(text, { columns: true, record_delimiter: '\r\n' });
  expect(rows).toEqual(
    json.rows.map((r: any) => ({
      date: today,
      integrator_id: r.integrator_id,
      provider_code: r.provider_code,
      fiat_currency: String(r.fiat_currency),
      fiat_currency_code: r.fiat_currency_code,
      orders: String(r.orders),
      completed: String(r.completed),
      failed: String(r.failed),
      expired: String(r.expired),
      refunded: String(r.refunded),
      open: String(r.open),
      completed_volume: r.completed_volume,
      quoted_fees: r.quoted_fees,
      completed_with_discrepancies: String(r.completed_with_discrepancies),
      completed_without_quoted_fee: String(r.completed_without_quoted_fee),
      crypto_delivered: r.crypto_delivered.map((c: any) => `${c.currency_code}/${c.network} ${c.amount}`).join('; '),
    })),
  );
  expect(rows.find((r) => r.integrator_id === 'dev' && r.fiat_currency_code === 'USD' && r.provider_code === 'sandbox')).toMatchObject({
    orders: '4',
    completed_volume: '198.00',
  });
});

test("filters: one integrator's rows, one provider's rows", async () => {
  const expected = expectedRows();
  const other = (await (await operatorGet(`date=${today}&integrator_id=other`)).json()) as any;
  expect(other.integrator_id).toBe('other');
  expect(other.rows.map((r: any) => [r.integrator_id, r.provider_code, r.orders])).toEqual(
    expected.filter((r) => r.integrator_id === 'other').map((r) => [r.integrator_id, r.provider_code, r.orders]),
  );
  const moonpay = (await (await operatorGet(`date=${today}&provider_code=moonpay`)).json()) as any;
  expect(moonpay.provider_codes).toEqual(['moonpay']);
  expect(moonpay.rows.map((r: any) => [r.integrator_id, r.provider_code, r.orders])).toEqual(
    expected.filter((r) => r.provider_code === 'moonpay').map((r) => [r.integrator_id, r.provider_code, r.orders]),
  );
  const nobody = (await (await operatorGet(`date=${today}&integrator_id=nobody&format=csv`)).text()).split('\r\n');
  expect(nobody).toEqual([SUMMARY_CSV_COLUMNS.join(','), '']);
});

test('a day without orders: no rows, no totals', async () => {
  const res = await operatorGet(`date=${yesterday}`);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ date: yesterday, rows: [], totals: [] });
});

test("without an operator's key, with an integrator's, or a wrong one: 401", async () => {
  const attempts: Record<string, string>[] = [
    {},
    { 'x-api-key': TEST_API_KEY },
    { authorization: `Bearer ${TEST_API_KEY}` },
    { 'x-operator-key': TEST_API_KEY },
    { authorization: `Bearer ${DEFAULT_DEV_OPERATOR_KEY}x` },
  ];
  for (const headers of attempts) {
    const res = await operatorGet(`date=${today}`, headers);
    expect([headers, res.status, res.headers.get('www-authenticate')]).toEqual([headers, 401, 'Bearer realm="onramp-operator"']);
    expect(((await res.json()) as any).code).toBe('unauthorized');
  }
  const byHeader = await operatorGet(`date=${today}`, { 'x-operator-key': DEFAULT_DEV_OPERATOR_KEY });
  expect(byHeader.status).toBe(200);
});

test.each([
  ['', 'date'],
  ['date=yesterday', 'date'],
  ['date=2026-02-30', 'date'],
  ['date=2026-11-30T00:00:00Z', 'date'],
  ['format=xlsx&date=2026-11-29', 'format'],
  ['date=2026-11-29&integrator_id=Not%20an%20id', 'integrator_id'],
  ['date=2026-11-29&provider_code=x', 'provider_code'],
  ['date=2026-11-29&status=complete', '(root)'],
])('a bad query is 400 problem+json naming the field: %s', async (query, field) => {
  const res = await operatorGet(query);
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = (await res.json()) as any;
  expect(problem.code).toBe('validation_error');
  expect(problem.errors.map((e: { path: string }) => e.path)).toContain(field);
  expectConforms('GET', PATH, 400, problem, 'application/problem+json');
});

test('a day that has not ended (by the operator clock: tomorrow) is refused, saying from when it can be asked for', async () => {
  const res = await operatorGet(`date=${tomorrow}`);
  expect(res.status).toBe(400);
  const problem = (await res.json()) as any;
  expect(problem).toMatchObject({ code: 'validation_error', errors: [{ path: 'date' }] });
  expect(problem.detail).toContain('has not ended');
});
