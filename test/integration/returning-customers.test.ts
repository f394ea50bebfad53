/**
 * The returning-customer store (src/ranking/returning-customers.ts), the same cases against both
 * implementations: in memory, and in a real redis-server. Then what only Redis shows: its keys'
 * expiry, and that no integrator or user id is written in any key or value.
 */
import { createHmac } from 'node:crypto';
import { createLogger } from '../../src/logging';
import {
  createReturningCustomers,
  customerKey,
  DAY_MS,
  MemoryReturningCustomers,
  RedisReturningCustomers,
  ReturningCustomersUnavailableError,
  TOMBSTONE_MS,
  type ReturningCustomers,
  type ReturningCustomersConfig,
} from '../../src/ranking/returning-customers';
import { connectRedis, type RedisClient } from '../../src/redis/connection';
import { startRedis, useSharedRedis } from '../helpers/redis';

const logger = createLogger('silent', 'test');
const CONFIG: ReturningCustomersConfig = { key: 'k'.repeat(32) + '-returning-customers-test', retentionMs: 365 * DAY_MS };
/** Now: Redis expires keys by its own clock, so the store's clock starts at the real time. */
const T0 = Date.now();
const HOUR = 3_600_000;

const shared = useSharedRedis();
let redis: RedisClient;

beforeAll(() => {
  redis = shared.first.client;
});

beforeEach(async () => {
  await redis.flushAll();
});

type Make = (now: () => number, config: ReturningCustomersConfig) => ReturningCustomers;
const implementations: [string, Make][] = [
  ['MemoryReturningCustomers', (now, config) => new MemoryReturningCustomers(config, { now })],
  ['RedisReturningCustomers', (now, config) => new RedisReturningCustomers(redis, config, { now })],
];

