/**
 * GET /api/on_ramp/orders and POST /api/on_ramp/webhooks/test against a real Temporal dev server:
 * two integrators' orders, with encryption keys set (so ExternalUserId is a keyed hash), filters,
 * keyset paging, newest first, isolation between integrators and quote injection; and a test event
 * verified by the standardwebhooks package.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { FAST_TIMINGS, TEST_ENCRYPTION_KEYS, testConfig } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout, draftOrder, fetchOffers, offersQuery, waitForStatus, type OrderDraft } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const OTHER_KEY = 'obk_test_other_00000000000000000000000000';
const ENV = { ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS };

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: IntegratorReceiver;

/** The dev integrator's orders, oldest first; and the other integrator's. */
const mine: any[] = [];
const theirs: any[] = [];
const run = Date.now().toString(36);
const userA = `a-${run}`;
const userB = `b-${run}`;

async function order(draft: OrderDraft, apiKey?: string) {
  const offers = apiKey ? await callApiOffers(draft, apiKey) : await fetchOffers(stack.apiUrl, draft);
  expect(offers.status).toBe(200);
  const res = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft, apiKey });
  expect(res.status).toBe(200);
  return res.body;
}

function callApiOffers(draft: OrderDraft, apiKey: string) {
  return callApi(stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}`, { apiKey });
}

const search = (query: string, apiKey?: string) => callApi(stack.apiUrl, `/api/on_ramp/orders?${query}`, { apiKey });
const ids = (orders: any[]) => orders.map((o) => o.id);

beforeAll(async () => {
  env = await startTemporal();
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const receiverUrl = await receiver.start();
  const base = testConfig({}, { ...ENV, ONRAMP_WEBHOOK_URL: receiverUrl });
  stack = await startTestStack(env, {
    env: { ...ENV, ONRAMP_WEBHOOK_URL: receiverUrl },
    config: {
      integrators: [...base.integrators, { id: 'other', name: 'Other', api_key_sha256: [sha256Hex(OTHER_KEY)] }],
      // No order expires during the file: the only order webhooks are the ones the tests cause.
      orderTimings: { ...FAST_TIMINGS, paymentWindowMs: 3_600_000 },
    },
  });
  // Dev: three orders of user A, two of user B; the other integrator: one of user A under one of the same external ids.
  for (const user of [userA, userB, userA, userB, userA]) mine.push(await order(draftOrder({ external_user_id: user })));
  theirs.push(await order(draftOrder({ external_user_id: userA, external_order_id: mine[0].external_order_id }), OTHER_KEY));
  theirs.push(await order(draftOrder({ external_user_id: `c-${run}` }), OTHER_KEY));
  await eventually(async () => {
    const res = await search('limit=100');
    return res.body.orders?.length === mine.length ? true : undefined;
  }, 'every order in visibility');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
  await env?.teardown();
});

test('newest first, each order as the status endpoint returns it, only the caller’s own', async () => {
  const res = await search('');
  expect(res.status).toBe(200);
  expect(ids(res.body.orders)).toEqual(ids([...mine].reverse()));
  expect(res.body.next_cursor).toBeNull();
  const { body: exact } = await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${mine[0].id}`);
  expect(res.body.orders.at(-1)).toEqual({ kind: 'on_ramp', ...exact });

  const other = await search('', OTHER_KEY);
  expect(ids(other.body.orders)).toEqual(ids([...theirs].reverse()));
});

test('filters: external_user_id (a keyed hash in visibility), external_order_id, provider_code, created-at range', async () => {
  expect(ids((await search(`external_user_id=${userA}`)).body.orders)).toEqual(ids([mine[4], mine[2], mine[0]]));
  expect(ids((await search(`external_user_id=${userB}`)).body.orders)).toEqual(ids([mine[3], mine[1]]));
  expect(ids((await search(`external_user_id=${userA}`, OTHER_KEY)).body.orders)).toEqual(ids([theirs[0]]));
  // The same external_order_id at two integrators: each sees its own.
  expect(ids((await search(`external_order_id=${mine[0].external_order_id}`)).body.orders)).toEqual(ids([mine[0]]));
  expect(ids((await search(`external_order_id=${mine[0].external_order_id}`, OTHER_KEY)).body.orders)).toEqual(ids([theirs[0]]));
  expect((await search('provider_code=sandbox')).body.orders).toHaveLength(mine.length);
  expect((await search('provider_code=moonpay')).body.orders).toEqual([]);
  const from = encodeURIComponent(mine[2].created_at);
  const to = encodeURIComponent(mine[1].created_at);
  expect(ids((await search(`created_from=${from}`)).body.orders)).toEqual(ids([mine[4], mine[3], mine[2]]));
  expect(ids((await search(`created_to=${to}`)).body.orders)).toEqual(ids([mine[1], mine[0]]));
  expect(ids((await search(`created_from=${from}&created_to=${from}&external_user_id=${userA}`)).body.orders)).toEqual(ids([mine[2]]));
});

