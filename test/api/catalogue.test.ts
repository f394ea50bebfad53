/**
 * The catalogue endpoints and the offers rules through real HTTP to the simulated providers: the
 * generic sandbox and the simulators of MoonPay, Transak, Banxa, Mercuryo and Ramp, each with its
 * own coverage (countries, US states, fiat currencies, payment methods) and prices.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Express } from 'express';
import { buildApi } from '../../src/api/server';
import { sandboxCredentials, withEndpoints } from '../../src/config';
import { createLogger } from '../../src/logging';
import { createSimulatorHost, type SimulatorHost } from '../../src/simulators';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { BTC, EUR, GBP, USD } from '../helpers/orders';

const CAD = 4;
const USDT = 15;
/**
 * The providers whose simulated coverage, methods and prices this test states, written out: a
 * provider dropped from the manifest fails here. A provider added to it is left out (its own tests
 * state its coverage): unions are asked of these providers only, and lists of providers are read
 * for these.
 */
const PROVIDERS = ['banxa', 'mercuryo', 'moonpay', 'ramp', 'sandbox', 'transak'];
const OF_THESE = `provider_codes=${PROVIDERS.join(',')}`;
const described = (codes: string[]) => codes.filter((code) => PROVIDERS.includes(code));
let server: Server;
let host: SimulatorHost;
let app: Express;

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = testConfig();
  host = createSimulatorHost({
    sandbox: sandboxCredentials(config.providerEnv),
    brokerUrl: 'http://127.0.0.1:1',
    publicUrl: url,
  });
  server.on('request', host.app);
  app = buildApi(
    withEndpoints(config, { publicBaseUrl: config.publicBaseUrl, simulatorUrl: url }),
    createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' }),
    createLogger('silent', 'test'),
  );
});

