/**
 * The catalogue endpoints and the offers rules through real HTTP to the three simulated providers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Express } from 'express';
import { buildApi } from '../../src/api/server';
import { createLogger } from '../../src/logging';
import { createSimulatorHost, type SimulatorHost } from '../../src/simulators';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { BTC, GBP, USD } from '../helpers/orders';

const EUR = 2;
let server: Server;
let host: SimulatorHost;
let app: Express;

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = testConfig();
  host = createSimulatorHost({
    sandbox: { apiKey: config.sandbox!.apiKey, webhookSecret: config.sandbox!.webhookSecret },
    brokerUrl: 'http://127.0.0.1:1',
    publicUrl: url,
  });
  server.on('request', host.app);
  app = buildApi({ ...config, sandbox: { ...config.sandbox!, baseUrl: url } }, createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' }), createLogger('silent', 'test'));
});

afterAll(async () => {
  host.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string) => request(app).get(path).set('X-Api-Key', TEST_API_KEY);
const codes = (list: { code: string }[]) => list.map((x) => x.code);

describe('GET /api/dict/countries', () => {
  test('every ISO 3166-1 country; states only for the US, with names', async () => {
    const res = await get('/api/dict/countries');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toContain('max-age=86400');
    expect(res.body.countries).toHaveLength(249);
    const us = res.body.countries.find((c: { code: string }) => c.code === 'US');
    expect(us.states).toHaveLength(51);
    expect(us.states).toContainEqual({ code: 'NY', name: 'New York' });
    expect(us.states).toContainEqual({ code: 'DC', name: 'District of Columbia' });
    expect(res.body.countries.find((c: { code: string }) => c.code === 'CA').states).toEqual([]);
    expect(res.body.countries.find((c: { code: string }) => c.code === 'DE')).toEqual({ code: 'DE', name: 'Germany', icon_url: 'https://flagcdn.com/de.svg', states: [] });
  });

  test.each(['/api/dict/countries', '/api/dict/currencies'])('%s has an ETag and answers 304 to a match', async (path) => {
    const first = await get(path);
    expect(first.headers.etag).toBeDefined();
    const again = await get(path).set('If-None-Match', first.headers.etag!);
    expect(again.status).toBe(304);
  });
});

describe('GET /api/on_ramp/payment_methods', () => {
  test('the union of what the providers take for the fiat currency, narrowed by country and provider', async () => {
    const usd = await get(`/api/on_ramp/payment_methods?fiat_currency=${USD}&country_code=US&state=CA`);
    expect(codes(usd.body.payment_methods)).toEqual(['ach', 'apple_pay', 'bank_transfer', 'card']);
    expect(usd.body.payment_methods[0]).toEqual({ code: 'ach', name: 'ACH bank transfer', icon_url: null });
    const eur = await get(`/api/on_ramp/payment_methods?fiat_currency=${EUR}&country_code=DE`);
    expect(codes(eur.body.payment_methods)).toEqual(['card', 'sepa']);
    const onlyUs = await get(`/api/on_ramp/payment_methods?fiat_currency=${EUR}&provider_codes=sandbox_us`);
    expect(onlyUs.body.payment_methods).toEqual([]);
  });

  test.each([
    ['', 'validation_error', 400],
    ['fiat_currency=USD', 'ticker_not_allowed', 400],
    [`fiat_currency=${BTC}`, 'unsupported_pair', 422],
    [`fiat_currency=${USD}&country_code=XX`, 'validation_error', 400],
    [`fiat_currency=${USD}&country_code=US&state=ZZ`, 'validation_error', 400],
    [`fiat_currency=${USD}&state=CA`, 'validation_error', 400],
  ])('?%s is %s', async (query, code, status) => {
    const res = await get(`/api/on_ramp/payment_methods?${query}`);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
  });
});

describe('GET /api/on_ramp/payment_methods_extra_info', () => {
  test("lists the provider's methods with their percentage fee", async () => {
    const res = await get('/api/on_ramp/payment_methods_extra_info?provider_code=sandbox');
    expect(res.body).toEqual({
      payment_methods: [
        { payment_method_code: 'card', fee: '3.99%' },
        { payment_method_code: 'bank_transfer', fee: '1%' },
        { payment_method_code: 'sepa', fee: '0.8%' },
      ],
    });
  });

  test.each(['', 'provider_code=nobody'])('?%s is a validation error', async (query) => {
    const res = await get(`/api/on_ramp/payment_methods_extra_info?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('provider_code');
  });
});

describe('GET /api/on_ramp/countries', () => {
  test('the union of served countries, with the states served where states matter', async () => {
    const res = await get('/api/on_ramp/countries');
    const us = res.body.countries.find((c: { code: string }) => c.code === 'US');
    expect(us.states).toContain('TX');
    expect(us.states).not.toContain('NY');
    expect(us.states).toHaveLength(49);
    expect(res.body.countries.find((c: { code: string }) => c.code === 'GB')).toEqual({ code: 'GB' });
    const usOnly = await get('/api/on_ramp/countries?provider_codes=sandbox_us');
    expect(codes(usOnly.body.countries)).toEqual(['CA', 'US']);
    expect(usOnly.body.countries[1].states).not.toContain('TX');
  });
});

describe('GET /api/on_ramp/currency_pairs', () => {
  test('per provider serving the country (and state)', async () => {
    const us = await get('/api/on_ramp/currency_pairs?country_code=US');
    expect(us.body.map((p: { provider_code: string }) => p.provider_code)).toEqual(['sandbox', 'sandbox_us']);
    expect(us.body[1].fiat_currencies).toEqual([USD, 4]);
    expect(us.body[1].crypto_currencies).toContain(BTC);
    const texas = await get('/api/on_ramp/currency_pairs?country_code=US&state=TX');
    expect(texas.body.map((p: { provider_code: string }) => p.provider_code)).toEqual(['sandbox']);
    const newYork = await get('/api/on_ramp/currency_pairs?country_code=US&state=NY');
    expect(newYork.body).toEqual([]);
    const gb = await get('/api/on_ramp/currency_pairs?country_code=GB');
    expect(gb.body.map((p: { provider_code: string }) => p.provider_code)).toEqual(['sandbox', 'sandbox_eu']);
  });

  test('country_code is required', async () => {
    const res = await get('/api/on_ramp/currency_pairs');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('country_code');
  });
});

describe('GET /api/on_ramp/providers', () => {
  test('providers serving the pair in the country', async () => {
    const gb = await get(`/api/on_ramp/providers?country_code=GB&from_currency=${GBP}&to_currency=${BTC}`);
    expect(codes(gb.body.providers)).toEqual(['sandbox', 'sandbox_eu']);
    expect(gb.body.providers[1]).toEqual(expect.objectContaining({ code: 'sandbox_eu', name: 'Sandbox Euro', description: expect.any(String), icon_url: expect.stringMatching(/^https:/) }));
    const us = await get(`/api/on_ramp/providers?country_code=US&state=FL&from_currency=${USD}&to_currency=${BTC}`);
    expect(codes(us.body.providers)).toEqual(['sandbox', 'sandbox_us']);
    const japan = await get(`/api/on_ramp/providers?country_code=JP&from_currency=${USD}&to_currency=${BTC}`);
    expect(japan.body.providers).toEqual([]);
  });

  test.each(['country_code=GB', `country_code=GB&from_currency=${GBP}`, `from_currency=${GBP}&to_currency=${BTC}`])('?%s misses a required parameter', async (query) => {
    expect((await get(`/api/on_ramp/providers?${query}`)).status).toBe(400);
  });
});

describe('catalogue routes take GET only', () => {
  test.each(['/api/dict/countries', '/api/on_ramp/payment_methods', '/api/on_ramp/payment_methods_extra_info', '/api/on_ramp/countries', '/api/on_ramp/currency_pairs', '/api/on_ramp/providers'])(
    'POST %s is 405',
    async (path) => {
      const res = await request(app).post(path).set('X-Api-Key', TEST_API_KEY);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET');
    },
  );
});

describe('offers across providers and regions', () => {
  const offers = (query: string) => get(`/api/on_ramp/offers?external_user_id=u1&currency_to=${BTC}&amount_from=100&include_errors=true&${query}`);

  test('a country with states needs one that exists', async () => {
    const missing = await offers(`currency_from=${USD}&country=US`);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('state_required');
    const wrong = await offers(`currency_from=${USD}&country=US&state=ZZ`);
    expect(wrong.body).toMatchObject({ code: 'validation_error', errors: [{ path: 'state' }] });
    const unknownCountry = await offers(`currency_from=${USD}&country=XX`);
    expect(unknownCountry.body).toMatchObject({ code: 'validation_error', errors: [{ path: 'country' }] });
  });

  test('each provider is in or out for its own reason', async () => {
    const texas = await offers(`currency_from=${USD}&country=US&state=TX`);
    expect(texas.status).toBe(200);
    expect(texas.body.sandbox.amount_expected_to).toMatch(/^\d+\.\d{8}$/);
    expect(texas.body.sandbox_us.error.code).toBe('state');
    expect(texas.body.sandbox_eu.error.code).toBe('country');
    const gb = await offers(`currency_from=${GBP}&country=GB`);
    expect(gb.body.sandbox.amount_expected_to).not.toBe(gb.body.sandbox_eu.amount_expected_to);
    expect(gb.body.sandbox_us.error.code).toBe('country');
    const pricey = await offers(`currency_from=${USD}&country=US&state=CA&payment_method=ach`);
    expect(pricey.body.sandbox.error.code).toBe('payment_method');
    expect(pricey.body.sandbox_us.payment_methods).toEqual([{ payment_method_code: 'ach', fee: '0.75' }]);
  });
});
