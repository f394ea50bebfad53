/**
 * The client package (clients/typescript) against the real broker: the API, the simulated providers
 * and an order worker on a Temporal dev server, as in the e2e tests. The integrator's webhook
 * endpoint is the package's own middleware.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Webhook } from 'standardwebhooks';
import {
  OnrampClient,
  ProblemError,
  verifyWebhook,
  webhookMiddleware,
  type CreateOrderRequest,
  type WebhookEvent,
} from '../../clients/typescript/src';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { eventually } from '../helpers/http';
import { BTC_ADDRESS, checkout } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: Server;
const events: WebhookEvent[] = [];
const requests: { method: string; path: string; ifNoneMatch?: string; status?: number }[] = [];

/** `fetch` that records each request and its answer's status, then answers as the broker does. */
const recordingFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input);
  const headers = new Headers(init?.headers);
  const entry = {
    method: init?.method ?? 'GET',
    path: url.pathname,
    ...(headers.get('if-none-match') ? { ifNoneMatch: headers.get('if-none-match')! } : {}),
  } as (typeof requests)[number];
  requests.push(entry);
  const response = await fetch(input, init);
  entry.status = response.status;
  return response;
};

function client(options: Partial<ConstructorParameters<typeof OnrampClient>[0]> = {}): OnrampClient {
  return new OnrampClient({ baseUrl: stack.apiUrl, apiKey: TEST_API_KEY, fetch: recordingFetch, ...options });
}

beforeAll(async () => {
  env = await startTemporal();
  receiver = createServer(
    webhookMiddleware(DEFAULT_DEV_WEBHOOK_SECRET, (event) => {
      events.push(event);
    }),
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  // Exports of windows that ended half a second ago (90 s by default: every order of the window visible).
  const { orderExportLimits } = testConfig({}, { ONRAMP_WEBHOOK_URL: hooks });
  stack = await startTestStack(env, {
    env: { ONRAMP_WEBHOOK_URL: hooks },
    config: { orderExportLimits: { ...orderExportLimits, settleMs: 500 } },
  });
});

afterAll(async () => {
  await stack?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await env?.teardown();
});

test('currencies: loaded once, kept for 24 h, then revalidated with If-None-Match (304 keeps the copy)', async () => {
  let now = Date.parse('2026-11-22T00:00:00Z');
  const onramp = client({ now: () => now });
  const before = requests.length;
  const first = await onramp.currencies();
  expect(first.length).toBeGreaterThan(10);
  await onramp.currencies();
  now += 23 * 3_600_000;
  await onramp.lookup('BTC', 'bitcoin');
  const dictionaryCalls = () => requests.slice(before).filter((r) => r.path === '/api/dict/currencies');
  expect(dictionaryCalls()).toEqual([{ method: 'GET', path: '/api/dict/currencies', status: 200 }]);
  now += 2 * 3_600_000;
  const again = await onramp.currencies();
  expect(dictionaryCalls()[1]).toEqual({ method: 'GET', path: '/api/dict/currencies', ifNoneMatch: expect.any(String), status: 304 });
  expect(again).toBe(first);
});

test('lookup: ticker (and network) to ID; an unknown or ambiguous ticker is an unknown_ticker problem', async () => {
  const onramp = client();
  expect(await onramp.lookup('BTC', 'bitcoin')).toBe(13);
  expect(await onramp.lookup('usd')).toBe(1);
  await expect(onramp.lookup('NOPE')).rejects.toMatchObject({ name: 'ProblemError', code: 'unknown_ticker', status: 0 });
  await expect(onramp.lookup('USDT')).rejects.toMatchObject({
    code: 'unknown_ticker',
    detail: expect.stringContaining('several networks'),
  });
});

test('the recommended sequence: countries, pairs, payment methods, ranked offers with the providers left out, address', async () => {
  const onramp = client();
  const [usd, btc] = [await onramp.lookup('USD'), await onramp.lookup('BTC', 'bitcoin')];
  expect((await onramp.countries()).map((c) => c.code)).toContain('GB');
  expect((await onramp.allCountries()).find((c) => c.code === 'US')?.states.length).toBeGreaterThan(50);
  const pairs = await onramp.currencyPairs({ country_code: 'GB' });
  expect(pairs.find((p) => p.provider_code === 'sandbox')?.crypto_currencies).toContain(btc);
  expect((await onramp.paymentMethods({ fiat_currency: usd, country_code: 'GB' })).map((m) => m.code)).toContain('card');
  expect((await onramp.providers({ country_code: 'GB', from_currency: usd, to_currency: btc })).length).toBeGreaterThan(1);

  // Without `ip`, Mercuryo is left out with its reason; the others are ranked by crypto received.
  const { offers, leftOut } = await onramp.offers({
    external_user_id: 'u1',
    currency_from: usd,
    currency_to: btc,
    amount_from: '100',
    country: 'GB',
  });
  expect(offers.length).toBeGreaterThan(1);
  const amounts = offers.map((o) => Number(o.amount_expected_to));
  expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
  expect(leftOut).toContainEqual(expect.objectContaining({ provider_code: 'mercuryo', code: 'ip_required' }));

  expect(await onramp.validateAddress({ provider_code: 'sandbox', currency: btc, wallet_address: BTC_ADDRESS })).toEqual({ result: true });
  expect((await onramp.validateAddress({ provider_code: 'sandbox', currency: btc, wallet_address: 'nope' })).result).toBe(false);
});

test('errors are typed problems with the API code and every field in errors[]', async () => {
  const onramp = client();
  const err = await onramp
    .offers({ external_user_id: 'u1', currency_from: 1, currency_to: 13, amount_from: 'a lot', country: 'XX' })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProblemError);
  expect(err).toMatchObject({ code: 'validation_error', status: 400, requestId: expect.any(String) });
  expect((err as ProblemError).errors.map((e) => e.path).sort()).toEqual(['amount_from', 'country']);
  await expect(onramp.order('sandbox', randomUUID())).rejects.toMatchObject({ code: 'not_found', status: 404 });
  await expect(new OnrampClient({ baseUrl: stack.apiUrl, apiKey: 'wrong' }).currencies()).rejects.toMatchObject({
    code: 'unauthorized',
    status: 401,
  });
  await expect(new OnrampClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' }).currencies()).rejects.toMatchObject({
    code: 'network_error',
  });
});