afterAll(async () => {
  host.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string) => request(app).get(path).set('X-Api-Key', TEST_API_KEY);
const codes = (list: { code: string }[]) => list.map((x) => x.code);
const providerCodes = (list: { code: string }[]) => described(codes(list));

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
    expect(res.body.countries.find((c: { code: string }) => c.code === 'DE')).toEqual({
      code: 'DE',
      name: 'Germany',
      icon_url: 'https://flagcdn.com/de.svg',
      states: [],
    });
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
    const usd = await get(`/api/on_ramp/payment_methods?fiat_currency=${USD}&country_code=US&state=CA&${OF_THESE}`);
    expect(codes(usd.body.payment_methods)).toEqual(['ach', 'apple_pay', 'bank_transfer', 'card', 'google_pay', 'paypal']);
    expect(usd.body.payment_methods[0]).toEqual({ code: 'ach', name: expect.stringMatching(/^ach bank transfer$/i), icon_url: null });
    const eur = await get(`/api/on_ramp/payment_methods?fiat_currency=${EUR}&country_code=DE&${OF_THESE}`);
    expect(codes(eur.body.payment_methods)).toEqual(['apple_pay', 'card', 'google_pay', 'paypal', 'revolut_pay', 'sepa']);
    const onlyRamp = await get(`/api/on_ramp/payment_methods?fiat_currency=${EUR}&provider_codes=ramp`);
    expect(codes(onlyRamp.body.payment_methods)).toEqual(['apple_pay', 'card', 'google_pay', 'sepa']);
    const rampInCad = await get(`/api/on_ramp/payment_methods?fiat_currency=${CAD}&provider_codes=ramp`);
    expect(rampInCad.body.payment_methods).toEqual([]);
  });

  test('a rail that works only in its own region is not listed elsewhere: no ACH in the UK, no SEPA in the US', async () => {
    const usdInGb = await get(`/api/on_ramp/payment_methods?fiat_currency=${USD}&country_code=GB`);
    expect(codes(usdInGb.body.payment_methods)).not.toContain('ach');
    expect(codes(usdInGb.body.payment_methods)).toContain('card');
    const usdAnywhere = await get(`/api/on_ramp/payment_methods?fiat_currency=${USD}`);
    expect(codes(usdAnywhere.body.payment_methods)).toContain('ach');
    const eurInUs = await get(`/api/on_ramp/payment_methods?fiat_currency=${EUR}&country_code=US&state=CA`);
    expect(codes(eurInUs.body.payment_methods)).not.toContain('sepa');
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

  test('a bad currency and a bad country are listed together, the currency problem leading', async () => {
    const res = await get('/api/on_ramp/payment_methods?fiat_currency=USD&country_code=XX');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ticker_not_allowed');
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['country_code', 'fiat_currency']);
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

  test.each(PROVIDERS)('%s: every method has a fee in percentage form', async (code) => {
    const res = await get(`/api/on_ramp/payment_methods_extra_info?provider_code=${code}`);
    expect(res.status).toBe(200);
    expect(res.body.payment_methods.length).toBeGreaterThan(0);
    for (const entry of res.body.payment_methods) expect(entry.fee).toMatch(/^\d+(\.\d+)?%$/);
  });

  test('providers that price each quote get the fee their quotes charge (Banxa, Transak) or their whole fee (Mercuryo)', async () => {
    const fees = async (code: string) => {
      const res = await get(`/api/on_ramp/payment_methods_extra_info?provider_code=${code}`);
      return Object.fromEntries(
        res.body.payment_methods.map((m: { payment_method_code: string; fee: string }) => [m.payment_method_code, m.fee]),
      );
    };
    // The simulators' rates (src/simulators/*/profile.ts): Banxa's card 1.99 %, ACH 0.5 %, SEPA 0.4 %; Transak's card 4.99 %.
    expect(await fees('banxa')).toMatchObject({
      card: '1.99%',
      apple_pay: '1.99%',
      ach: '0.5%',
      sepa: '0.4%',
      payid: '0%',
      pix: '1%',
      upi: '1.2%',
    });
    expect(await fees('transak')).toMatchObject({ card: '4.99%', ach: '1.25%', sepa: '0.99%' });
    // Mercuryo's one fee covers the network too, so its share is above its 3.95 % rate, and the same for every method.
    const mercuryo = Object.values(await fees('mercuryo')).map((fee) => Number(String(fee).slice(0, -1)));
    expect(new Set(mercuryo).size).toBe(1);
    expect(mercuryo[0]).toBeGreaterThan(3.95);
    expect(mercuryo[0]).toBeLessThan(5);
  });

  test.each(['', 'provider_code=nobody'])('?%s is a validation error', async (query) => {
    const res = await get(`/api/on_ramp/payment_methods_extra_info?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('provider_code');
  });
});

describe('GET /api/on_ramp/countries', () => {
  test('the union of served countries, with the states served where states matter', async () => {
    const res = await get(`/api/on_ramp/countries?${OF_THESE}`);
    const us = res.body.countries.find((c: { code: string }) => c.code === 'US');
    // Mercuryo lists the US without states: it serves every one, New York included.
    expect(us.states).toHaveLength(51);
    expect(res.body.countries.find((c: { code: string }) => c.code === 'GB')).toEqual({ code: 'GB' });
    expect(codes(res.body.countries)).toEqual(expect.arrayContaining(['AU', 'DE', 'IN', 'NZ', 'TR']));
    const rampOnly = await get('/api/on_ramp/countries?provider_codes=ramp');
    expect(codes(rampOnly.body.countries)).not.toContain('AU');
    const rampStates = rampOnly.body.countries.find((c: { code: string }) => c.code === 'US').states;
    expect(rampStates).toHaveLength(47);
    for (const state of ['NY', 'HI', 'AK', 'NV']) expect(rampStates).not.toContain(state);
    // Banxa serves Alaska, Ramp does not; neither serves New York, Nevada or Hawaii.
    const banxaOrRamp = await get('/api/on_ramp/countries?provider_codes=banxa,ramp');
    const unionStates = banxaOrRamp.body.countries.find((c: { code: string }) => c.code === 'US').states;
    expect(unionStates).toContain('AK');
    for (const state of ['NY', 'HI', 'NV']) expect(unionStates).not.toContain(state);
  });
});

describe('GET /api/on_ramp/currency_pairs', () => {
  test('per provider serving the country (and state)', async () => {
    const pairCodes = (body: { provider_code: string }[]) => described(body.map((p) => p.provider_code));
    const us = await get('/api/on_ramp/currency_pairs?country_code=US');
    expect(pairCodes(us.body)).toEqual(PROVIDERS);
    const ramp = us.body.find((p: { provider_code: string }) => p.provider_code === 'ramp');
    expect(ramp.fiat_currencies).toEqual([USD, EUR, GBP, 6, 8, 9, 10]);
    expect(ramp.crypto_currencies).toContain(BTC);
    const nevada = await get('/api/on_ramp/currency_pairs?country_code=US&state=NV');
    expect(pairCodes(nevada.body)).toEqual(['mercuryo', 'moonpay', 'sandbox', 'transak']);
    const newYork = await get('/api/on_ramp/currency_pairs?country_code=US&state=NY');
    expect(pairCodes(newYork.body)).toEqual(['mercuryo']);
    const gb = await get('/api/on_ramp/currency_pairs?country_code=GB');
    expect(pairCodes(gb.body)).toEqual(PROVIDERS);
    const australia = await get('/api/on_ramp/currency_pairs?country_code=AU');
    expect(pairCodes(australia.body)).toEqual(['banxa', 'moonpay', 'sandbox', 'transak']);
  });

  test("a provider's crypto currencies leave out those it does not sell in the country", async () => {
    const moonpayIn = async (query: string) =>
      (await get(`/api/on_ramp/currency_pairs?provider_codes=moonpay&${query}`)).body[0].crypto_currencies as number[];
    // The simulated MoonPay sells no stablecoin in Canada, nor in New York (where it serves no one anyway).
    expect(await moonpayIn('country_code=CA')).not.toContain(USDT);
    expect(await moonpayIn('country_code=CA')).toContain(BTC);
    expect(await moonpayIn('country_code=GB')).toContain(USDT);
    expect(await moonpayIn('country_code=US&state=CA')).toContain(USDT);
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
    expect(providerCodes(gb.body.providers)).toEqual(PROVIDERS);
    expect(gb.body.providers.find((p: { code: string }) => p.code === 'moonpay')).toEqual({
      code: 'moonpay',
      name: 'MoonPay',
      description: expect.any(String),
      icon_url: expect.stringMatching(/^https:/),
    });
    const nevada = await get(`/api/on_ramp/providers?country_code=US&state=NV&from_currency=${USD}&to_currency=${BTC}`);
    expect(providerCodes(nevada.body.providers)).toEqual(['mercuryo', 'moonpay', 'sandbox', 'transak']);
    const canadianDollars = await get(`/api/on_ramp/providers?country_code=CA&from_currency=${CAD}&to_currency=${BTC}`);
    expect(providerCodes(canadianDollars.body.providers)).toEqual(['banxa', 'moonpay', 'sandbox', 'transak']);
    const canadianTether = await get(`/api/on_ramp/providers?country_code=CA&from_currency=${CAD}&to_currency=${USDT}`);
    expect(providerCodes(canadianTether.body.providers)).not.toContain('moonpay');
    const britishTether = await get(`/api/on_ramp/providers?country_code=GB&from_currency=${GBP}&to_currency=${USDT}`);
    expect(providerCodes(britishTether.body.providers)).toContain('moonpay');
    const japan = await get(`/api/on_ramp/providers?country_code=JP&from_currency=${USD}&to_currency=${BTC}`);
    expect(providerCodes(japan.body.providers)).toEqual([]);
  });

  test.each(['country_code=GB', `country_code=GB&from_currency=${GBP}`, `from_currency=${GBP}&to_currency=${BTC}`])(
    '?%s misses a required parameter',
    async (query) => {
      expect((await get(`/api/on_ramp/providers?${query}`)).status).toBe(400);
    },
  );
});

describe('provider_codes on the catalogue routes', () => {
  test.each([
    '/api/on_ramp/countries?',
    `/api/on_ramp/payment_methods?fiat_currency=${USD}&`,
    '/api/on_ramp/currency_pairs?country_code=GB&',
    `/api/on_ramp/providers?country_code=GB&from_currency=${GBP}&to_currency=${BTC}&`,
  ])('%s: a repeated parameter or an unknown provider is a validation error, not a silently unfiltered or empty answer', async (path) => {
    for (const query of ['provider_codes=sandbox&provider_codes=moonpay', 'provider_codes=foo', 'provider_codes=sandbox,foo']) {
      const res = await get(`${path}${query}`);
      expect([query, res.status, res.body.code, res.body.errors]).toEqual([
        query,
        400,
        'validation_error',
        [{ path: 'provider_codes', message: expect.any(String) }],
      ]);
    }
    const narrowed = await get(`${path}provider_codes=sandbox`);
    expect(narrowed.status).toBe(200);
  });
});

describe('catalogue routes take GET only', () => {
  test.each([
    '/api/dict/countries',
    '/api/on_ramp/payment_methods',
    '/api/on_ramp/payment_methods_extra_info',
    '/api/on_ramp/countries',
    '/api/on_ramp/currency_pairs',
    '/api/on_ramp/providers',
  ])('POST %s is 405', async (path) => {
    const res = await request(app).post(path).set('X-Api-Key', TEST_API_KEY);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });
});

describe('offers across providers and regions', () => {
  const offers = (query: string) =>
    get(`/api/on_ramp/offers?external_user_id=u1&currency_to=${BTC}&amount_from=100&include_errors=true&ip=127.0.0.1&${query}`);

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
    const nevada = await offers(`currency_from=${USD}&country=US&state=NV`);
    expect(nevada.status).toBe(200);
    for (const code of ['mercuryo', 'moonpay', 'sandbox', 'transak']) expect(nevada.body[code].amount_expected_to).toMatch(/^\d+\.\d{8}$/);
    expect(nevada.body.banxa.error.code).toBe('state');
    expect(nevada.body.ramp.error.code).toBe('state');
    const australia = await offers(`currency_from=${USD}&country=AU`);
    expect(australia.body.mercuryo.error.code).toBe('country');
    expect(australia.body.ramp.error.code).toBe('country');
    expect(australia.body.banxa.amount_expected_to).toBeDefined();
    const gb = await offers(`currency_from=${GBP}&country=GB`);
    const amounts = PROVIDERS.map((code) => gb.body[code].amount_expected_to);
    expect(amounts.every((amount) => /^\d+\.\d{8}$/.test(amount))).toBe(true);
    expect(new Set(amounts).size).toBe(PROVIDERS.length);
    const ach = await offers(`currency_from=${USD}&country=US&state=CA&payment_method=ach`);
    for (const code of ['mercuryo', 'ramp', 'sandbox']) expect(ach.body[code].error.code).toBe('payment_method');
    // fee = total_fee_amount = processing + network fee
    for (const code of ['banxa', 'moonpay', 'transak']) {
      expect(ach.body[code].payment_methods).toEqual([{ payment_method_code: 'ach', fee: ach.body[code].total_fee_amount }]);
      expect(ach.body[code].fee).toBe(ach.body[code].total_fee_amount);
    }
    expect([ach.body.banxa.fee, ach.body.moonpay.fee, ach.body.transak.fee]).toEqual(['1.60', '1.60', '3.75']);
    // ACH is a US rail: a customer in the UK paying in USD is offered other methods, and asking for ACH says why not.
    const usdInGb = await offers(`currency_from=${USD}&country=GB`);
    for (const code of ['banxa', 'moonpay', 'transak']) {
      expect(usdInGb.body[code].payment_methods.map((m: { payment_method_code: string }) => m.payment_method_code)).not.toContain('ach');
    }
    const achInGb = await offers(`currency_from=${USD}&country=GB&payment_method=ach`);
    expect(achInGb.body.banxa.error).toEqual({ code: 'payment_method', message: 'ach is not available in GB' });
  });

  test("a crypto currency the provider's catalogue does not sell in the country is refused before any quote", async () => {
    // The simulated MoonPay lists USDT with notAllowedCountries ["CA"]; the refusal is the catalogue's, not the quote's.
    const res = await get(
      `/api/on_ramp/offers?external_user_id=u1&currency_from=${CAD}&currency_to=${USDT}&amount_from=100&country=CA&include_errors=true`,
    );
    expect(res.status).toBe(200);
    expect(res.body.moonpay).toEqual({ error: { code: 'country', message: 'does not sell this crypto currency in CA' } });
    const btc = await offers(`currency_from=${CAD}&country=CA`);
    expect(btc.body.moonpay.amount_expected_to).toMatch(/^\d+\.\d{8}$/);
  });

  test("an asset's own minimum is the limit named at any amount below it (Ramp's BTC: 30 USD, its global minimum 15 USD)", async () => {
    const limitsAt = async (amount: string, crypto: number) => {
      const res = await get(
        `/api/on_ramp/offers?external_user_id=u1&currency_from=${USD}&currency_to=${crypto}&amount_from=${amount}&country=GB&provider_codes=ramp&include_errors=true`,
      );
      return res.body.ramp;
    };
    const reason = {
      error: { code: 'limits', message: 'amount must be between 30.00 and 12000.00 USD', min_amount: '30.00', max_amount: '12000.00' },
    };
    expect(await limitsAt('10', BTC)).toEqual(reason);
    expect(await limitsAt('20', BTC)).toEqual(reason);
    expect((await limitsAt('30', BTC)).amount_expected_to).toMatch(/^\d+\.\d{8}$/);
    // An asset without its own minimum keeps the global one.
    expect((await limitsAt('20', USDT)).amount_expected_to).toBeDefined();
    expect((await limitsAt('10', USDT)).error).toMatchObject({ code: 'limits', min_amount: '15.00' });
  });
});