describe.each(implementations)('%s', (_name, make) => {
  function storeAt(start = T0, config = CONFIG): { store: ReturningCustomers; clock: { now: number } } {
    const clock = { now: start };
    return { store: make(() => clock.now, config), clock };
  }
  const completion = (over: Partial<Parameters<ReturningCustomers['recordCompletion']>[0]> = {}) => ({
    integratorId: 'acme',
    externalUserId: 'user-1',
    providerCode: 'moonpay',
    finishedAtMs: T0 - HOUR,
    ...over,
  });

  test('a recorded completion makes its provider one the customer returns to; others are not', async () => {
    const { store } = storeAt();
    await expect(store.recordCompletion(completion())).resolves.toBe(true);
    await store.recordCompletion(completion({ providerCode: 'transak', finishedAtMs: T0 - 2 * HOUR }));
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set(['moonpay', 'transak']));
    await expect(store.providersOf('acme', 'user-2')).resolves.toEqual(new Set());
  });

  test("the same external_user_id under two integrators is two customers: neither reads nor deletes the other's", async () => {
    const { store } = storeAt();
    await store.recordCompletion(completion({ integratorId: 'acme', providerCode: 'moonpay' }));
    await store.recordCompletion(completion({ integratorId: 'globex', providerCode: 'banxa' }));
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set(['moonpay']));
    await expect(store.providersOf('globex', 'user-1')).resolves.toEqual(new Set(['banxa']));
    await store.forget('globex', 'user-1');
    await expect(store.providersOf('globex', 'user-1')).resolves.toEqual(new Set());
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set(['moonpay']));
    // globex's tombstone does not block acme's customer either.
    await expect(
      store.recordCompletion(completion({ integratorId: 'acme', providerCode: 'paybis', finishedAtMs: T0 - 3 * HOUR })),
    ).resolves.toBe(true);
  });

  test('forget deletes everything kept of the customer, and is idempotent', async () => {
    const { store, clock } = storeAt();
    await store.recordCompletion(completion({ providerCode: 'moonpay' }));
    await store.recordCompletion(completion({ providerCode: 'transak' }));
    await store.forget('acme', 'user-1');
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set());
    clock.now += 1000;
    await expect(store.forget('acme', 'user-1')).resolves.toBeUndefined();
    await expect(store.forget('acme', 'never-seen')).resolves.toBeUndefined();
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set());
  });

  test('the tombstone blocks a late record of a completion that finished before the deletion, not of a later one', async () => {
    const { store, clock } = storeAt();
    await store.forget('acme', 'user-1');
    // The indexer rebuilding from Temporal finds the customer's old orders: not brought back.
    await expect(store.recordCompletion(completion({ finishedAtMs: T0 - DAY_MS }))).resolves.toBe(false);
    await expect(store.recordCompletion(completion({ finishedAtMs: T0 }))).resolves.toBe(false);
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set());
    // A new order after the deletion counts.
    clock.now = T0 + HOUR;
    await expect(store.recordCompletion(completion({ providerCode: 'banxa', finishedAtMs: T0 + 1 }))).resolves.toBe(true);
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set(['banxa']));
    // A later deletion never moves the tombstone back: a second forget keeps blocking.
    await store.forget('acme', 'user-1');
    await expect(store.recordCompletion(completion({ finishedAtMs: T0 + 2 }))).resolves.toBe(false);
  });

  test('the tombstone lasts TOMBSTONE_MS (31 days, more than Temporal keeps closed orders)', async () => {
    expect(TOMBSTONE_MS).toBe(31 * DAY_MS);
    const { store, clock } = storeAt();
    await store.forget('acme', 'user-1');
    clock.now = T0 + TOMBSTONE_MS - 1;
    await expect(store.recordCompletion(completion({ finishedAtMs: T0 - 1 }))).resolves.toBe(false);
    clock.now = T0 + TOMBSTONE_MS + 1;
    if (_name === 'RedisReturningCustomers') await redis.del((store as RedisReturningCustomers).keysOf('acme', 'user-1')[1]); // Redis expires it itself (checked below).
    await expect(store.recordCompletion(completion({ finishedAtMs: T0 - 1 }))).resolves.toBe(true);
  });

  test('retention: a completion older than it is not recorded, and a recorded one stops counting once past it', async () => {
    const retentionMs = 10 * DAY_MS;
    const { store, clock } = storeAt(T0, { ...CONFIG, retentionMs });
    await expect(store.recordCompletion(completion({ finishedAtMs: T0 - retentionMs }))).resolves.toBe(false);
    await expect(store.recordCompletion(completion({ providerCode: 'moonpay', finishedAtMs: T0 - 9 * DAY_MS }))).resolves.toBe(true);
    await expect(store.recordCompletion(completion({ providerCode: 'transak', finishedAtMs: T0 - DAY_MS }))).resolves.toBe(true);
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set(['moonpay', 'transak']));
    clock.now = T0 + 2 * DAY_MS;
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set(['transak']));
    clock.now = T0 + 9 * DAY_MS;
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set());
  });

  test('an older completion recorded after a newer one keeps the newer time', async () => {
    const retentionMs = 10 * DAY_MS;
    const { store, clock } = storeAt(T0, { ...CONFIG, retentionMs });
    await store.recordCompletion(completion({ finishedAtMs: T0 - DAY_MS }));
    await store.recordCompletion(completion({ finishedAtMs: T0 - 9 * DAY_MS }));
    clock.now = T0 + 5 * DAY_MS;
    await expect(store.providersOf('acme', 'user-1')).resolves.toEqual(new Set(['moonpay']));
  });
});

describe('customerKey', () => {
  test('HMAC-SHA256 of integrator id, a line feed and user id, in hex', () => {
    const expected = createHmac('sha256', CONFIG.key).update('acme\nuser-1').digest('hex');
    expect(customerKey(CONFIG.key, 'acme', 'user-1')).toBe(expected);
    expect(customerKey(CONFIG.key, 'globex', 'user-1')).not.toBe(expected);
    expect(customerKey('another key of at least 32 characters', 'acme', 'user-1')).not.toBe(expected);
  });
});