describe('an order', () => {
  const draft = (): CreateOrderRequest => ({
    provider_code: 'sandbox',
    from_currency: 1,
    to_currency: 13,
    from_amount: '100',
    wallet_address: BTC_ADDRESS,
    payment_method: 'card',
    country_code: 'GB',
    external_user_id: `u-${randomUUID()}`,
    external_order_id: `o-${randomUUID()}`,
  });
  const offersFor = (onramp: OnrampClient, body: CreateOrderRequest) =>
    onramp.offers({
      external_user_id: body.external_user_id,
      currency_from: body.from_currency,
      currency_to: body.to_currency,
      amount_from: body.from_amount,
      country: body.country_code,
      payment_method: body.payment_method,
    });

  test('createOrder retries a 503 with the same body after Retry-After and gets the one order made', async () => {
    const sleeps: number[] = [];
    let answersLost = 0;
    // The first answer is lost after the broker made the order, as when an API process dies behind the
    // load balancer, which answers 503 with Retry-After.
    const losingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (
        init?.method === 'POST' &&
        new URL(input instanceof Request ? input.url : input).pathname === '/api/on_ramp/orders' &&
        answersLost++ === 0
      ) {
        expect(response.status).toBe(200);
        return new Response(
          JSON.stringify({
            type: 'urn:onramp-broker:problem:service_unavailable',
            title: 'x',
            status: 503,
            detail: 'x',
            code: 'service_unavailable',
          }),
          {
            status: 503,
            headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
          },
        );
      }
      return response;
    };
    const onramp = client({ fetch: losingFetch, sleep: (ms) => (sleeps.push(ms), Promise.resolve()) });
    const body = draft();
    await offersFor(onramp, body);
    const order = await onramp.createOrder(body);
    expect(sleeps).toEqual([1000]);
    expect(order).toMatchObject({ status: 'created', external_order_id: body.external_order_id });
    expect(await onramp.order('sandbox', order.id)).toEqual(order);
    const found = await eventually(async () => {
      const page = await onramp.orders({ external_order_id: body.external_order_id });
      return page.orders.length > 0 ? page.orders : undefined;
    }, 'the order in the search');
    expect(found.map((o) => o.id)).toEqual([order.id]);
  });

  test('createOrder does not retry a 4xx: the problem comes back at once', async () => {
    const sleeps: number[] = [];
    const onramp = client({ sleep: (ms) => (sleeps.push(ms), Promise.resolve()) });
    await expect(onramp.createOrder(draft())).rejects.toMatchObject({ code: 'offer_expired', status: 422 });
    expect(sleeps).toEqual([]);
  });

  test('pay: waitForStatus polls to complete, the webhook middleware hands over typed events, search finds it', async () => {
    const onramp = client();
    const body = draft();
    await offersFor(onramp, body);
    const order = await onramp.createOrder(body);
    await checkout(order.redirect_url, 'pay');
    const complete = await onramp.waitForStatus('sandbox', order.id, 'complete', {
      initialDelayMs: 100,
      maxDelayMs: 500,
      timeoutMs: 30_000,
    });
    expect(complete.status).toBe('complete');
    const received = await eventually(() => {
      const mine = events.filter((e) => e.type === 'order.status_changed' && e.data.id === order.id);
      return Promise.resolve(mine.length === 4 ? mine : undefined);
    }, 'four webhooks');
    expect(received.map((e) => (e.type === 'order.status_changed' ? [e.data.sequence, e.data.status] : []))).toEqual([
      [1, 'created'],
      [2, 'pending'],
      [3, 'processing'],
      [4, 'complete'],
    ]);
    const byUser: string[] = [];
    for await (const found of onramp.allOrders({ external_user_id: body.external_user_id, limit: 1 })) byUser.push(found.id);
    expect(byUser).toEqual([order.id]);
    // The export of the order's minute, as JSON lines read one by one and as CSV bytes.
    await new Promise((r) => setTimeout(r, 1200));
    const window = {
      requested_from: new Date(Date.parse(order.created_at) - 60_000).toISOString(),
      requested_to: new Date(Date.now() - 600).toISOString(),
      external_user_id: body.external_user_id,
    };
    const exported: { id: string; provider_code: string; status: string; quoted_fee_amount?: string }[] = [];
    for await (const line of onramp.exportOrders(window)) exported.push(line);
    expect(exported).toEqual([expect.objectContaining({ id: order.id, provider_code: 'sandbox', status: 'complete' })]);
    expect(exported[0]!.quoted_fee_amount).toMatch(/^\d+\.\d{2}$/);
    const csv = await new Response(await onramp.exportOrdersCsv(window)).text();
    expect(csv.split('\r\n')[0]).toMatch(/^id,external_order_id,/);
    expect(csv).toContain(`${order.id},${body.external_order_id},`);
    await expect(
      onramp.exportOrdersCsv({ ...window, requested_to: window.requested_from.replace(/^\d{4}/, '1999') }),
    ).rejects.toMatchObject({
      code: 'validation_error',
      status: 400,
    });
  });

  test('waitForStatus gives up with a timeout problem', async () => {
    const onramp = client();
    const body = draft();
    await offersFor(onramp, body);
    const order = await onramp.createOrder(body);
    await expect(onramp.waitForStatus('sandbox', order.id, 'complete', { initialDelayMs: 50, timeoutMs: 200 })).rejects.toMatchObject({
      code: 'timeout',
    });
  });
});

