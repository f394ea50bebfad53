/**
 * The offer store's behaviour, the same cases against both implementations: in memory, and in a
 * real redis-server (Debian's, started per test file on a free loopback port).
 */
import express from 'express';
import request from 'supertest';
import { errorHandler, ProblemError, problemOf } from '../../src/api/problem';
import { createLogger } from '../../src/logging';
import { RedisOfferStore, StoreUnavailableError } from '../../src/offers/redis-store';
import { createOfferStore } from '../../src/offers/store-factory';
import { connectRedis, redactRedisUrl, type RedisClient, type RedisConnection } from '../../src/redis/connection';
import { MAX_OFFERS_PER_KEY, MemoryOfferStore, type OfferStore } from '../../src/offers/store';
import { startRedis, type RedisServer } from '../helpers/redis';
import { query, T0, terms, TTL_MS, type OfferQuery as Query } from '../helpers/offer-terms';

const logger = createLogger('silent', 'test');

let server: RedisServer;
let connection: RedisConnection;
let redis: RedisClient;

beforeAll(async () => {
  server = await startRedis();
  connection = await connectRedis(server.url, logger);
  redis = connection.client;
});

afterAll(async () => {
  await connection?.close();
  await server?.stop();
});

beforeEach(async () => {
  await redis.flushAll();
});

type MakeStore = (now: () => number) => OfferStore;
const implementations: [string, MakeStore][] = [
  ['MemoryOfferStore', (now) => new MemoryOfferStore(now)],
  ['RedisOfferStore', (now) => new RedisOfferStore(redis, { now })],
];

