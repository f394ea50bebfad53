/**
 * GET /api/on_ramp/orders/export against a real Temporal dev server, with encryption keys set (memos
 * encrypted, ExternalUserId a keyed hash): CSV read back by csv-parse and JSON lines, each order as
 * the status endpoint returns it with its provider, request time and the fee its offer quoted;
 * newest first across pages (two orders a page here); consecutive windows holding each order once;
 * filters; isolation between integrators; gzip; and every refusal before the first byte (bad or
 * too recent windows, a window holding too many orders).
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { parse } from 'csv-parse/sync';
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { TEST_API_KEY, TEST_ENCRYPTION_KEYS, testConfig } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { expectConforms } from '../helpers/openapi';
import { checkout, draftOrder, fetchOffers, offersQuery, waitForStatus, type OrderDraft } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const OTHER_KEY = 'obk_test_other_00000000000000000000000000';
const ENV = { ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS };
/** At most four orders an export here: the dev integrator's five are one too many. */
const MAX_ROWS = 4;

let env: TestWorkflowEnvironment;
let stack: LocalStack;
const mine: { id: string; created_at: string; external_user_id: string; fee: string }[] = [];
const theirs: { id: string }[] = [];
const run = Date.now().toString(36);
const userA = `=a-${run}`; // starts like a formula: the CSV writes it as text
const userB = `b-${run}`;
let windowQuery: string;

async function order(draft: OrderDraft, apiKey?: string) {
  const offers = apiKey
    ? await callApi(stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}`, { apiKey })
    : await fetchOffers(stack.apiUrl, draft);
  expect(offers.status).toBe(200);
  const res = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft, apiKey });
  expect(res.status).toBe(200);
  return { ...res.body, fee: offers.body.sandbox.total_fee_amount as string };
}

const exportOf = (query: string, apiKey = TEST_API_KEY) =>
  fetch(`${stack.apiUrl}/api/on_ramp/orders/export?${query}`, { headers: { 'x-api-key': apiKey } });

async function csvRows(query: string, apiKey?: string) {
  const res = await exportOf(query, apiKey);
  expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8; header=present']);
  const text = await res.text();
  expectConforms('GET', '/api/on_ramp/orders/export', 200, text, res.headers.get('content-type')!);
  return parse<Record<string, string>>(text, { columns: true, record_delimiter: '\r\n' });
}

beforeAll(async () => {
  env = await startTemporal();
  const base = testConfig({}, ENV);
  stack = await startTestStack(env, {
    env: ENV,
    config: {
      integrators: [...base.integrators, { id: 'other', name: 'Other', api_key_sha256: [sha256Hex(OTHER_KEY)] }],
      // Windows that ended a second ago are answered (90 s by default, the create timeout and a minute).
      orderExportLimits: { ...base.orderExportLimits, maxRows: MAX_ROWS, pageSize: 2, settleMs: 1000 },
    },
  });
  const startedAt = new Date(Date.now() - 1000).toISOString();
  for (const user of [userA, userB, userA, userB, userA]) mine.push(await order(draftOrder({ external_user_id: user })));
  theirs.push(await order(draftOrder({ external_user_id: userA }), OTHER_KEY));
  await new Promise((r) => setTimeout(r, 1500));
  windowQuery = `requested_from=${encodeURIComponent(startedAt)}&requested_to=${encodeURIComponent(new Date(Date.now() - 1100).toISOString())}`;
  await eventually(async () => {
    const res = await callApi(stack.apiUrl, '/api/on_ramp/orders?limit=100');
    return res.body.orders?.length === mine.length ? true : undefined;
  }, 'every order in visibility');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

const ids = (rows: { id?: string }[]) => rows.map((r) => r.id);
const newestFirst = (orders: typeof mine) => ids([...orders].reverse());

test('CSV: one record per order, newest first across pages, each as the status endpoint has it', async () => {
  const userAOrders = mine.filter((o) => o.external_user_id === userA);
  const rows = await csvRows(`${windowQuery}&external_user_id=${encodeURIComponent(userA)}`);
  expect(ids(rows)).toEqual(newestFirst(userAOrders));
  for (const row of rows) {
    const { body: exact } = await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${row.id}`);
    expect(row).toMatchObject({
      external_order_id: exact.external_order_id,
      external_user_id: `'${userA}`,
      provider_code: 'sandbox',
      status: exact.status,
      created_at: exact.created_at,
      from_currency: String(exact.from_currency),
      from_currency_code: 'USD',
      from_amount: exact.from_amount,
      to_currency_code: 'BTC',
      to_amount: exact.to_amount,
      wallet_address: exact.wallet_address,
      quoted_fee_amount: mine.find((o) => o.id === row.id)!.fee,
    });
    expect(Number(row.quoted_fee_amount)).toBeGreaterThan(0);
    expect(Date.parse(row.requested_at!)).toBeLessThanOrEqual(Date.parse(row.created_at!));
  }
});