describe('in Redis', () => {
  const store = (now = () => T0, config = CONFIG) => new RedisReturningCustomers(redis, config, { now });

  test('the providers hash expires when its newest completion leaves the retention; the tombstone after 31 days', async () => {
    const now = Date.now();
    const customers = store(() => now);
    await customers.recordCompletion({
      integratorId: 'acme',
      externalUserId: 'user-1',
      providerCode: 'moonpay',
      finishedAtMs: now - DAY_MS,
    });
    await customers.recordCompletion({
      integratorId: 'acme',
      externalUserId: 'user-1',
      providerCode: 'banxa',
      finishedAtMs: now - 2 * DAY_MS,
    });
    const [providersKey, tombstoneKey] = customers.keysOf('acme', 'user-1');
    expect(await redis.pExpireTime(providersKey)).toBe(now - DAY_MS + CONFIG.retentionMs);
    // A newer completion moves it on.
    await customers.recordCompletion({ integratorId: 'acme', externalUserId: 'user-1', providerCode: 'banxa', finishedAtMs: now });
    expect(await redis.pExpireTime(providersKey)).toBe(now + CONFIG.retentionMs);

    await customers.forget('acme', 'user-1');
    expect(await redis.exists(providersKey)).toBe(0);
    const ttl = await redis.pTTL(tombstoneKey);
    expect(ttl).toBeGreaterThan(TOMBSTONE_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(TOMBSTONE_MS);
    expect(await redis.get(tombstoneKey)).toBe(String(now));
  });

  test('providers past the retention are dropped from the hash on the next write', async () => {
    const clock = { now: T0 };
    const customers = store(() => clock.now, { ...CONFIG, retentionMs: 10 * DAY_MS });
    await customers.recordCompletion({
      integratorId: 'acme',
      externalUserId: 'user-1',
      providerCode: 'moonpay',
      finishedAtMs: T0 - 9 * DAY_MS,
    });
    clock.now = T0 + 2 * DAY_MS;
    await customers.recordCompletion({ integratorId: 'acme', externalUserId: 'user-1', providerCode: 'banxa', finishedAtMs: T0 });
    expect(Object.keys(await redis.hGetAll(customers.keysOf('acme', 'user-1')[0]))).toEqual(['banxa']);
  });

  test('no integrator id or user id in any key or value, only the keyed hash', async () => {
    const customers = createReturningCustomers({ returningCustomers: CONFIG }, redis, { now: () => T0 });
    const users = ['user-1', 'alice@example.com', 'cust_8f2a'];
    for (const externalUserId of users) {
      await customers.recordCompletion({
        integratorId: 'acme-integrator',
        externalUserId,
        providerCode: 'moonpay',
        finishedAtMs: T0 - HOUR,
      });
    }
    await customers.forget('acme-integrator', 'cust_8f2a');
    const texts: string[] = [];
    for await (const keys of redis.scanIterator({ MATCH: '*' })) {
      for (const key of keys) {
        texts.push(key);
        const type = await redis.type(key);
        if (type === 'hash') texts.push(...Object.entries(await redis.hGetAll(key)).flat());
        else if (type === 'string') texts.push((await redis.get(key))!);
        else throw new Error(`unexpected ${type} at ${key}`);
      }
    }
    expect(texts.length).toBeGreaterThanOrEqual(3 * 2);
    const dump = texts.join('\n');
    for (const clear of ['acme-integrator', ...users, 'acme', 'alice', 'user']) expect(dump).not.toContain(clear);
    for (const externalUserId of users) expect(dump).toContain(customerKey(CONFIG.key, 'acme-integrator', externalUserId));
  });

  test('Redis unreachable: ReturningCustomersUnavailableError, never an empty answer', async () => {
    const other = await startRedis();
    const lost = await connectRedis(other.url, logger);
    const customers = new RedisReturningCustomers(lost.client, CONFIG, { timeoutMs: 500 });
    await other.stop();
    await expect(customers.providersOf('acme', 'user-1')).rejects.toBeInstanceOf(ReturningCustomersUnavailableError);
    await expect(customers.forget('acme', 'user-1')).rejects.toBeInstanceOf(ReturningCustomersUnavailableError);
    await lost.close();
  });
});

describe('createReturningCustomers', () => {
  test('memory without a Redis client, Redis with one', () => {
    expect(createReturningCustomers({ returningCustomers: CONFIG })).toBeInstanceOf(MemoryReturningCustomers);
    expect(createReturningCustomers({ returningCustomers: CONFIG }, redis)).toBeInstanceOf(RedisReturningCustomers);
  });
});
