/**
 * The off-ramp dictionaries and sell offers through the API, with fake sell adapters: one fast, one
 * that never answers, one failing, one refusing for limits, and one that only buys (never listed).
 */
import type { Express } from 'express';
import request from 'supertest';
import { buildApi } from '../../src/api/server';
import { createLogger } from '../../src/logging';
import { RedisOfferStore } from '../../src/offers/redis-store';
import { matchingSellOffer } from '../../src/orders/offer-match';
import { connectRedis, type RedisConnection } from '../../src/redis/connection';
import { ProviderRegistry } from '../../src/providers/registry';
import type { SellAdapter, SellCatalogue, SellQuote, SellQuoteRequest } from '../../src/providers/sell-types';
import { ProviderRejectedError, ProviderUnavailableError, type ProviderAdapter } from '../../src/providers/types';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { expectResponseConforms } from '../helpers/openapi';
import { BTC, EUR, GBP, USD } from '../helpers/orders';
import { fakeProvider } from '../helpers/offers';
import { startRedis, type RedisServer } from '../helpers/redis';

const ETH = 14;
const TIMEOUT_MS = 300;

const CATALOGUE: SellCatalogue = {
  crypto: [BTC, ETH],
  fiat: [EUR, USD],
  countries: [{ code: 'DE' }, { code: 'FR' }, { code: 'US', states: ['CA', 'TX'] }],
  payoutMethods: [
    { code: 'sepa', name: 'SEPA', icon_url: null, fee: '1%', limits: { [EUR]: { min: '10', max: '10000' } } },
    {
      code: 'card',
      name: 'Card',
      icon_url: null,
      fee: '2.5%',
      limits: { [EUR]: { min: '20', max: '5000' }, [USD]: { min: '20', max: '5000' } },
    },
    { code: 'ach', name: 'ACH', icon_url: null, limits: { [USD]: { min: '5', max: '25000' } } },
  ],
  cryptoLimits: { [BTC]: { min: '0.0001', max: '5' } },
};

/** 60,000 of the fiat per BTC, the method's percentage fee and a network fee of 1 taken off. */
function priced(request: SellQuoteRequest): SellQuote {
  const gross = Number(request.cryptoAmount) * 60_000;
  const processing = request.payoutMethod === 'sepa' ? gross * 0.01 : request.payoutMethod === 'card' ? gross * 0.025 : 0;
  return {
    cryptoAmount: request.cryptoAmount,
    fiatAmount: (gross - processing - 1).toFixed(4),
    processingFee: processing.toFixed(4),
    networkFee: '1',
    payoutMethod: request.payoutMethod,
  };
}

function seller(code: string, getQuote: SellAdapter['getQuote'], catalogue: SellCatalogue = CATALOGUE): ProviderAdapter {
  const sell: SellAdapter = {
    getCatalogue: () => Promise.resolve(catalogue),
    getQuote,
    createOrder: () => Promise.reject(new Error('unused')),
    getOrder: () => Promise.reject(new Error('unused')),
    isSellWebhook: () => false,
    parseWebhook: () => Promise.reject(new Error('unused')),
  };
  return {
    ...fakeProvider(code, { fiat: [], crypto: [], countries: [], paymentMethods: [] }, () => Promise.reject(new Error('unused'))),
    sell,
  };
}

const quotes: string[] = [];
const fast = seller('fastsell', (request) => {
  quotes.push(request.payoutMethod);
  return Promise.resolve(priced(request));
});
const slow = seller('slowsell', () => new Promise<SellQuote>(() => undefined), {
  ...CATALOGUE,
  countries: [{ code: 'DE' }, { code: 'GB' }],
});
const down = seller('downsell', () => Promise.reject(new ProviderUnavailableError('HTTP 503')));
const small = seller(
  'smallsell',
  () => Promise.reject(new ProviderRejectedError('limits', 'too much', { minAmount: '0.001', maxAmount: '0.123456789' })),
  {
    ...CATALOGUE,
    crypto: [BTC],
    fiat: [EUR],
    cryptoLimits: undefined,
  },
);
const buyOnly = fakeProvider('buyonly', { fiat: [EUR], crypto: [BTC], countries: [{ code: 'DE' }], paymentMethods: [] }, () =>
  Promise.reject(new Error('unused')),
);

let app: Express;
let server: RedisServer;
let connection: RedisConnection;