test('sendTestWebhook: a signed webhook.test event reaches the middleware, and the answer says so', async () => {
  const result = await client().sendTestWebhook();
  expect(result).toMatchObject({ delivered: true, status_code: 204 });
  const event = await eventually(
    () => Promise.resolve(events.find((e) => e.type === 'webhook.test' && e.data.webhook_id === result.webhook_id)),
    'the test event',
  );
  expect(event).toMatchObject({ type: 'webhook.test', data: { integrator_id: 'dev' } });
});

test('forgetCustomer: DELETE with the id URL-encoded, idempotent; a bad id is a validation_error problem', async () => {
  const onramp = client();
  const before = requests.length;
  await expect(onramp.forgetCustomer('team/42')).resolves.toBeUndefined();
  await expect(onramp.forgetCustomer('team/42')).resolves.toBeUndefined();
  expect(requests.slice(before)).toEqual([
    { method: 'DELETE', path: '/api/on_ramp/customers/team%2F42', status: 204 },
    { method: 'DELETE', path: '/api/on_ramp/customers/team%2F42', status: 204 },
  ]);
  const refused = await onramp.forgetCustomer('two words').catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(ProblemError);
  expect(refused).toMatchObject({ code: 'validation_error', status: 400, errors: [expect.objectContaining({ path: 'external_user_id' })] });
});

describe('verifyWebhook', () => {
  const body = JSON.stringify({
    type: 'webhook.test',
    timestamp: new Date().toISOString(),
    data: { integrator_id: 'dev', webhook_id: 'evt_1', message: 'hi' },
  });
  const signed = (secret: string) => {
    const at = new Date();
    return {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('evt_1', at, body),
    };
  };

  test('returns the typed event of a signed message, from a header record or Headers', () => {
    expect(verifyWebhook(signed(DEFAULT_DEV_WEBHOOK_SECRET), body, DEFAULT_DEV_WEBHOOK_SECRET).type).toBe('webhook.test');
    expect(verifyWebhook(new Headers(signed(DEFAULT_DEV_WEBHOOK_SECRET)), Buffer.from(body), DEFAULT_DEV_WEBHOOK_SECRET).type).toBe(
      'webhook.test',
    );
  });

  test('a message signed with another secret, or altered, is an invalid_signature problem', () => {
    const other = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect(() => verifyWebhook(signed(other), body, DEFAULT_DEV_WEBHOOK_SECRET)).toThrow(
      expect.objectContaining({ code: 'invalid_signature' }),
    );
    expect(() => verifyWebhook(signed(DEFAULT_DEV_WEBHOOK_SECRET), `${body} `, DEFAULT_DEV_WEBHOOK_SECRET)).toThrow(ProblemError);
  });
});
