/**
 * The HTTP API through supertest, with the sandbox simulator answering over real HTTP and a
 * Temporal address where nothing listens (orders must then answer 503, never 500).
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Express } from 'express';
import { buildApi } from '../../src/api/server';
import { DEV_SANDBOX_WEBHOOK_SECRET, sandboxCredentials, withEndpoints } from '../../src/config';
import { createLogger } from '../../src/logging';
import { paybisSimulatorKeys } from '../../src/providers/paybis/config';
import { createSimulatorHost, type SimulatorHost } from '../../src/simulators';
import type { SandboxSimulator } from '../../src/simulators/sandbox/server';
import { paybisSignature } from '../../src/simulators/paybis/signing';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { BTC, draftOrder, GBP, sandboxOffersSearch } from '../helpers/orders';
import { signedSandboxWebhook } from '../helpers/webhooks';

let simulatorServer: Server;
let host: SimulatorHost;
let simulator: SandboxSimulator;
let app: Express;
/** A fresh API over the same simulators, its catalogues not loaded yet. */
let freshApp: () => Express;
const client = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });

beforeAll(async () => {
  simulatorServer = createServer();
  await new Promise<void>((resolve) => simulatorServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(simulatorServer.address() as AddressInfo).port}`;
  const config = testConfig({ offersProviderTimeoutMs: 1000, orderCreateTimeoutMs: 1000 });
  host = createSimulatorHost({
    sandbox: sandboxCredentials(config.providerEnv),
    brokerUrl: 'http://127.0.0.1:1',
    publicUrl: url,
  });
  simulator = host.get('sandbox');
  simulatorServer.on('request', host.app);
  freshApp = () =>
    buildApi(withEndpoints(config, { publicBaseUrl: config.publicBaseUrl, simulatorUrl: url }), client, createLogger('silent', 'test'));
  app = freshApp();
});

afterAll(async () => {
  host.stop();
  simulatorServer.closeAllConnections();
  await new Promise((resolve) => simulatorServer.close(resolve));
});

afterEach(() => {
  Object.assign(simulator.faults, { latencyMs: 0, errorRate: 0 });
});

const authed = (path: string) => request(app).get(path).set('X-Api-Key', TEST_API_KEY);
const offersQuery = sandboxOffersSearch;

/** The fields a problem's `errors` name, sorted. */
const pathsOf = (res: request.Response) => (res.body.errors as { path: string }[]).map((e) => e.path).sort();

function expectProblem(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.body).toMatchObject({ status, code, type: `urn:onramp-broker:problem:${code}` });
  expect(typeof res.body.title).toBe('string');
  expect(typeof res.body.detail).toBe('string');
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
}

describe('authentication', () => {
  test('no key is 401 with a Bearer challenge', async () => {
    const res = await request(app).get('/api/dict/currencies');
    expectProblem(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toContain('Bearer');
  });

  test('a wrong key is 401', async () => {
    expectProblem(await request(app).get('/api/dict/currencies').set('X-Api-Key', 'obk_test_wrong_key_000000000'), 401, 'unauthorized');
  });

  test('a request without a valid key is 401 before its body is read: a malformed body does not make it a 400', async () => {
    for (const path of ['/api/on_ramp/orders', '/api/on_ramp/validate-address']) {
      const res = await request(app).post(path).set('Content-Type', 'application/json').send('{"not json');
      expectProblem(res, 401, 'unauthorized');
    }
    const keyed = await request(app)
      .post('/api/on_ramp/orders')
      .set('X-Api-Key', TEST_API_KEY)
      .set('Content-Type', 'application/json')
      .send('{"not json');
    expect(keyed.status).toBe(400);
  });

  test('Authorization: Bearer is accepted too', async () => {
    const res = await request(app).get('/api/dict/currencies').set('Authorization', `Bearer ${TEST_API_KEY}`);
    expect(res.status).toBe(200);
  });
});

describe('errors', () => {
  test('an unknown route is a problem+json 404', async () => {
    expectProblem(await authed('/api/nope'), 404, 'not_found');
  });

  test('a wrong method is 405 with Allow', async () => {
    const res = await request(app).post('/api/on_ramp/offers').set('X-Api-Key', TEST_API_KEY);
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET');
  });

  test('a body that is not JSON is a validation error, not a 500', async () => {
    const res = await request(app)
      .post('/api/on_ramp/orders')
      .set('X-Api-Key', TEST_API_KEY)
      .set('Content-Type', 'application/json')
      .send('{"provider_code": ');
    expectProblem(res, 400, 'validation_error');
    expect(res.body.detail).toBe('The request body is not valid JSON.');
  });

  test.each(['null', '"order"', '42', 'true'])('a JSON body %s, valid JSON but no object, says it must be an object', async (body) => {
    const res = await request(app)
      .post('/api/on_ramp/orders')
      .set('X-Api-Key', TEST_API_KEY)
      .set('Content-Type', 'application/json')
      .send(body);
    expectProblem(res, 400, 'validation_error');
    expect(res.body.detail).toBe('The request body must be a JSON object.');
  });

  test('every answer carries the OWASP REST set of security headers, none of the HTML page ones, and no X-Powered-By', async () => {
    for (const res of [await authed('/api/dict/currencies'), await authed('/api/nope'), await request(app).get('/healthz')]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      for (const page of [
        'referrer-policy',
        'x-dns-prefetch-control',
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-xss-protection',
      ]) {
        expect(res.headers[page]).toBeUndefined();
      }
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  test('answers are no-store with no ETag, except the dictionaries, which may be kept and revalidated', async () => {
    const personal = [
      await authed(`/api/on_ramp/offers?${offersQuery()}`),
      await authed(`/api/on_ramp/offers?${offersQuery({ country: 'XX' })}`),
      await authed('/api/on_ramp/payment_methods?fiat_currency=' + GBP),
      await authed('/api/nope'),
    ];
    for (const res of personal) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.etag).toBeUndefined();
    }
    const dictionary = await authed('/api/dict/currencies');
    expect(dictionary.headers['cache-control']).toBe('private, max-age=86400');
    expect(dictionary.headers.etag).toMatch(/^"[\w-]+"$/);
  });

  test('If-None-Match: * gets the answer, not an empty 304, where there is no validator; the dictionary still revalidates', async () => {
    for (const path of [`/api/on_ramp/offers?${offersQuery()}`, '/api/on_ramp/countries']) {
      const res = await authed(path).set('If-None-Match', '*');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body as object).length).toBeGreaterThan(0);
    }
    const dictionary = await authed('/api/dict/currencies');
    expect((await authed('/api/dict/currencies').set('If-None-Match', '*')).status).toBe(304);
    expect((await authed('/api/dict/currencies').set('If-None-Match', String(dictionary.headers.etag))).status).toBe(304);
    expect((await authed('/api/dict/currencies').set('If-None-Match', '"other"')).status).toBe(200);
  });

  test('a conditional request with Cache-Control: no-cache (what fetch sends with If-None-Match) still gets 304 when the ETag matches', async () => {
    const dictionary = await authed('/api/dict/currencies');
    const etag = String(dictionary.headers.etag);
    for (const cacheControl of ['no-cache', 'max-age=0']) {
      const res = await authed('/api/dict/currencies').set('If-None-Match', etag).set('Cache-Control', cacheControl);
      expect([cacheControl, res.status]).toEqual([cacheControl, 304]);
      expect(res.headers.etag).toBe(etag);
    }
    // A weak validator and a list match too; another tag does not.
    expect((await authed('/api/dict/currencies').set('If-None-Match', `"x", W/${etag}`).set('Cache-Control', 'no-cache')).status).toBe(304);
    expect((await authed('/api/dict/currencies').set('If-None-Match', '"other"').set('Cache-Control', 'no-cache')).status).toBe(200);
  });

  test('the OpenAPI document answers other methods with 405 and Allow, with or without a key', async () => {
    for (const res of [
      await request(app).post('/api/openapi.json'),
      await request(app).delete('/api/openapi.json').set('X-Api-Key', TEST_API_KEY),
    ]) {
      expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers.allow).toBe('GET');
    }
  });

  test('request ids are echoed, or made up', async () => {
    const given = await authed('/api/dict/currencies').set('X-Request-Id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await authed('/api/nope');
    expect(made.body.request_id).toBe(made.headers['x-request-id']);
  });
});

describe('GET /api/dict/currencies', () => {
  test('serves the dictionary with a 24 h cache lifetime', async () => {
    const res = await authed('/api/dict/currencies');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toContain('max-age=86400');
    expect(res.body.currencies.find((c: { id: number }) => c.id === BTC)).toMatchObject({
      ticker: 'BTC',
      network: 'bitcoin',
      precision: 8,
    });
  });
});

describe('GET /api/on_ramp/offers', () => {
  test('returns the sandbox offer with decimal strings', async () => {
    const res = await authed(`/api/on_ramp/offers?${offersQuery()}`);
    expect(res.status).toBe(200);
    const offer = res.body.sandbox;
    for (const field of ['rate', 'inverted_rate', 'fee', 'amount_from', 'amount_expected_to', 'total_fee_amount']) {
      expect(offer[field]).toMatch(/^\d+(\.\d+)?$/);
    }
    expect(offer.amount_from).toBe('100.00');
  });

  test('the query string is parsed once per request (Express parses it again on every read of req.query)', async () => {
    let parses = 0;
    app.set('query parser', (raw: string) => {
      parses++;
      return parseQueryString(raw);
    });
    try {
      const res = await authed(`/api/on_ramp/offers?${offersQuery()}`);
      expect(res.status).toBe(200);
      expect(parses).toBe(1);
      parses = 0;
      const invalid = await authed(`/api/on_ramp/offers?${offersQuery({ amount_from: 'ten', country: 'XX' })}`);
      expect(invalid.status).toBe(400);
      expect(parses).toBe(1);
    } finally {
      app.set('query parser', 'simple');
    }
  });

  test.each([
    ['currency_from', 'USD', 'ticker_not_allowed'],
    ['currency_to', 'btc', 'ticker_not_allowed'],
    ['currency_from', '99999', 'unknown_currency'],
    ['currency_from', '1.5', 'validation_error'],
    ['currency_from', String(BTC), 'unsupported_pair'],
  ])('%s=%s is %s', async (param, value, code) => {
    const res = await authed(`/api/on_ramp/offers?${offersQuery({ [param]: value })}`);
    expectProblem(res, code === 'unsupported_pair' ? 422 : 400, code);
  });

  test('lists every malformed field', async () => {
    const res = await authed(`/api/on_ramp/offers?currency_from=${GBP}&currency_to=${BTC}&amount_from=ten&country=gb`);
    expectProblem(res, 400, 'validation_error');
    expect(pathsOf(res)).toEqual(['amount_from', 'country', 'external_user_id']);
  });

  test.each(['u 1', '\u00fc', 'x'.repeat(129)])('external_user_id %j, which an order would refuse, is refused here too', async (id) => {
    const res = await authed(`/api/on_ramp/offers?${offersQuery({ external_user_id: id })}`);
    expectProblem(res, 400, 'validation_error');
    expect(pathsOf(res)).toEqual(['external_user_id']);
  });

  test('lists the offending fields of every kind of check at once, not the first one only', async () => {
    // A malformed amount (schema), a country that does not exist (dictionary) and a state that is
    // not the country's were once found one answer at a time.
    const res = await authed(`/api/on_ramp/offers?${offersQuery({ amount_from: '1,5', country: 'XX' })}`);
    expectProblem(res, 400, 'validation_error');
    expect(pathsOf(res)).toEqual(['amount_from', 'country']);
    const state = await authed(`/api/on_ramp/offers?${offersQuery({ amount_from: '100.001', country: 'US', state: 'ZZ' })}`);
    expectProblem(state, 400, 'validation_error');
    expect(pathsOf(state)).toEqual(['amount_from', 'state']);
    expect(state.body.detail).toMatch(/1 other field\(s\) are invalid too/);
  });

  test('the most telling problem leads the answer, and the other fields are still listed', async () => {
    const ticker = await authed(`/api/on_ramp/offers?${offersQuery({ currency_from: 'USD', amount_from: 'ten', country: 'gb' })}`);
    expectProblem(ticker, 400, 'ticker_not_allowed');
    expect(pathsOf(ticker)).toEqual(['amount_from', 'country', 'currency_from']);
    const unknown = await authed(`/api/on_ramp/offers?${offersQuery({ currency_to: '99999', country: 'US', amount_from: '0' })}`);
    expectProblem(unknown, 400, 'unknown_currency');
    expect(pathsOf(unknown)).toEqual(['amount_from', 'currency_to', 'state']);
    const state = await authed(`/api/on_ramp/offers?${offersQuery({ country: 'US', amount_from: '-1' })}`);
    expectProblem(state, 400, 'state_required');
    expect(pathsOf(state)).toEqual(['amount_from', 'state']);
    // A malformed request (400) leads a currency of the wrong kind (422).
    const pair = await authed(`/api/on_ramp/offers?${offersQuery({ currency_from: String(BTC), external_user_id: '' })}`);
    expectProblem(pair, 400, 'validation_error');
    expect(pathsOf(pair)).toEqual(['currency_from', 'external_user_id']);
  });

  test('a check that depends on a field with a problem is skipped: no decimals check without a currency', async () => {
    const res = await authed(`/api/on_ramp/offers?${offersQuery({ currency_from: '99999', amount_from: '100.001' })}`);
    expectProblem(res, 400, 'unknown_currency');
    expect(pathsOf(res)).toEqual(['currency_from']);
  });

  test('include_errors explains a provider left out for its limits', async () => {
    const res = await authed(`/api/on_ramp/offers?${offersQuery({ amount_from: '5', include_errors: 'true' })}`);
    expect(res.status).toBe(200);
    expect(res.body.sandbox.error).toMatchObject({ code: 'limits', min_amount: '20.00' });
    const without = await authed(`/api/on_ramp/offers?${offersQuery({ amount_from: '5' })}`);
    expect(without.body).toEqual({});
  });

  test('a provider slower than its deadline is left out, and the answer does not wait for it', async () => {
    simulator.faults.latencyMs = 3000;
    const started = Date.now();
    const res = await authed(`/api/on_ramp/offers?${offersQuery({ include_errors: 'true' })}`);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(res.body.sandbox.error.code).toBe('timeout');
  });

  test('payment_methods_extra_info: an enabled provider whose catalogue has never loaded is 503 provider_unavailable, not a caller mistake', async () => {
    const fresh = freshApp();
    const extraInfo = (code: string) =>
      request(fresh).get(`/api/on_ramp/payment_methods_extra_info?provider_code=${code}`).set('X-Api-Key', TEST_API_KEY);
    simulator.faults.errorRate = 1;
    const down = await extraInfo('sandbox');
    expectProblem(down, 503, 'provider_unavailable');
    expect(down.headers['retry-after']).toBe('5');
    expectProblem(await extraInfo('someone_else'), 400, 'validation_error');
    simulator.faults.errorRate = 0;
    const up = await extraInfo('sandbox');
    expect(up.status).toBe(200);
    expect(up.body.payment_methods.length).toBeGreaterThan(0);
  });

  test('a failing provider is reported unavailable', async () => {
    simulator.faults.errorRate = 1;
    const res = await authed(`/api/on_ramp/offers?${offersQuery({ include_errors: 'true' })}`);
    expect(res.body.sandbox.error.code).toBe('unavailable');
  });

  test('provider_codes names enabled providers only, once: a typo or a repeated parameter is a validation error, not an empty answer', async () => {
    const sandbox = await authed(`/api/on_ramp/offers?${offersQuery({ provider_codes: 'sandbox' })}`);
    expect(Object.keys(sandbox.body as object)).toEqual(['sandbox']);
    const typo = await authed(`/api/on_ramp/offers?${offersQuery({ provider_codes: 'sandbox,someone_else' })}`);
    expectProblem(typo, 400, 'validation_error');
    expect(pathsOf(typo)).toEqual(['provider_codes']);
    const repeated = await authed(`/api/on_ramp/offers?${offersQuery()}&provider_codes=sandbox&provider_codes=sandbox`);
    expectProblem(repeated, 400, 'validation_error');
    expect(pathsOf(repeated)).toEqual(['provider_codes']);
  });
});

describe('orders', () => {
  const order = draftOrder({ external_user_id: 'user-1', external_order_id: 'order-1' });
  const post = (body: unknown) =>
    request(app)
      .post('/api/on_ramp/orders')
      .set('X-Api-Key', TEST_API_KEY)
      .send(body as object);

  test.each(['external_user_id', 'external_order_id', 'wallet_address', 'provider_code'])(
    'missing %s is a validation error naming it',
    async (field) => {
      const body: Record<string, unknown> = { ...order };
      delete body[field];
      const res = await post(body);
      expectProblem(res, 400, 'validation_error');
      expect(res.body.errors).toEqual([{ path: field, message: 'required' }]);
    },
  );

  test('a ticker in from_currency is ticker_not_allowed', async () => {
    expectProblem(await post({ ...order, from_currency: 'USD' }), 400, 'ticker_not_allowed');
  });

  test('a currency ID sent as a string is validation_error naming the field: the body takes JSON numbers', async () => {
    const res = await post({ ...order, from_currency: String(order.from_currency) });
    expectProblem(res, 400, 'validation_error');
    expect(res.body.errors).toEqual([{ path: 'from_currency', message: 'expected a JSON number, not a string' }]);
  });

  test('too many decimals for the fiat currency is refused', async () => {
    const res = await post({ ...order, from_amount: '100.001' });
    expectProblem(res, 400, 'validation_error');
    expect(res.body.errors[0].path).toBe('from_amount');
  });

  test("a payment method the provider does not offer is a validation error listing the provider's methods", async () => {
    const res = await post({ ...order, payment_method: 'carrier_pigeon' });
    expectProblem(res, 400, 'validation_error');
    expect(res.body.errors).toEqual([{ path: 'payment_method', message: 'one of card, bank_transfer, sepa' }]);
  });

  test('every offending field of an order is listed, led by the most telling problem', async () => {
    const res = await post({
      ...order,
      from_currency: 'USD',
      to_currency: 99999,
      from_amount: '100.001',
      country_code: 'XX',
      provider_code: 'nobody',
    });
    expectProblem(res, 400, 'ticker_not_allowed');
    expect(pathsOf(res)).toEqual(['country_code', 'from_currency', 'provider_code', 'to_currency']);
    const fields = await post({ ...order, from_amount: '100.001', country_code: 'US', state_code: 'ZZ', payment_method: 'carrier_pigeon' });
    expectProblem(fields, 400, 'validation_error');
    expect(pathsOf(fields)).toEqual(['from_amount', 'payment_method', 'state_code']);
  });

  test('a US order without its state is state_required', async () => {
    expectProblem(await post({ ...order, country_code: 'US' }), 400, 'state_required');
  });

  test('a form-encoded body is 415', async () => {
    const res = await request(app).post('/api/on_ramp/orders').set('X-Api-Key', TEST_API_KEY).type('form').send('a=b');
    expectProblem(res, 415, 'unsupported_media_type');
  });

  test('with Temporal unreachable, creating an order is 503 with Retry-After', async () => {
    await authed(`/api/on_ramp/offers?${offersQuery()}`);
    const res = await post(order);
    expectProblem(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('5');
  });

  test('with Temporal unreachable, reading an order is 503', async () => {
    expectProblem(await authed('/api/on_ramp/orders/sandbox?code=8d3f6f8e-1b2c-4d5e-9f00-112233445566'), 503, 'service_unavailable');
  });
});

describe('provider webhooks', () => {
  test('an unsigned webhook is 401', async () => {
    const res = await request(app).post('/api/webhooks/sandbox').send({ event_id: 'x' });
    expectProblem(res, 401, 'invalid_signature');
  });

  test('a verified webhook while Temporal is unreachable is 503, so the provider retries', async () => {
    const { body, signature } = signedSandboxWebhook(DEV_SANDBOX_WEBHOOK_SECRET, {
      partner_order_id: '8d3f6f8e-1b2c-4d5e-9f00-112233445566',
      status: 'COMPLETED',
    });
    const res = await request(app)
      .post('/api/webhooks/sandbox')
      .set('Content-Type', 'application/json')
      .set('Sandbox-Signature', signature)
      .send(body);
    expectProblem(res, 503, 'service_unavailable');
  });

  test('a verified webhook of a kind the broker does not act on (a Paybis KYC event) is acknowledged 200, with nothing signalled', async () => {
    const kyc = JSON.stringify({
      event: 'VERIFICATION_STATUS_UPDATED',
      data: { partnerUserId: 'user-1', status: 'started' },
      timestamp: 1,
    });
    const post = (signature: string) =>
      request(app).post('/api/webhooks/paybis').set('Content-Type', 'application/json').set('X-Request-Signature', signature).send(kyc);
    // Temporal is unreachable here: a signal would have made this a 503.
    const acknowledged = await post(paybisSignature(kyc, paybisSimulatorKeys(undefined).webhookSigningKey));
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body).toEqual({ received: true });
    // Signed with any other key, the same body is still refused.
    expectProblem(
      await post(paybisSignature(kyc, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)),
      401,
      'invalid_signature',
    );
  });

  test('a webhook for an unknown provider is 404', async () => {
    expectProblem(await request(app).post('/api/webhooks/nobody').send({}), 404, 'not_found');
  });
});

describe('health', () => {
  test('/healthz is up, /readyz says Temporal is not reachable', async () => {
    expect((await request(app).get('/healthz')).status).toBe(200);
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toEqual({ temporal: false });
  });
});
