/**
 * One integrator's order searches cannot take the API's time from another's: a page of
 * GET /api/on_ramp/orders reads a bounded number of visibility records (at most `limit` plus a
 * margin, whatever the integrator's number of orders) and decodes the memos of the orders it returns
 * only; and an integrator has at most ORDER_SEARCH_CONCURRENCY searches in flight per API process
 * (more are 429 rate_limited), which another integrator's searches do not count against.
 *
 * A page makes at most 8 count queries, each over a window below its cursor (never one over all
 * time); orders sharing one millisecond are listed once each, however many; and a record whose memo
 * this API cannot decode is left out of its page (a metric and a warning), never a 500.
 *
 * The work is counted, not timed: onramp_order_search_records_total, by stage (read, decoded,
 * undecodable), and the client's count calls. Real Temporal dev server, real API, orders made
 * through the API (and, for a crowd in one millisecond and an undecodable memo, order workflows
 * started straight in Temporal, which no worker runs), encryption keys on.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Client, WorkflowClient } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { createLogger } from '../../src/logging';
import { registry } from '../../src/metrics/registry';
import { searchMargin } from '../../src/orders/search';
import { encryptingDataConverter, EncryptionKeysSchema } from '../../src/temporal/codec';
import { INTEGRATOR_ID_KEY, ORDER_REQUESTED_AT_KEY, orderWorkflowId } from '../../src/temporal/order-contract';
import { FAST_TIMINGS, TEST_ENCRYPTION_KEYS, testConfig } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { draftOrder, offersQuery, type OrderDraft } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const OTHER_KEY = 'obk_test_other_search_00000000000000000000';
const CROWD_KEY = 'obk_test_crowd_search_00000000000000000000';
const A_ORDERS = 48;
const PAGE = 5;
/** The most count queries a page may make. */
const MOST_COUNTS = 8;
const ENV = { ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS, ORDER_SEARCH_CONCURRENCY: '2' };
/** A key the API does not hold: a memo encrypted under it cannot be decoded there. */
const ROGUE_KEYS = `rogue:${Buffer.alloc(32, 9).toString('base64')}`;

let env: TestWorkflowEnvironment;
let stack: LocalStack;
const mine: string[] = [];

/** The API's log lines at warn and above. */
const logLines: Record<string, unknown>[] = [];
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