beforeAll(async () => {
  // The offer store in Redis, so that the test reads what the offers request remembered.
  server = await startRedis();
  connection = await connectRedis(server.url, createLogger('silent', 'test'));
  app = buildApi(
    testConfig({ offersProviderTimeoutMs: TIMEOUT_MS, offersDeadline: { multiplier: 2, floorMs: 50 } }),
    createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' }),
    createLogger('silent', 'test'),
    { providers: new ProviderRegistry([buyOnly, down, fast, slow, small]), redis: connection.client },
  );
});

afterAll(async () => {
  await connection?.close();
  await server?.stop();
});

const get = (path: string) => request(app).get(path).set('X-Api-Key', TEST_API_KEY);

describe('GET /api/off_ramp/countries', () => {
  test('the countries of the providers that sell, states where served; a provider that only buys is not counted', async () => {
    const res = await get('/api/off_ramp/countries');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ countries: [{ code: 'DE' }, { code: 'FR' }, { code: 'GB' }, { code: 'US', states: ['CA', 'TX'] }] });
    expectResponseConforms('GET', '/api/off_ramp/countries', res);
    const slowOnly = await get('/api/off_ramp/countries?provider_codes=slowsell');
    expect(slowOnly.body).toEqual({ countries: [{ code: 'DE' }, { code: 'GB' }] });
    expect((await get('/api/off_ramp/countries?provider_codes=buyonly')).body).toEqual({ countries: [] });
  });
});

describe('GET /api/off_ramp/currency_pairs', () => {
  test('per provider serving the country: crypto bought, fiat paid out', async () => {
    const res = await get('/api/off_ramp/currency_pairs?country_code=US&state=CA');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { provider_code: 'downsell', crypto_currencies: [BTC, ETH], fiat_currencies: [USD, EUR] },
      { provider_code: 'fastsell', crypto_currencies: [BTC, ETH], fiat_currencies: [USD, EUR] },
      { provider_code: 'smallsell', crypto_currencies: [BTC], fiat_currencies: [EUR] },
    ]);
    expectResponseConforms('GET', '/api/off_ramp/currency_pairs', res);
    const gb = await get('/api/off_ramp/currency_pairs?country_code=GB&provider_codes=fastsell,slowsell');
    expect(gb.body.map((p: { provider_code: string }) => p.provider_code)).toEqual(['slowsell']);
  });

  test.each([
    ['', 'validation_error', ['country_code']],
    ['country_code=US&state=ZZ', 'validation_error', ['state']],
    ['country_code=DE&provider_codes=nobody', 'validation_error', ['provider_codes']],
  ])('?%s is %s', async (query, code, paths) => {
    const res = await get(`/api/off_ramp/currency_pairs?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.code).toBe(code);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
  });
});

describe('GET /api/off_ramp/payout_methods', () => {
  test('per provider, the methods paying the fiat currency in the country, with their limits', async () => {
    const res = await get(`/api/off_ramp/payout_methods?country_code=DE&currency=${EUR}&provider_codes=fastsell`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      payout_methods: [
        {
          provider_code: 'fastsell',
          code: 'card',
          name: expect.any(String),
          icon_url: null,
          fee: '2.5%',
          limits: [{ currency: EUR, min: '20.00', max: '5000.00' }],
        },
        {
          provider_code: 'fastsell',
          code: 'sepa',
          name: expect.any(String),
          icon_url: null,
          fee: '1%',
          limits: [{ currency: EUR, min: '10.00', max: '10000.00' }],
        },
      ],
    });
    expectResponseConforms('GET', '/api/off_ramp/payout_methods', res);
  });

  test('a regional rail is listed only in its region; without a currency every currency paid out is listed', async () => {
    const us = await get('/api/off_ramp/payout_methods?country_code=US&state=TX&provider_codes=fastsell');
    expect(us.body.payout_methods.map((m: { code: string }) => m.code)).toEqual(['ach', 'card']);
    expect(us.body.payout_methods[1].limits).toEqual([
      { currency: USD, min: '20.00', max: '5000.00' },
      { currency: EUR, min: '20.00', max: '5000.00' },
    ]);
    const de = await get(`/api/off_ramp/payout_methods?country_code=DE&currency=${USD}&provider_codes=fastsell`);
    expect(de.body.payout_methods.map((m: { code: string }) => m.code)).toEqual(['card']);
    const everywhere = await get('/api/off_ramp/payout_methods');
    expect(new Set(everywhere.body.payout_methods.map((m: { provider_code: string }) => m.provider_code))).not.toContain('buyonly');
  });

  test.each([
    [`currency=${BTC}`, 'validation_error', ['currency']],
    ['currency=EUR', 'ticker_not_allowed', ['currency']],
    ['currency=999999', 'unknown_currency', ['currency']],
    ['state=CA', 'validation_error', ['country_code']],
  ])('?%s is %s naming the field', async (query, code, paths) => {
    const res = await get(`/api/off_ramp/payout_methods?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    expectResponseConforms('GET', '/api/off_ramp/payout_methods', res);
  });
});