describe.each(implementations)('%s', (_name, makeStore) => {
  /** A store whose clock the test moves. */
  function storeAt(start = T0): { store: OfferStore; clock: { now: number } } {
    const clock = { now: start };
    return { store: makeStore(() => clock.now), clock };
  }

  test('remember then findLive returns the offer', async () => {
    const { store } = storeAt();
    const offer = terms();
    await store.remember(offer);
    await expect(store.findLive(query())).resolves.toEqual(offer);
  });

  test("the end user's ip given with the offers is kept with the offer; it takes no part in matching", async () => {
    const { store } = storeAt();
    await store.remember(terms({ ip: '2001:db8::7' }));
    await expect(store.findLive(query())).resolves.toMatchObject({ ip: '2001:db8::7' });
    await store.remember(terms({ externalUserId: 'no-ip' }));
    const found = await store.findLive(query({ externalUserId: 'no-ip' }));
    expect(found).toBeDefined();
    expect(found?.ip).toBeUndefined();
  });

  test('nothing remembered, nothing found', async () => {
    const { store } = storeAt();
    await expect(store.findLive(query())).resolves.toBeUndefined();
  });

  test.each<[string, string]>([
    ['100', '100.00'],
    ['100.00', '100'],
    ['100.5', '100.50'],
  ])('an offer for "%s" is found for an order of "%s"', async (offered, ordered) => {
    const { store } = storeAt();
    await store.remember(terms({ amountFrom: offered }));
    await expect(store.findLive(query({ amountFrom: ordered }))).resolves.toMatchObject({ amountFrom: offered });
  });

  test('an order for another amount is not matched', async () => {
    const { store } = storeAt();
    await store.remember(terms());
    await expect(store.findLive(query({ amountFrom: '100.01' }))).resolves.toBeUndefined();
  });

  test('an offer stops being found once it expires', async () => {
    const { store, clock } = storeAt();
    await store.remember(terms());
    clock.now = T0 + TTL_MS - 1;
    await expect(store.findLive(query())).resolves.toBeDefined();
    clock.now = T0 + TTL_MS;
    await expect(store.findLive(query())).resolves.toBeUndefined();
    clock.now = T0 + 10 * TTL_MS;
    await expect(store.findLive(query())).resolves.toBeUndefined();
  });

  test('an offer that was already expired when remembered is never found', async () => {
    const { store } = storeAt();
    await store.remember(terms({ expiresAt: new Date(T0 - 1).toISOString() }));
    await expect(store.findLive(query())).resolves.toBeUndefined();
  });

  test.each<[string, Partial<Query>]>([
    ['country', { country: 'FR' }],
    ['state', { state: 'NY' }],
    ['missing state', { state: undefined }],
    ['payment method', { paymentMethod: 'sepa' }],
    ['user', { externalUserId: 'user-2' }],
    ['integrator', { integratorId: 'other' }],
    ['provider', { providerCode: 'other' }],
    ['from currency', { fromCurrency: 2 }],
    ['to currency', { toCurrency: 14 }],
  ])('a mismatched %s is not found', async (_label, change) => {
    const { store } = storeAt();
    await store.remember(terms({ country: 'US', state: 'CA' }));
    await expect(store.findLive(query({ country: 'US', state: 'CA' }))).resolves.toBeDefined();
    await expect(store.findLive(query({ country: 'US', state: 'CA', ...change }))).resolves.toBeUndefined();
  });

  test('an offer restricted to a payment method only matches that method', async () => {
    const { store } = storeAt();
    await store.remember(terms({ paymentMethod: 'sepa', paymentMethods: ['sepa'] }));
    await expect(store.findLive(query({ paymentMethod: 'sepa' }))).resolves.toMatchObject({ paymentMethod: 'sepa' });
    await expect(store.findLive(query({ paymentMethod: 'card' }))).resolves.toBeUndefined();
  });

  test('several offers under one key are all kept; the matching one is returned', async () => {
    const { store } = storeAt();
    const card = terms({ paymentMethod: 'card', paymentMethods: ['card'], amountExpectedTo: '1' });
    const sepa = terms({ paymentMethod: 'sepa', paymentMethods: ['sepa'], amountExpectedTo: '2' });
    const inFrance = terms({ country: 'FR', amountExpectedTo: '3' });
    await store.remember(card);
    await store.remember(sepa);
    await store.remember(inFrance);
    await expect(store.findLive(query({ paymentMethod: 'card' }))).resolves.toEqual(card);
    await expect(store.findLive(query({ paymentMethod: 'sepa' }))).resolves.toEqual(sepa);
    await expect(store.findLive(query({ country: 'FR' }))).resolves.toEqual(inFrance);
  });

  test(`only the newest ${MAX_OFFERS_PER_KEY} offers of one key are kept`, async () => {
    const { store } = storeAt();
    const france = terms({ country: 'FR', amountExpectedTo: '0' });
    await store.remember(france);
    for (let i = 1; i <= MAX_OFFERS_PER_KEY; i++) await store.remember(terms({ amountExpectedTo: String(i) }));
    // The French offer was the oldest and has been dropped; the first of the kept ones now wins.
    await expect(store.findLive(query({ country: 'FR' }))).resolves.toBeUndefined();
    await expect(store.findLive(query())).resolves.toEqual(terms({ amountExpectedTo: '1' }));
  });

  test('when several live offers match, the first one remembered wins', async () => {
    const { store, clock } = storeAt();
    const first = terms({ amountExpectedTo: '1', expiresAt: new Date(T0 + 100_000).toISOString() });
    const second = terms({ amountExpectedTo: '2', expiresAt: new Date(T0 + 50_000).toISOString() });
    await store.remember(first);
    await store.remember(second);
    await expect(store.findLive(query())).resolves.toEqual(first);
    clock.now = T0 + 40_000;
    await expect(store.findLive(query())).resolves.toEqual(first);
  });

  test('a newer offer under the same key does not hide an older live one, and expired ones drop out', async () => {
    const { store, clock } = storeAt();
    const first = terms({ amountExpectedTo: '1', expiresAt: new Date(T0 + 60_000).toISOString() });
    await store.remember(first);
    clock.now = T0 + 30_000;
    const second = terms({ country: 'FR', amountExpectedTo: '2', expiresAt: new Date(T0 + 150_000).toISOString() });
    await store.remember(second);
    await expect(store.findLive(query())).resolves.toEqual(first);
    clock.now = T0 + 60_000;
    await expect(store.findLive(query())).resolves.toBeUndefined();
    await expect(store.findLive(query({ country: 'FR' }))).resolves.toEqual(second);
  });

  test('uses Date.now by default', async () => {
    const store = makeStore(Date.now);
    await store.remember(terms({ expiresAt: new Date(Date.now() + 60_000).toISOString() }));
    await expect(store.findLive(query())).resolves.toBeDefined();
    await store.remember(terms({ externalUserId: 'late', expiresAt: new Date(Date.now() - 1).toISOString() }));
    await expect(store.findLive(query({ externalUserId: 'late' }))).resolves.toBeUndefined();
  });
});

