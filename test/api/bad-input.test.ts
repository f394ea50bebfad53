/**
 * Bad order input through the HTTP API: `extras` past its limits, a zero amount, and customer
 * return URLs of other schemes are each a 400 problem naming the field, never a 500 or a 422. The
 * sandbox simulator answers offers over real HTTP; Temporal is unreachable, so an order that passes
 * every check answers 503.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import request from 'supertest';
import { buildApi } from '../../src/api/server';
import { sandboxCredentials, withEndpoints } from '../../src/config';
import { createLogger } from '../../src/logging';
import { EXTRAS_LIMITS } from '../../src/orders/extras-limits';
import { CUSTOMER_URL_MAX_BYTES } from '../../src/providers/kit/url';
import { createSimulatorHost, type SimulatorHost } from '../../src/simulators';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { draftOrder, type OrderDraft } from '../helpers/orders';

let simulatorServer: Server;
let host: SimulatorHost;
let development: Express;
let production: Express;

beforeAll(async () => {
  simulatorServer = createServer();
  await new Promise<void>((resolve) => simulatorServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(simulatorServer.address() as AddressInfo).port}`;
  const config = withEndpoints(testConfig({ offersProviderTimeoutMs: 1000, orderCreateTimeoutMs: 1000 }), {
    publicBaseUrl: 'http://127.0.0.1:1',
    simulatorUrl: url,
  });
  host = createSimulatorHost({ sandbox: sandboxCredentials(config.providerEnv), brokerUrl: 'http://127.0.0.1:1', publicUrl: url });
  simulatorServer.on('request', host.app);
  const client = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
  development = buildApi(config, client, createLogger('silent', 'test'));
  production = buildApi({ ...config, env: 'production' }, client, createLogger('silent', 'test'));
});

afterAll(async () => {
  host.stop();
  simulatorServer.closeAllConnections();
  await new Promise((resolve) => simulatorServer.close(resolve));
});

/** Asks for the draft's offer, then posts the order (the body as given, so it can be any JSON). */
async function offerThenPost(app: Express, draft: OrderDraft, body: unknown = draft) {
  const query = new URLSearchParams({
    provider_codes: 'sandbox',
    external_user_id: draft.external_user_id,
    currency_from: String(draft.from_currency),
    currency_to: String(draft.to_currency),
    amount_from: draft.from_amount,
    country: draft.country_code,
  });
  const offers = await request(app).get(`/api/on_ramp/offers?${query.toString()}`).set('X-Api-Key', TEST_API_KEY);
  expect(offers.status).toBe(200);
  return request(app)
    .post('/api/on_ramp/orders')
    .set('X-Api-Key', TEST_API_KEY)
    .set('Content-Type', 'application/json')
    .send(typeof body === 'string' ? body : JSON.stringify(body));
}

function expectValidationError(res: request.Response, path: string) {
  expect(res.status).toBe(400);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.body).toMatchObject({ code: 'validation_error', errors: [expect.objectContaining({ path })] });
}

/** `value` in `levels` nested objects. */
const nested = (levels: number, value: unknown = 'x'): unknown => (levels === 0 ? value : { a: nested(levels - 1, value) });

describe('extras limits', () => {
  test('extras nested thousands deep is a 400 naming extras, not a 500', async () => {
    const draft = draftOrder();
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    const body = JSON.stringify({ ...draft, extras: { note: 'x' } }).replace('"x"', deep);
    const res = await offerThenPost(development, draft, body);
    expectValidationError(res, 'extras');
  });

  test(`extras ${EXTRAS_LIMITS.depth} levels deep passes; one more is refused`, async () => {
    const deepest = draftOrder({ extras: nested(EXTRAS_LIMITS.depth) as Record<string, unknown> });
    expect((await offerThenPost(development, deepest)).status).toBe(503);
    const deeper = draftOrder({ extras: nested(EXTRAS_LIMITS.depth + 1) as Record<string, unknown> });
    expectValidationError(await offerThenPost(development, deeper), 'extras');
  });

  test(`more than ${EXTRAS_LIMITS.keys} keys in all is refused`, async () => {
    const keys = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
    const wide = draftOrder({ extras: { ...keys(40, 'k'), inner: keys(EXTRAS_LIMITS.keys - 40, 'i') } });
    expectValidationError(await offerThenPost(development, wide), 'extras');
  });

  test(`more than ${EXTRAS_LIMITS.bytes} bytes is refused`, async () => {
    const large = draftOrder({ extras: { note: 'x'.repeat(EXTRAS_LIMITS.bytes) } });
    expectValidationError(await offerThenPost(development, large), 'extras');
  });
});

test.each(['0', '0.00'])('from_amount %s is a 400 naming from_amount, not offer_expired', async (amount) => {
  const draft = draftOrder();
  const res = await offerThenPost(development, draft, { ...draft, from_amount: amount });
  expectValidationError(res, 'from_amount');
});

describe('customer return URLs in extras', () => {
  const refusedEverywhere = [
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ftp://wallet.example/done',
    'http://wallet.example/done',
    'https://user:secret@wallet.example/done',
    'not a url',
  ];

  test.each(['return_url', 'redirect_url'].flatMap((key) => refusedEverywhere.map((url) => [key, url])))(
    'extras.%s %s is refused with validation_error naming it',
    async (key, url) => {
      const res = await offerThenPost(development, draftOrder({ extras: { [key]: url } }));
      expectValidationError(res, `extras.${key}`);
    },
  );

  test(`a URL over ${CUSTOMER_URL_MAX_BYTES} bytes is refused; one of exactly that passes`, async () => {
    // Counted in bytes of UTF-8: each é is two.
    const head = 'https://wallet.example/';
    const url = (bytes: number) => `${head}${'é'.repeat(Math.floor((bytes - head.length) / 2))}${'a'.repeat((bytes - head.length) % 2)}`;
    for (const key of ['return_url', 'redirect_url']) {
      expectValidationError(
        await offerThenPost(development, draftOrder({ extras: { [key]: url(CUSTOMER_URL_MAX_BYTES + 1) } })),
        `extras.${key}`,
      );
      expect((await offerThenPost(development, draftOrder({ extras: { [key]: url(CUSTOMER_URL_MAX_BYTES) } }))).status).toBe(503);
    }
  });

  test('an https: URL passes', async () => {
    const draft = draftOrder({ extras: { return_url: 'https://wallet.example/done', redirect_url: 'https://wallet.example/done' } });
    expect((await offerThenPost(production, draft)).status).toBe(503);
  });

  test.each(['http://localhost:8080/done', 'http://127.0.0.1/done', 'http://[::1]/done'])(
    'http: to loopback (%s) passes in development and is refused in production',
    async (url) => {
      expect((await offerThenPost(development, draftOrder({ extras: { return_url: url } }))).status).toBe(503);
      expectValidationError(await offerThenPost(production, draftOrder({ extras: { return_url: url } })), 'extras.return_url');
    },
  );
});