async function order(draft: OrderDraft, apiKey?: string): Promise<string> {
  const offers = await callApi(stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}`, { apiKey });
  expect(offers.status).toBe(200);
  const res = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft, apiKey });
  expect(res.status).toBe(200);
  return res.body.id;
}

const search = (query: string, apiKey?: string) => callApi(stack.apiUrl, `/api/on_ramp/orders?${query}`, { apiKey });

/** The search's counter: records read, memos decoded and records left out undecodable so far in this process. */
async function work(): Promise<{ read: number; decoded: number; undecodable: number }> {
  const metric = await registry.getSingleMetric('onramp_order_search_records_total')?.get();
  const value = (stage: string) => metric?.values.find((v) => v.labels.stage === stage)?.value ?? 0;
  return { read: value('read'), decoded: value('decoded'), undecodable: value('undecodable') };
}

/**
 * An order workflow started straight in Temporal, as the API starts one (integrator and request
 * time search attributes, a memo with the order), on a task queue no worker polls; its memo
 * encrypted under `keys`. Returns the order id.
 */
async function plant(integratorId: string, requestedAt: Date, keys = TEST_ENCRYPTION_KEYS): Promise<string> {
  const client = new Client({
    connection: env.client.connection,
    namespace: env.client.options.namespace,
    dataConverter: encryptingDataConverter(EncryptionKeysSchema.parse(keys)),
  });
  const id = randomUUID();
  await client.workflow.start('orderWorkflow', {
    taskQueue: 'planted-no-worker',
    workflowId: orderWorkflowId(id),
    args: [],
    memo: { integratorId, order: { id, status: 'created', created_at: requestedAt.toISOString() } },
    typedSearchAttributes: [
      { key: INTEGRATOR_ID_KEY, value: integratorId },
      { key: ORDER_REQUESTED_AT_KEY, value: requestedAt },
    ],
  });
  return id;
}

/** Every page of `query` (a cursor appended), each checked to be 200; and the count queries of each. */
async function pages(query: string, apiKey?: string, most = 500): Promise<{ ids: string[]; counts: string[][] }> {
  const counted = jest.spyOn(WorkflowClient.prototype, 'count');
  const ids: string[] = [];
  const counts: string[][] = [];
  try {
    let cursor: string | null = null;
    do {
      counted.mockClear();
      const res = await search(`${query}${cursor ? `&cursor=${cursor}` : ''}`, apiKey);
      expect([res.status, res.body.code]).toEqual([200, undefined]);
      ids.push(...res.body.orders.map((o: { id: string }) => o.id));
      counts.push(counted.mock.calls.map(([q]) => q ?? ''));
      cursor = res.body.next_cursor;
    } while (cursor && counts.length < most);
  } finally {
    counted.mockRestore();
  }
  return { ids, counts };
}

beforeAll(async () => {
  env = await startTemporal();
  const base = testConfig({}, ENV);
  stack = await startTestStack(env, {
    env: ENV,
    config: {
      integrators: [
        ...base.integrators,
        { id: 'other', name: 'Other', api_key_sha256: [sha256Hex(OTHER_KEY)] },
        { id: 'crowd', name: 'Crowd', api_key_sha256: [sha256Hex(CROWD_KEY)] },
      ],
      orderTimings: { ...FAST_TIMINGS, paymentWindowMs: 3_600_000 },
      // Exports of windows that ended just now (90 s ago by default).
      orderExportLimits: { ...base.orderExportLimits, settleMs: 0 },
    },
    logger: createLogger('warn', 'test', logSink),
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

test(`a page makes at most ${MOST_COUNTS} count queries, each over a window below its cursor, never one over all time`, async () => {
  const { ids, counts } = await pages(`limit=${PAGE}`);
  expect([...ids].sort()).toEqual([...mine].sort());
  for (const queries of counts) {
    expect(queries.length).toBeLessThanOrEqual(MOST_COUNTS);
    // Each count has a lower end of request time: none counts all of the integrator's orders.
    for (const query of queries) expect(query).toMatch(/OrderRequestedAt >= '/);
  }
}, 60_000);

test('orders sharing one millisecond, more than a page reads, are each listed once and in order', async () => {
  const atMs = Date.now() - 3_600_000;
  const planted: { id: string; ms: number }[] = [];
  const times = [atMs + 1, atMs + 1, ...Array.from({ length: 30 }, () => atMs), atMs - 1, atMs - 1];
  for (let i = 0; i < times.length; i += 8) {
    const batch = times.slice(i, i + 8);
    planted.push(...(await Promise.all(batch.map(async (ms) => ({ id: await plant('crowd', new Date(ms)), ms })))));
  }
  await eventually(
    async () => ((await search('limit=100', CROWD_KEY)).body.orders?.length === planted.length ? true : undefined),
    'the planted orders in visibility',
  );
  // Newest first: by request time, then by id, both descending.
  const expected = [...planted].sort((a, b) => b.ms - a.ms || (a.id < b.id ? 1 : -1)).map((p) => p.id);
  // Pages of 1 read at most 2 x (1 + 10) = 22 records: fewer than the 30 of one millisecond.
  const { ids, counts } = await pages('limit=1', CROWD_KEY);
  expect(ids).toEqual(expected);
  for (const queries of counts) expect(queries.length).toBeLessThanOrEqual(MOST_COUNTS);
}, 120_000);

test('a record whose memo cannot be decoded is left out of its page, with a metric and a warning: never a 500', async () => {
  const rogue = orderWorkflowId(await plant('other', new Date(), ROGUE_KEYS));
  await eventually(
    async () => ((await env.client.workflow.count(`IntegratorId = 'other'`)).count === 2 ? true : undefined),
    'the planted record in visibility',
  );
  const before = await work();
  const res = await search('limit=100', OTHER_KEY);
  expect([res.status, res.body.code]).toEqual([200, undefined]);
  expect(res.body.orders).toHaveLength(1);
  expect((await work()).undecodable - before.undecodable).toBe(1);
  expect(logLines).toContainEqual(expect.objectContaining({ level: 40, workflowId: rogue }));
  // Page by page too: every page is answered, and B's one order is there once.
  expect((await pages('limit=1', OTHER_KEY)).ids).toEqual(res.body.orders.map((o: { id: string }) => o.id));

  // An export never leaves an order out: the window holding the record is refused before any row.
  const window = `requested_from=${new Date(Date.now() - 3_600_000).toISOString()}&requested_to=${new Date().toISOString()}`;
  const exported = await callApi(stack.apiUrl, `/api/on_ramp/orders/export?${window}`, { apiKey: OTHER_KEY });
  expect([exported.status, exported.body.code, exported.headers.get('retry-after')]).toEqual([503, 'service_unavailable', '60']);
}, 60_000);