describe('createOfferStore', () => {
  test('is in memory without a Redis client, in Redis with one', () => {
    expect(createOfferStore()).toBeInstanceOf(MemoryOfferStore);
    expect(createOfferStore(redis)).toBeInstanceOf(RedisOfferStore);
  });
});

describe('RedisOfferStore in Redis', () => {
  const clockAt = (start = T0) => {
    const clock = { now: start };
    return { clock, now: () => clock.now };
  };

  test('keys are prefixed, and expire (PEXPIREAT) at the latest expiry of the offers they hold', async () => {
    const { clock, now } = clockAt();
    const store = new RedisOfferStore(redis, { now });
    const key = store.keyOf(terms());
    expect(key.startsWith('onramp:offer:')).toBe(true);

    await store.remember(terms({ expiresAt: new Date(T0 + 60_000).toISOString() }));
    await expect(redis.pExpireTime(key)).resolves.toBe(T0 + 60_000);
    await store.remember(terms({ country: 'FR', expiresAt: new Date(T0 + 150_000).toISOString() }));
    await expect(redis.pExpireTime(key)).resolves.toBe(T0 + 150_000);
    // A shorter-lived offer never shortens the key's life.
    await store.remember(terms({ country: 'IT', expiresAt: new Date(T0 + 30_000).toISOString() }));
    await expect(redis.pExpireTime(key)).resolves.toBe(T0 + 150_000);
    await expect(redis.lLen(key)).resolves.toBe(3);

    // Expired offers are dropped from the key when the next one is remembered.
    clock.now = T0 + 60_000;
    await store.remember(terms({ country: 'ES', expiresAt: new Date(T0 + 100_000).toISOString() }));
    await expect(redis.lLen(key)).resolves.toBe(2);
    await expect(redis.pExpireTime(key)).resolves.toBe(T0 + 150_000);
    await expect(redis.keys('*')).resolves.toEqual([key]);
  });

  test('Redis itself forgets a key once its offers have expired', async () => {
    const store = new RedisOfferStore(redis);
    const key = store.keyOf(terms());
    await store.remember(terms({ expiresAt: new Date(Date.now() + 300).toISOString() }));
    await expect(redis.exists(key)).resolves.toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await expect(redis.exists(key)).resolves.toBe(0);
  });

  test('an offer already expired when remembered leaves nothing in Redis', async () => {
    const store = new RedisOfferStore(redis, { now: () => T0 });
    await store.remember(terms({ expiresAt: new Date(T0).toISOString() }));
    await expect(redis.keys('*')).resolves.toEqual([]);
  });

  test('another API process finds the offer this one remembered (two clients, one server)', async () => {
    const other = await connectRedis(server.url, logger);
    try {
      const processA = new RedisOfferStore(redis);
      const processB = new RedisOfferStore(other.client);
      const offer = terms({ expiresAt: new Date(Date.now() + 60_000).toISOString() });
      await processA.remember(offer);
      await expect(processB.findLive(query({ amountFrom: '100.00' }))).resolves.toEqual(offer);
      await expect(processB.findLive(query({ country: 'FR' }))).resolves.toBeUndefined();
    } finally {
      await other.close();
    }
  });

  test('works after the Lua script cache was flushed', async () => {
    const store = new RedisOfferStore(redis, { now: () => T0 });
    await store.remember(terms());
    await redis.scriptFlush();
    await store.remember(terms({ country: 'FR' }));
    await expect(store.findLive(query({ country: 'FR' }))).resolves.toBeDefined();
  });

  test('a custom prefix keeps stores apart', async () => {
    const a = new RedisOfferStore(redis, { now: () => T0, prefix: 'a:' });
    const b = new RedisOfferStore(redis, { now: () => T0, prefix: 'b:' });
    await a.remember(terms());
    await expect(b.findLive(query())).resolves.toBeUndefined();
    await expect(a.findLive(query())).resolves.toBeDefined();
  });
});

