/**
 * One integrator's order searches cannot take the API's time from another's: a page of
 * GET /api/on_ramp/orders reads a bounded number of visibility records (at most `limit` plus a
 * margin, whatever the integrator's number of orders) and decodes the memos of the orders it returns
 * only; and an integrator has at most ORDER_SEARCH_CONCURRENCY searches in flight per API process
 * (more are 429 rate_limited), which another integrator's searches do not count against.
 *
 * The work is counted, not timed: onramp_order_search_records_total, by stage (read, decoded).
 * Real Temporal dev server, real API, orders made through the API, encryption keys on.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { registry } from '../../src/metrics/registry';
import { searchMargin } from '../../src/orders/search';
import { FAST_TIMINGS, TEST_ENCRYPTION_KEYS, testConfig } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { draftOrder, offersQuery, type OrderDraft } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const OTHER_KEY = 'obk_test_other_search_00000000000000000000';
const A_ORDERS = 48;
const PAGE = 5;
const ENV = { ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS, ORDER_SEARCH_CONCURRENCY: '2' };

let env: TestWorkflowEnvironment;
let stack: LocalStack;
const mine: string[] = [];

async function order(draft: OrderDraft, apiKey?: string): Promise<string> {
  const offers = await callApi(stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}`, { apiKey });
  expect(offers.status).toBe(200);
  const res = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft, apiKey });
  expect(res.status).toBe(200);
  return res.body.id;
}

const search = (query: string, apiKey?: string) => callApi(stack.apiUrl, `/api/on_ramp/orders?${query}`, { apiKey });

/** The search's counter: records read and memos decoded so far in this process. */
async function work(): Promise<{ read: number; decoded: number }> {
  const metric = await registry.getSingleMetric('onramp_order_search_records_total')?.get();
  const value = (stage: string) => metric?.values.find((v) => v.labels.stage === stage)?.value ?? 0;
  return { read: value('read'), decoded: value('decoded') };
}

beforeAll(async () => {
  env = await startTemporal();
  const base = testConfig({}, ENV);
  stack = await startTestStack(env, {
    env: ENV,
    config: {
      integrators: [...base.integrators, { id: 'other', name: 'Other', api_key_sha256: [sha256Hex(OTHER_KEY)] }],
      orderTimings: { ...FAST_TIMINGS, paymentWindowMs: 3_600_000 },
    },
  });
  // Four at a time: A's orders, then one of B's.
  for (let i = 0; i < A_ORDERS; i += 4) {
    mine.push(...(await Promise.all(Array.from({ length: Math.min(4, A_ORDERS - i) }, () => order(draftOrder())))));
  }
  await order(draftOrder(), OTHER_KEY);
  await eventually(
    async () => ((await search('limit=100')).body.orders?.length === A_ORDERS ? true : undefined),
    'every order in visibility',
    60_000,
  );
  await eventually(async () => ((await search('', OTHER_KEY)).body.orders?.length === 1 ? true : undefined), 'B’s order in visibility');
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

test(`a page of ${PAGE} reads at most ${PAGE} + margin records and decodes only what it returns, page after page`, async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const before = await work();
    const res = await search(`limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`);
    const after = await work();
    expect(res.status).toBe(200);
    seen.push(...res.body.orders.map((o: { id: string }) => o.id));
    // Over all of A's orders, a page of PAGE reads at most PAGE + margin, and decodes at most PAGE.
    expect(after.read - before.read).toBeLessThanOrEqual(PAGE + searchMargin(PAGE));
    expect(after.decoded - before.decoded).toBeLessThanOrEqual(PAGE);
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor && pages < 2 * (A_ORDERS / PAGE));
  // Every order once (four were created at a time, so their order within a batch is not known here;
  // test/e2e/order-search.test.ts checks newest first).
  expect(seen).toHaveLength(A_ORDERS);
  expect([...seen].sort()).toEqual([...mine].sort());
}, 60_000);

test('a third concurrent search of one integrator is 429 rate_limited, while another integrator’s is answered', async () => {
  const theirs = search('limit=100', OTHER_KEY);
  const answers = await Promise.all(Array.from({ length: 6 }, () => search('limit=100')));
  const statuses = answers.map((r) => r.status);
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
  const refused = answers.filter((r) => r.status === 429);
  expect(refused.length).toBeGreaterThanOrEqual(1);
  for (const r of refused) {
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.body).toMatchObject({ status: 429, code: 'rate_limited' });
  }
  expect((await theirs).status).toBe(200);
  // The searches are over: A is answered again.
  expect((await search('limit=1')).status).toBe(200);
}, 60_000);
