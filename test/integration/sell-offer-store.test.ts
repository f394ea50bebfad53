/**
 * Sell offers in the offer store, beside buy offers, in memory and in a real redis-server: a sell
 * order finds the live sell offer it was made from (matchingSellOffer), never a buy offer, and a buy
 * order never a sell offer, whatever their currencies and amounts.
 */
import { createLogger } from '../../src/logging';
import { RedisOfferStore } from '../../src/offers/redis-store';
import { MemoryOfferStore, offerKey, type OfferStore, type OfferTerms } from '../../src/offers/store';
import { NoLiveOfferError } from '../../src/orders/errors';
import { matchingSellOffer, sellOfferQueryFor, type SellOfferQuery } from '../../src/orders/offer-match';
import { connectRedis, type RedisClient, type RedisConnection } from '../../src/redis/connection';
import { startRedis, type RedisServer } from '../helpers/redis';

/** In the future, as the Redis store's keys expire at their offers' expiry by Redis's own clock. */
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
let server: RedisServer;
let connection: RedisConnection;
let redis: RedisClient;

beforeAll(async () => {
  server = await startRedis();
  connection = await connectRedis(server.url, createLogger('silent', 'test'));
  redis = connection.client;
});

afterAll(async () => {
  await connection?.close();
  await server?.stop();
});

beforeEach(async () => {
  await redis.flushAll();
});

/** A sell offer: acme's user-1 sells 0.01 BTC (13) for EUR (2) with sandbox in DE, paid out by SEPA or card. */
const sellTerms = (overrides: Partial<OfferTerms> = {}): OfferTerms => ({
  side: 'sell',
  integratorId: 'acme',
  externalUserId: 'user-1',
  providerCode: 'sandbox',
  fromCurrency: 13,
  toCurrency: 2,
  amountFrom: '0.01',
  country: 'DE',
  paymentMethods: ['sepa', 'card'],
  amountExpectedTo: '600.00',
  totalFeeAmount: '10.00',
  expiresAt: new Date(T0 + 120_000).toISOString(),
  ip: '203.0.113.7',
  ...overrides,
});

const sellQuery = (overrides: Partial<SellOfferQuery> = {}): SellOfferQuery => ({
  integratorId: 'acme',
  externalUserId: 'user-1',
  providerCode: 'sandbox',
  crypto: 13,
  fiat: 2,
  cryptoAmount: '0.010',
  country: 'DE',
  payoutMethod: 'sepa',
  ...overrides,
});

test("a sell offer's key starts with its side; a buy offer's key is as before", () => {
  const { side: _side, ...buy } = sellTerms();
  expect(offerKey(sellTerms())).toBe('["sell","acme","user-1","sandbox",13,2,"0.01"]');
  expect(offerKey(buy)).toBe('["acme","user-1","sandbox",13,2,"0.01"]');
});

describe.each<[string, (now: () => number) => OfferStore]>([
  ['MemoryOfferStore', (now) => new MemoryOfferStore(now)],
  ['RedisOfferStore', (now) => new RedisOfferStore(redis, { now })],
])('%s', (_name, make) => {
  test("matchingSellOffer answers the live sell offer's terms: payout, total fee, expiry, ip", async () => {
    const store = make(() => T0);
    await store.remember(sellTerms());
    await expect(matchingSellOffer(store, sellQuery())).resolves.toEqual({
      providerCode: 'sandbox',
      cryptoAmount: '0.01',
      payoutAmount: '600.00',
      totalFeeAmount: '10.00',
      payoutMethods: ['sepa', 'card'],
      expiresAt: new Date(T0 + 120_000).toISOString(),
      ip: '203.0.113.7',
    });
    await expect(matchingSellOffer(store, sellQuery({ payoutMethod: 'card' }))).resolves.toMatchObject({ payoutAmount: '600.00' });
  });

  test.each<[string, Partial<SellOfferQuery>]>([
    ['another payout method', { payoutMethod: 'ach' }],
    ['another amount', { cryptoAmount: '0.02' }],
    ['another user', { externalUserId: 'user-2' }],
    ['another provider', { providerCode: 'moonpay' }],
    ['another country', { country: 'FR' }],
    ['another fiat currency', { fiat: 1 }],
  ])('%s finds no offer (NoLiveOfferError)', async (_case, overrides) => {
    const store = make(() => T0);
    await store.remember(sellTerms());
    await expect(matchingSellOffer(store, sellQuery(overrides))).rejects.toBeInstanceOf(NoLiveOfferError);
  });

  test('an expired sell offer is not matched', async () => {
    const clock = { now: T0 };
    const store = make(() => clock.now);
    await store.remember(sellTerms());
    clock.now = T0 + 120_000;
    await expect(matchingSellOffer(store, sellQuery())).rejects.toBeInstanceOf(NoLiveOfferError);
  });

  test('buy and sell offers never match each other, even with the same currencies, amount and method', async () => {
    const store = make(() => T0);
    const { side: _side, ...buy } = sellTerms();
    await store.remember(buy);
    await expect(matchingSellOffer(store, sellQuery())).rejects.toBeInstanceOf(NoLiveOfferError);
    await store.remember(sellTerms({ amountExpectedTo: '555.00' }));
    await expect(matchingSellOffer(store, sellQuery())).resolves.toMatchObject({ payoutAmount: '555.00' });
    // A buy order's query (no side) finds the buy offer, not the sell one.
    const { side: _querySide, ...buyQuery } = sellOfferQueryFor(sellQuery());
    await expect(store.findLive(buyQuery)).resolves.toMatchObject({ amountExpectedTo: '600.00' });
    await expect(store.findLive(buyQuery)).resolves.not.toHaveProperty('side');
  });
});