test('consecutive windows hold each order once: requested_to is excluded, requested_from included', async () => {
  const user = `external_user_id=${encodeURIComponent(userA)}`;
  const all = await csvRows(`${windowQuery}&${user}`);
  const split = encodeURIComponent(all[1]!.requested_at!);
  const [from, to] = windowQuery.split('&');
  const newer = await csvRows(`requested_from=${split}&${to}&${user}`);
  const older = await csvRows(`${from}&requested_to=${split}&${user}`);
  expect(ids(newer)).toEqual(ids(all.slice(0, 2)));
  expect(ids(older)).toEqual(ids(all.slice(2)));
});

test('JSON lines: the orders as the status endpoint returns them, with provider and quoted fee', async () => {
  const res = await exportOf(`${windowQuery}&format=jsonl&external_user_id=${userB}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.jsonl"$/);
  const lines = (await res.text()).split('\n');
  expect(lines.pop()).toBe('');
  const orders = lines.map((line) => JSON.parse(line));
  expect(ids(orders)).toEqual(newestFirst(mine.filter((o) => o.external_user_id === userB)));
  for (const exported of orders) {
    const { body: exact } = await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${exported.id}`);
    expect(exported).toEqual({
      kind: 'on_ramp',
      ...exact,
      provider_code: 'sandbox',
      requested_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      quoted_fee_amount: mine.find((o) => o.id === exported.id)!.fee,
    });
  }
});

test('status and provider filters; the other integrator exports only its own', async () => {
  await checkout((await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${mine[1]!.id}`)).body.redirect_url, 'fail');
  await waitForStatus(stack.apiUrl, 'sandbox', mine[1]!.id, 'failed');
  const failed = await eventually(async () => {
    const rows = await csvRows(`${windowQuery}&status=failed`);
    return rows.length === 1 ? rows : undefined;
  }, 'the failed order in the export');
  expect(failed[0]).toMatchObject({ id: mine[1]!.id, status: 'failed' });
  expect(await csvRows(`${windowQuery}&provider_code=moonpay`)).toEqual([]);
  expect(ids(await csvRows(windowQuery, OTHER_KEY))).toEqual(ids(theirs));
  expect(ids(await csvRows(`${windowQuery}&external_user_id=${encodeURIComponent(userA)}`, OTHER_KEY))).toEqual(ids(theirs));
});

test('gzip when the client takes it', async () => {
  const { headers, body } = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const url = new URL(`${stack.apiUrl}/api/on_ramp/orders/export?${windowQuery}&format=jsonl&external_user_id=${userB}`);
    const req = request(url, { headers: { 'x-api-key': TEST_API_KEY, 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  expect(headers['content-encoding']).toBe('gzip');
  const lines = gunzipSync(body).toString('utf8').trim().split('\n');
  expect(lines.map((l) => JSON.parse(l).id)).toEqual(newestFirst(mine.filter((o) => o.external_user_id === userB)));
});

test('a window holding more orders than one export may is refused before any row', async () => {
  const res = await exportOf(windowQuery);
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = (await res.json()) as any;
  expect(problem).toMatchObject({ code: 'export_too_large' });
  expect(problem.detail).toContain(`${MAX_ROWS}`);
});

test.each([
  ['', 'requested_from'],
  ['requested_from=2026-11-01T00:00:00Z', 'requested_to'],
  ['requested_from=2026-11-02T00:00:00Z&requested_to=2026-11-01T00:00:00Z', 'requested_to'],
  ['requested_from=2026-11-01T00:00:00Z&requested_to=2026-11-01T00:00:00Z', 'requested_to'],
  ['requested_from=2026-01-01T00:00:00Z&requested_to=2026-11-01T00:00:00Z', 'requested_to'],
  [`requested_from=2026-11-01T00:00:00Z&requested_to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, 'requested_to'],
  ['requested_from=2026-11-01&requested_to=2026-11-02T00:00:00Z', 'requested_from'],
  ['requested_from=2026-11-01T00:00:00Z&requested_to=2026-11-02T00:00:00Z&format=xlsx', 'format'],
  ['requested_from=2026-11-01T00:00:00Z&requested_to=2026-11-02T00:00:00Z&created_from=2026-11-01T00:00:00Z', '(root)'],
  [
    `requested_from=2026-11-01T00:00:00Z&requested_to=2026-11-02T00:00:00Z&external_user_id=${encodeURIComponent("x' OR 'a'='a")}`,
    'external_user_id',
  ],
])('a bad query is 400 validation_error naming the field: %s', async (query, field) => {
  const res = await exportOf(query);
  expect(res.status).toBe(400);
  const problem = (await res.json()) as any;
  expect(problem.code).toBe('validation_error');
  expect(problem.errors.map((e: { path: string }) => e.path)).toContain(field);
});

test('without an API key: 401; another method: 405', async () => {
  const anonymous = await fetch(`${stack.apiUrl}/api/on_ramp/orders/export?${windowQuery}`);
  expect(anonymous.status).toBe(401);
  const posted = await fetch(`${stack.apiUrl}/api/on_ramp/orders/export?${windowQuery}`, {
    method: 'POST',
    headers: { 'x-api-key': TEST_API_KEY },
  });
  expect(posted.status).toBe(405);
});