test('status follows the order', async () => {
  await checkout(mine[1].redirect_url, 'fail');
  await waitForStatus(stack.apiUrl, 'sandbox', mine[1].id, 'failed');
  const failed = await eventually(async () => {
    const res = await search('status=failed');
    return res.body.orders.length === 1 ? res.body.orders : undefined;
  }, 'the failed order in visibility');
  expect(failed[0]).toMatchObject({ id: mine[1].id, status: 'failed' });
  expect((await search('status=failed', OTHER_KEY)).body.orders).toEqual([]);
});

test('paging with the cursor: every order once, in order, without gaps', async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await search(`limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    expect(res.body.orders.length).toBeLessThanOrEqual(2);
    seen.push(...ids(res.body.orders));
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor);
  expect(pages).toBe(3);
  expect(seen).toEqual(ids([...mine].reverse()));
  // A new order while paging lands before the cursor: the next page neither repeats nor skips.
  const first = await search('limit=2');
  const late = await order(draftOrder({ external_user_id: userB }));
  const second = await search(`limit=2&cursor=${first.body.next_cursor}`);
  expect(ids(second.body.orders)).toEqual(ids([mine[2], mine[1]]));
  mine.push(late);
});

test.each([
  `external_order_id=${encodeURIComponent("x' OR IntegratorId = 'other")}`,
  `external_user_id=${encodeURIComponent('a" OR "1"="1')}`,
  `external_order_id=${encodeURIComponent('x\\')}`,
  `status=${encodeURIComponent("created' OR 'a'='a")}`,
  `provider_code=${encodeURIComponent("sandbox' OR ProviderCode != '")}`,
  `external_user_id=${userA}&integrator_id=other`,
])('a quote injection or an extra field is 400 and never widens the answer: %s', async (query) => {
  const res = await search(query);
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('validation_error');
  expect(res.body.errors.length).toBeGreaterThan(0);
  expect(res.body.orders).toBeUndefined();
});

test('bad limits, dates and cursors are 400 validation_error naming the field', async () => {
  for (const [query, field] of [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['created_from=2026-11-22', 'created_from'],
    // Visibility takes no instant before 1970 or after 9999: refused here, not a 503 from Temporal.
    ['created_from=0000-01-01T00:00:00Z', 'created_from'],
    ['created_to=1969-12-31T23:59:59.999Z', 'created_to'],
    [`created_to=${encodeURIComponent('9999-12-31T23:00:00-05:00')}`, 'created_to'],
    ['cursor=not%20a%20cursor', 'cursor'],
    [`cursor=${Buffer.from('{"c":"x"}').toString('base64url')}`, 'cursor'],
    [`cursor=${Buffer.from(`{"c":"0000-01-01T00:00:00Z","i":"${mine[0].id}"}`).toString('base64url')}`, 'cursor'],
  ]) {
    const res = await search(query!);
    expect([query, res.status, res.body.errors?.[0]?.path]).toEqual([query, 400, field]);
  }
});

test('the earliest and latest instants a search may name are answered', async () => {
  const res = await search(`created_from=1970-01-01T00:00:00Z&created_to=9999-12-31T23:59:59.999Z`);
  expect(res.status).toBe(200);
  expect(ids(res.body.orders)).toEqual(ids([...mine].reverse()));
});

describe('POST /api/on_ramp/webhooks/test', () => {
  const sendTest = (apiKey?: string) => callApi(stack.apiUrl, '/api/on_ramp/webhooks/test', { method: 'POST', apiKey });

  test('sends a signed webhook.test event that standardwebhooks verifies, and says what happened', async () => {
    const res = await sendTest();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ delivered: true, status_code: 204, webhook_id: expect.stringMatching(/^evt_test_/) });
    expect(res.body.latency_ms).toBeGreaterThanOrEqual(0);
    const [received] = receiver.attempts(res.body.webhook_id);
    expect(received).toMatchObject({ verified: true, body: { type: 'webhook.test', data: { integrator_id: 'dev' } } });
  });

  test('reports the endpoint’s failure without retrying it', async () => {
    // The orders' own webhooks have all arrived, so the scripted answer is the test event's.
    await eventually(
      () =>
        Promise.resolve(
          mine.every((o) => receiver.delivered(o.id).length > 0) && receiver.delivered(mine[1].id).length === 2 ? true : undefined,
        ),
      'every order webhook delivered',
    );
    receiver.answerNext({ status: 500 });
    const res = await sendTest();
    expect(res.body).toMatchObject({ delivered: false, status_code: 500, error: 'HTTP 500' });
    expect(receiver.attempts(res.body.webhook_id)).toHaveLength(1);
  });

  test('an integrator without a webhook endpoint gets 404', async () => {
    const res = await sendTest(OTHER_KEY);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});