describe('GET /api/off_ramp/providers', () => {
  test('the providers buying the crypto for the fiat in the country; never one that only buys', async () => {
    const res = await get(`/api/off_ramp/providers?country_code=DE&from_currency=${BTC}&to_currency=${EUR}`);
    expect(res.status).toBe(200);
    expect(res.body.providers.map((p: { code: string }) => p.code)).toEqual(['downsell', 'fastsell', 'slowsell', 'smallsell']);
    expectResponseConforms('GET', '/api/off_ramp/providers', res);
    const eth = await get(
      `/api/off_ramp/providers?country_code=DE&from_currency=${ETH}&to_currency=${USD}&provider_codes=fastsell,smallsell`,
    );
    expect(eth.body.providers.map((p: { code: string }) => p.code)).toEqual(['fastsell']);
  });

  test('the wrong direction (fiat as from_currency, crypto as to_currency) is a validation_error naming both fields', async () => {
    const res = await get(`/api/off_ramp/providers?country_code=DE&from_currency=${EUR}&to_currency=${BTC}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['from_currency', 'to_currency']);
    expectResponseConforms('GET', '/api/off_ramp/providers', res);
  });
});

describe('GET /api/off_ramp/offers', () => {
  const offers = (query: string) => get(`/api/off_ramp/offers?external_user_id=u1&country=DE&${query}`);

  test('within the deadline: the fast offer, and with include_errors the slow, failing and refusing providers with their reasons', async () => {
    const started = Date.now();
    const res = await offers(`currency_from=${BTC}&currency_to=${EUR}&amount_from=0.01&include_errors=true`);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 700);
    expect(res.status).toBe(200);
    expectResponseConforms('GET', '/api/off_ramp/offers', res);
    // SEPA: 600 gross, 6 + 1 fees, 593 paid out; card: 15 + 1 fees, 584 paid out. The best payout leads, every method's fee listed.
    expect(res.body.fastsell).toEqual({
      rate: '60000',
      inverted_rate: '0.0000166666666667',
      amount_from: '0.01000000',
      amount_expected_to: '593.00',
      fee: '7.00',
      total_fee_amount: '7.00',
      fees: { processing: '6.00', network: '1.00' },
      payout_methods: [
        { payout_method_code: 'sepa', fee: '7.00' },
        { payout_method_code: 'card', fee: '16.00' },
      ],
      limits: { amount_from: { min: '0.00010000', max: '5.00000000' }, amount_expected_to: { min: '10.00', max: '10000.00' } },
      expires_at: expect.any(String),
    });
    expect(res.body.slowsell).toEqual({ error: { code: 'timeout', message: expect.stringMatching(/^no answer within \d+ ms$/) } });
    expect(res.body.downsell).toEqual({ error: { code: 'unavailable', message: 'HTTP 503' } });
    expect(res.body.smallsell).toEqual({
      error: {
        code: 'limits',
        message: 'amount must be between 0.00100000 and 0.12345678 BTC',
        min_amount: '0.00100000',
        max_amount: '0.12345678',
      },
    });
    expect(res.body).not.toHaveProperty('buyonly');
    // Without include_errors: the offers alone.
    const plain = await offers(`currency_from=${BTC}&currency_to=${EUR}&amount_from=0.01&provider_codes=fastsell,downsell`);
    expect(Object.keys(plain.body)).toEqual(['fastsell']);
  });

  test('payout_method narrows the quotes; a method the provider does not offer there is payout_method', async () => {
    quotes.length = 0;
    const res = await offers(`currency_from=${BTC}&currency_to=${EUR}&amount_from=0.01&payout_method=card&provider_codes=fastsell`);
    expect(quotes).toEqual(['card']);
    expect(res.body.fastsell.payout_methods).toEqual([{ payout_method_code: 'card', fee: '16.00' }]);
    const ach = await offers(
      `currency_from=${BTC}&currency_to=${EUR}&amount_from=0.01&payout_method=ach&provider_codes=fastsell&include_errors=true`,
    );
    expect(ach.body.fastsell).toEqual({ error: { code: 'payout_method', message: 'ach is not available in DE' } });
  });

  test("limits: outside the provider's crypto limits, or a payout outside the method's, the provider is left out with limits", async () => {
    const big = await offers(`currency_from=${BTC}&currency_to=${EUR}&amount_from=6&provider_codes=fastsell&include_errors=true`);
    expect(big.body.fastsell).toEqual({
      error: {
        code: 'limits',
        message: 'amount must be between 0.00010000 and 5.00000000 BTC',
        min_amount: '0.00010000',
        max_amount: '5.00000000',
      },
    });
    // 0.0003 BTC pays out 16.82 by SEPA (within 10..10000) and 16.55 by card (below its 20).
    const tiny = await offers(`currency_from=${BTC}&currency_to=${EUR}&amount_from=0.0003&provider_codes=fastsell`);
    expect(tiny.body.fastsell.payout_methods).toEqual([{ payout_method_code: 'sepa', fee: '1.18' }]);
    const cardOnly = await offers(
      `currency_from=${BTC}&currency_to=${EUR}&amount_from=0.0003&payout_method=card&provider_codes=fastsell&include_errors=true`,
    );
    expect(cardOnly.body.fastsell).toEqual({
      error: { code: 'limits', message: 'the payout by card must be between 20.00 and 5000.00 EUR' },
    });
  });

  test('the offers are remembered as sell offers: a sell order matches them, a buy order cannot', async () => {
    const res = await offers(`currency_from=${BTC}&currency_to=${EUR}&amount_from=0.02&ip=203.0.113.7&provider_codes=fastsell`);
    expect(res.body.fastsell.amount_expected_to).toBe('1187.00');
    const store = new RedisOfferStore(connection.client);
    const order = { integratorId: 'dev', externalUserId: 'u1', providerCode: 'fastsell', crypto: BTC, fiat: EUR, country: 'DE' };
    await expect(matchingSellOffer(store, { ...order, cryptoAmount: '0.020', payoutMethod: 'card' })).resolves.toEqual({
      providerCode: 'fastsell',
      cryptoAmount: '0.02',
      payoutAmount: '1187.00',
      totalFeeAmount: '13.00',
      payoutMethods: ['sepa', 'card'],
      expiresAt: res.body.fastsell.expires_at,
      ip: '203.0.113.7',
    });
    const buy = { ...order, fromCurrency: BTC, toCurrency: EUR, amountFrom: '0.02', paymentMethod: 'sepa' };
    await expect(store.findLive(buy)).resolves.toBeUndefined();
  });

  test.each([
    [`currency_from=${EUR}&currency_to=${BTC}&amount_from=10`, 'validation_error', ['currency_from', 'currency_to']],
    [`currency_from=BTC&currency_to=${EUR}&amount_from=1`, 'ticker_not_allowed', ['currency_from']],
    [`currency_from=${BTC}&currency_to=${EUR}&amount_from=0.000000001`, 'validation_error', ['amount_from']],
    [`currency_from=${BTC}&currency_to=${EUR}&amount_from=0`, 'validation_error', ['amount_from']],
    [`currency_from=${BTC}&currency_to=${EUR}`, 'validation_error', ['amount_from']],
  ])('?%s is %s naming the fields', async (query, code, paths) => {
    const res = await offers(query);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.code).toBe(code);
    expect([...new Set(res.body.errors.map((e: { path: string }) => e.path))]).toEqual(paths);
    expectResponseConforms('GET', '/api/off_ramp/offers', res);
  });

  test('a country with states needs one (state_required); a provider not serving the country or the pair is left out with the reason', async () => {
    const us = await get(`/api/off_ramp/offers?external_user_id=u1&country=US&currency_from=${BTC}&currency_to=${USD}&amount_from=0.01`);
    expect(us.status).toBe(400);
    expect(us.body.code).toBe('state_required');
    const gb = await get(
      `/api/off_ramp/offers?external_user_id=u1&country=GB&currency_from=${BTC}&currency_to=${GBP}&amount_from=0.01&include_errors=true`,
    );
    expect(gb.body.slowsell).toEqual({ error: { code: 'currency', message: 'does not buy this crypto currency for this fiat currency' } });
    expect(gb.body.fastsell).toEqual({ error: { code: 'country', message: 'does not serve GB' } });
  });

  test('needs an API key', async () => {
    const res = await request(app).get(`/api/off_ramp/offers?currency_from=${BTC}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });
});