describe('Redis unreachable', () => {
  test('remember and findLive throw StoreUnavailableError (503 service_unavailable), and recover with Redis', async () => {
    const own = await startRedis();
    const conn = await connectRedis(own.url, logger, { connectTimeoutMs: 500 });
    const errors: unknown[] = [];
    const store = new RedisOfferStore(conn.client, {
      now: () => T0,
      logger: { error: (obj: unknown) => errors.push(obj) } as unknown as typeof logger,
    });
    try {
      await store.remember(terms());
      await own.stop();
      await waitFor(() => !conn.client.isReady);

      const remembered = store.remember(terms({ country: 'FR' }));
      await expect(remembered).rejects.toBeInstanceOf(StoreUnavailableError);
      // The store's error is the offers' own; the API's error handler turns it into this problem.
      const problem = problemOf(await remembered.catch((err: unknown) => err));
      expect(problem).toBeInstanceOf(ProblemError);
      expect(problem).toMatchObject({ code: 'service_unavailable' });
      await expect(store.findLive(query())).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(errors).toHaveLength(2);

      // What an API route that reaches the store answers: 503 problem+json, no internals shown.
      const app = express();
      app.get('/order', async (_req, res) => void res.json((await store.findLive(query())) ?? null));
      app.use(errorHandler);
      const res = await request(app).get('/order');
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toContain('application/problem+json');
      // Every 503 says when to come back (the production rehearsal found this one without).
      expect(res.headers['retry-after']).toBe('2');
      expect(res.body).toMatchObject({
        status: 503,
        code: 'service_unavailable',
        detail: 'The offer store is unavailable; try again in a few seconds.',
      });

      // The same port again (an empty server: nothing was saved): the client reconnects by itself.
      const again = await startRedis({ port: own.port });
      try {
        await waitFor(() => conn.client.isReady);
        await expect(store.findLive(query())).resolves.toBeUndefined();
        await store.remember(terms());
        await expect(store.findLive(query())).resolves.toBeDefined();
      } finally {
        await conn.close();
        await again.stop();
      }
    } finally {
      await conn.close();
      await own.stop();
    }
  });

  test('a Redis that stops answering fails the call at the deadline; close() does not wait for it', async () => {
    const own = await startRedis();
    const conn = await connectRedis(own.url, logger, { closeTimeoutMs: 300 });
    const store = new RedisOfferStore(conn.client, { now: () => T0, timeoutMs: 300 });
    try {
      await store.remember(terms());
      process.kill(own.pid, 'SIGSTOP');
      let started = Date.now();
      await expect(store.findLive(query())).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.remember(terms())).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
      expect(Date.now() - started).toBeLessThan(2000);
      started = Date.now();
      await conn.close();
      expect(conn.client.isOpen).toBe(false);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      process.kill(own.pid, 'SIGCONT');
      await conn.close();
      await own.stop();
    }
  });

  test('a client reconnecting when closed is closed at once', async () => {
    const own = await startRedis();
    const conn = await connectRedis(own.url, logger);
    await own.stop();
    await waitFor(() => !conn.client.isReady);
    await conn.close();
    expect(conn.client.isOpen).toBe(false);
    await conn.close();
  });

  test('connectRedis gives up at start-up with a clear error, never showing the password', async () => {
    const own = await startRedis();
    const url = `redis://user:s3cret@127.0.0.1:${own.port}`;
    await own.stop();
    const started = Date.now();
    const connecting = connectRedis(url, logger, { startupTimeoutMs: 500, connectTimeoutMs: 200 });
    await expect(connecting).rejects.toThrow(/Redis at redis:\/\/user:\*\*\*@127\.0\.0\.1:\d+ is not reachable/);
    await expect(connecting).rejects.not.toThrow(/s3cret/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('redactRedisUrl hides the password only', () => {
    expect(redactRedisUrl('redis://:pw@redis:6379/0')).toBe('redis://:***@redis:6379/0');
    expect(redactRedisUrl('redis://redis:6379')).toBe('redis://redis:6379');
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
