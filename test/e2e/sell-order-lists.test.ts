/**
 * Sell orders in the integrator's lists and webhook routes, against a real Temporal dev server with
 * encryption keys set: the search returns buys and sells with their kind, the kind and a sell
 * status filter narrow it, the export holds sells with their deposit, and a sell order's webhook
 * deliveries are listed and its latest webhook re-sent (verified by the standardwebhooks package);
 * a buy order's code at the sell routes, and a sell's at the buy routes, is 404.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { parse } from 'csv-parse/sync';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { TEST_API_KEY, TEST_ENCRYPTION_KEYS, testConfig } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { expectConforms } from '../helpers/openapi';
import { draftOrder, fetchOffers } from '../helpers/orders';
import { offerThenSellOrder } from '../helpers/sell-orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const ENV = { ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS };

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: IntegratorReceiver;
let buy: any;
const sells: any[] = [];
let windowQuery: string;

const search = (query: string) => callApi(stack.apiUrl, `/api/on_ramp/orders?${query}`);
const ids = (orders: any[]) => orders.map((o) => o.id).sort();

beforeAll(async () => {
  env = await startTemporal();
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const receiverUrl = await receiver.start();
  const base = testConfig({}, ENV);
  stack = await startTestStack(env, {
    env: { ...ENV, ONRAMP_WEBHOOK_URL: receiverUrl },
    config: { orderExportLimits: { ...base.orderExportLimits, settleMs: 1000 } },
  });
  const startedAt = new Date(Date.now() - 1000).toISOString();
  const draft = draftOrder();
  expect((await fetchOffers(stack.apiUrl, draft)).status).toBe(200);
  const created = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft });
  expect(created.status).toBe(200);
  buy = created.body;
  for (let i = 0; i < 2; i++) {
    const { created: sell } = await offerThenSellOrder(stack.apiUrl);
    expect([sell.status, sell.body.kind]).toEqual([200, 'off_ramp']);
    sells.push(sell.body);
  }
  await new Promise((r) => setTimeout(r, 1500));
  windowQuery = `requested_from=${encodeURIComponent(startedAt)}&requested_to=${encodeURIComponent(new Date(Date.now() - 1100).toISOString())}`;
  await eventually(async () => ((await search('limit=100')).body.orders?.length === 3 ? true : undefined), 'every order in visibility');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
  await env?.teardown();
});

test('the search returns buys and sells, each as its status route returns it, with its kind', async () => {
  const res = await search('limit=100');
  expect(res.status).toBe(200);
  expectConforms('GET', '/api/on_ramp/orders', 200, res.body);
  expect(ids(res.body.orders)).toEqual(ids([buy, ...sells]));
  const listedBuy = res.body.orders.find((o: any) => o.id === buy.id);
  expect(listedBuy).toEqual({ kind: 'on_ramp', ...(await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${buy.id}`)).body });
  for (const sell of sells) {
    const current = (await callApi(stack.apiUrl, `/api/off_ramp/orders/sandbox?code=${sell.id}`)).body;
    const listed = res.body.orders.find((o: any) => o.id === sell.id);
    // Visibility is eventually consistent: the listed status may lag the exact one, nothing else differs.
    expect({ ...listed, status: current.status, updated_at: current.updated_at, extras: current.extras }).toEqual(current);
    expect(listed.kind).toBe('off_ramp');
  }
});

test('the kind filter returns one kind; paging through both kinds neither repeats nor skips', async () => {
  const onRamp = await search('kind=on_ramp');
  expect(ids(onRamp.body.orders)).toEqual([buy.id]);
  const offRamp = await search('kind=off_ramp');
  expect(ids(offRamp.body.orders)).toEqual(ids(sells));
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await search(`limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    seen.push(...page.body.orders.map((o: any) => o.id));
    cursor = page.body.next_cursor;
  } while (cursor);
  expect(seen.sort()).toEqual(ids([buy, ...sells]));
});

test('a sell status filters sells; a status of the other kind than `kind` is a 400 naming status', async () => {
  const status = sells[0].status as string;
  const filtered = await eventually(async () => {
    const res = await search(`status=${status}&kind=off_ramp`);
    return res.body.orders?.length === sells.filter((s) => s.status === status).length ? res : undefined;
  }, `sells with status ${status}`);
  expect(filtered.body.orders.every((o: any) => o.kind === 'off_ramp' && o.status === status)).toBe(true);
  const sellOnly = await search('status=waiting_for_deposit');
  expect(sellOnly.status).toBe(200);
  expect(sellOnly.body.orders.every((o: any) => o.kind === 'off_ramp')).toBe(true);
  const mismatch = await search('kind=on_ramp&status=waiting_for_deposit');
  expect([mismatch.status, mismatch.body.code, mismatch.body.errors?.[0]?.path]).toEqual([400, 'validation_error', 'status']);
  const unknown = await search('status=paid_out');
  expect([unknown.status, unknown.body.code]).toEqual([400, 'validation_error']);
});

test('the export holds sells, each saying its kind, with the crypto sent, the payout and the deposit', async () => {
  const jsonl = await fetch(`${stack.apiUrl}/api/on_ramp/orders/export?${windowQuery}&format=jsonl`, {
    headers: { 'x-api-key': TEST_API_KEY },
  });
  expect(jsonl.status).toBe(200);
  const lines = (await jsonl.text())
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(ids(lines)).toEqual(ids([buy, ...sells]));
  expect(lines.find((l) => l.id === buy.id).kind).toBe('on_ramp');
  for (const sell of sells) {
    const line = lines.find((l) => l.id === sell.id);
    expect(line).toMatchObject({ kind: 'off_ramp', provider_code: 'sandbox', from_amount: sell.from_amount, to_amount: sell.to_amount });
  }
  const csv = await fetch(`${stack.apiUrl}/api/on_ramp/orders/export?${windowQuery}&kind=off_ramp`, {
    headers: { 'x-api-key': TEST_API_KEY },
  });
  expect(csv.status).toBe(200);
  const rows = parse<Record<string, string>>(await csv.text(), { columns: true, record_delimiter: '\r\n' });
  expect(ids(rows)).toEqual(ids(sells));
  for (const row of rows) {
    const sell = sells.find((s) => s.id === row.id);
    expect(row).toMatchObject({
      kind: 'off_ramp',
      from_amount: sell.from_amount,
      to_amount: sell.to_amount,
      payout_method: 'sepa',
      refund_wallet_address: sell.refund_wallet_address,
      deposit_address: sell.deposit?.address ?? '',
      deposit_network: sell.deposit?.network ?? '',
    });
  }
});

test("a sell order's webhook deliveries are listed and its latest webhook re-sent; each kind's code is 404 at the other's routes", async () => {
  const sell = sells[0];
  const deliveries = await eventually(async () => {
    const res = await callApi(stack.apiUrl, `/api/off_ramp/orders/sandbox/webhooks?code=${sell.id}`);
    return res.status === 200 && res.body.deliveries.some((d: any) => d.outcome === 'delivered') ? res : undefined;
  }, 'a delivered webhook of the sell order');
  expectConforms('GET', '/api/off_ramp/orders/{provider_code}/webhooks', 200, deliveries.body);
  const resent = await callApi(stack.apiUrl, `/api/off_ramp/orders/sandbox/webhooks/resend?code=${sell.id}`, { method: 'POST' });
  expect([resent.status, resent.body.delivered]).toEqual([200, true]);
  const received = await eventually(
    () =>
      Promise.resolve(
        receiver.delivered(sell.id).filter((w) => w.webhookId === resent.body.webhook_id && w.verified).length >= 2 ? true : undefined,
      ),
    'the re-sent webhook, verified, beside the original',
  );
  expect(received).toBe(true);
  for (const path of [`/api/off_ramp/orders/sandbox/webhooks?code=${buy.id}`, `/api/on_ramp/orders/sandbox/webhooks?code=${sell.id}`]) {
    const res = await callApi(stack.apiUrl, path);
    expect([path, res.status, res.body.code]).toEqual([path, 404, 'not_found']);
  }
  for (const path of [
    `/api/off_ramp/orders/sandbox/webhooks/resend?code=${buy.id}`,
    `/api/on_ramp/orders/sandbox/webhooks/resend?code=${sell.id}`,
  ]) {
    const res = await callApi(stack.apiUrl, path, { method: 'POST' });
    expect([path, res.status, res.body.code]).toEqual([path, 404, 'not_found']);
  }
});
