/**
 * The signalled provider events in a real redis-server (started per test file on a free loopback
 * port): shared by every API process, each key expiring by itself, and a Redis that fails or stops
 * answering is an error within the store's deadline, never a wait.
 */
import { RedisSignalledEvents, SIGNALLED_EVENT_TTL_MS, type SignalledEvent } from '../../src/api/signalled-events';
import { createLogger } from '../../src/logging';
import { connectRedis } from '../../src/redis/connection';
import { startRedis, useSharedRedis } from '../helpers/redis';

const logger = createLogger('silent', 'test');
const event = (overrides: Partial<SignalledEvent> = {}): SignalledEvent => ({
  provider: 'sandbox',
  orderId: 'order-1',
  eventId: 'evt-1',
  ...overrides,
});

const redis = useSharedRedis();

beforeEach(async () => {
  await redis.first.client.flushAll();
});

test('an event remembered through one connection is seen through another (two API processes)', async () => {
  const a = new RedisSignalledEvents(redis.first.client);
  const b = new RedisSignalledEvents(redis.second.client);
  await expect(b.seen(event())).resolves.toBe(false);
  await a.remember(event());
  await expect(b.seen(event())).resolves.toBe(true);
  await expect(b.seen(event({ provider: 'moonpay' }))).resolves.toBe(false);
  await expect(b.seen(event({ orderId: 'order-2' }))).resolves.toBe(false);
  await expect(b.seen(event({ eventId: 'evt-2' }))).resolves.toBe(false);
});

test('one key per event, under onramp:signalled:, expiring after seven days; remembering again keeps the first expiry', async () => {
  const store = new RedisSignalledEvents(redis.first.client);
  await store.remember(event());
  expect(await redis.first.client.keys('*')).toEqual([store.keyOf(event())]);
  expect(store.keyOf(event())).toMatch(/^onramp:signalled:[A-Za-z0-9_-]{43}$/);
  const ttl = await redis.first.client.pTTL(store.keyOf(event()));
  expect(ttl).toBeGreaterThan(SIGNALLED_EVENT_TTL_MS - 5000);
  expect(ttl).toBeLessThanOrEqual(SIGNALLED_EVENT_TTL_MS);

  await redis.first.client.pExpire(store.keyOf(event()), 60_000);
  await store.remember(event());
  expect(await redis.first.client.pTTL(store.keyOf(event()))).toBeLessThanOrEqual(60_000);
});

test('Redis forgets an event after the TTL', async () => {
  const store = new RedisSignalledEvents(redis.first.client, { ttlMs: 50 });
  await store.remember(event());
  await expect(store.seen(event())).resolves.toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 120));
  await expect(store.seen(event())).resolves.toBe(false);
});

test('a Redis that stops answering fails the call at the deadline', async () => {
  const own = await startRedis();
  const conn = await connectRedis(own.url, logger);
  const store = new RedisSignalledEvents(conn.client, { timeoutMs: 300 });
  try {
    process.kill(own.pid, 'SIGSTOP');
    const started = Date.now();
    await expect(store.seen(event())).rejects.toThrow('Redis did not answer within 300 ms');
    await expect(store.remember(event())).rejects.toThrow('Redis did not answer within 300 ms');
    expect(Date.now() - started).toBeLessThan(1500);
  } finally {
    process.kill(own.pid, 'SIGCONT');
    await conn.close();
    await own.stop();
  }
});

test('a Redis that is down fails the call', async () => {
  const own = await startRedis();
  const conn = await connectRedis(own.url, logger, { connectTimeoutMs: 500 });
  const store = new RedisSignalledEvents(conn.client);
  try {
    await own.stop();
    await expect(store.seen(event())).rejects.toThrow();
    await expect(store.remember(event())).rejects.toThrow();
  } finally {
    await conn.close();
  }
});
