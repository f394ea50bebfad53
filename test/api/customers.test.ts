/**
 * DELETE /api/on_ramp/customers/{external_user_id}: an integrator deletes what the broker keeps of
 * one of its users for ranking. Over real HTTP (supertest), with two integrators, against the
 * returning-customer store in memory and in a real redis-server.
 */
import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import { buildApi } from '../../src/api/server';
import type { AppConfig } from '../../src/config';
import { sha256Hex } from '../../src/config/integrators';
import { createLogger } from '../../src/logging';
import { createReturningCustomers, MemoryReturningCustomers, type ReturningCustomers } from '../../src/ranking/returning-customers';
import { connectRedis, type RedisConnection } from '../../src/redis/connection';
import { createTemporalClient } from '../../src/temporal/connection';
import { testConfig } from '../helpers/config';
import { startRedis, type RedisServer } from '../helpers/redis';

const KEY_A = 'obk_test_customers_a_0123456789abcdef';
const KEY_B = 'obk_test_customers_b_0123456789abcdef';
const unreachableTemporal = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
const silent = createLogger('silent', 'test');

function config(overrides: Partial<AppConfig> = {}): AppConfig {
  return testConfig({
    integrators: [
      { id: 'acme', name: 'Acme', api_key_sha256: [sha256Hex(KEY_A)] },
      { id: 'globex', name: 'Globex', api_key_sha256: [sha256Hex(KEY_B)] },
    ],
    ...overrides,
  });
}

const forget = (app: Express, id: string, key?: string) => {
  const req = request(app).delete(`/api/on_ramp/customers/${id}`);
  return key ? req.set('X-Api-Key', key) : req;
};

async function seed(customers: ReturningCustomers, integratorId: string, externalUserId: string, providers: string[]) {
  for (const providerCode of providers) {
    await customers.recordCompletion({ integratorId, externalUserId, providerCode, finishedAtMs: Date.now() - 60_000 });
  }
}

describe('with the store in memory', () => {
  let customers: MemoryReturningCustomers;
  let app: Express;
  const lines: string[] = [];

  beforeEach(() => {
    lines.length = 0;
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    customers = new MemoryReturningCustomers(config().returningCustomers);
    app = buildApi(config(), unreachableTemporal, logger, { returningCustomers: customers });
  });

  test("204 and the customer's providers are gone; only the caller's customer, not another integrator's with the same id", async () => {
    await seed(customers, 'acme', 'user-1', ['moonpay', 'transak']);
    await seed(customers, 'acme', 'user-2', ['banxa']);
    await seed(customers, 'globex', 'user-1', ['paybis']);

    const res = await forget(app, 'user-1', KEY_A);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    await expect(customers.providersOf('acme', 'user-1')).resolves.toEqual(new Set());
    await expect(customers.providersOf('acme', 'user-2')).resolves.toEqual(new Set(['banxa']));
    await expect(customers.providersOf('globex', 'user-1')).resolves.toEqual(new Set(['paybis']));

    // Older orders found again later (the indexer's rebuild) do not bring the customer back.
    await seed(customers, 'acme', 'user-1', ['moonpay']);
    await expect(customers.providersOf('acme', 'user-1')).resolves.toEqual(new Set());

    expect((await forget(app, 'user-1', KEY_B)).status).toBe(204);
    await expect(customers.providersOf('globex', 'user-1')).resolves.toEqual(new Set());
    await expect(customers.providersOf('acme', 'user-2')).resolves.toEqual(new Set(['banxa']));
  });

  test('idempotent: a second call, and a call for a user never seen, answer 204', async () => {
    await seed(customers, 'acme', 'user-1', ['moonpay']);
    expect((await forget(app, 'user-1', KEY_A)).status).toBe(204);
    expect((await forget(app, 'user-1', KEY_A)).status).toBe(204);
    expect((await forget(app, 'nobody-ever', KEY_A)).status).toBe(204);
  });

  test('the id is URL-decoded: one with a slash or a percent sign is one customer', async () => {
    await seed(customers, 'acme', 'team/42%', ['moonpay']);
    expect((await forget(app, encodeURIComponent('team/42%'), KEY_A)).status).toBe(204);
    await expect(customers.providersOf('acme', 'team/42%')).resolves.toEqual(new Set());
  });

  test('401 problem without a key or with a wrong one; nothing is deleted', async () => {
    await seed(customers, 'acme', 'user-1', ['moonpay']);
    for (const res of [await forget(app, 'user-1'), await forget(app, 'user-1', 'obk_not_a_key_0123456789')]) {
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('unauthorized');
    }
    await expect(customers.providersOf('acme', 'user-1')).resolves.toEqual(new Set(['moonpay']));
  });

  test.each([
    ['a space', 'two%20words'],
    ['a character outside printable ASCII', 'caf%C3%A9'],
    ['more than 128 characters', 'u'.repeat(129)],
    ['a control character', 'a%0Ab'],
  ])('400 validation_error for an id with %s, as order requests refuse it', async (_what, id) => {
    const res = await forget(app, id, KEY_A);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'validation_error', errors: [expect.objectContaining({ path: 'external_user_id' })] });
  });

  test('an id of 128 characters is accepted, as in order requests', async () => {
    expect((await forget(app, 'u'.repeat(128), KEY_A)).status).toBe(204);
  });

  test('405 for another method', async () => {
    const res = await request(app).get('/api/on_ramp/customers/user-1').set('X-Api-Key', KEY_A);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('DELETE');
  });

  test('the user id never reaches the log', async () => {
    await forget(app, 'customer-4242', KEY_A);
    await forget(app, 'customer-4242%20x', KEY_A);
    const accessLines = lines
      .map((line) => JSON.parse(line) as { msg: string; req?: { path: string } })
      .filter((l) => l.msg === 'request completed');
    expect(accessLines.map((l) => l.req?.path)).toEqual(['/api/on_ramp/customers/[redacted]', '/api/on_ramp/customers/[redacted]']);
    expect(lines.join('\n')).not.toContain('customer-4242');
  });

  test('rate-limited like the other routes', async () => {
    const limited = buildApi(config({ rateLimit: { limit: 1, windowMs: 60_000 } }), unreachableTemporal, silent, {
      returningCustomers: customers,
    });
    expect((await forget(limited, 'user-1', KEY_A)).status).toBe(204);
    const res = await forget(limited, 'user-1', KEY_A);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
  });
});

describe('with the store in Redis (REDIS_URL)', () => {
  let server: RedisServer;
  let connection: RedisConnection;

  beforeAll(async () => {
    server = await startRedis();
    connection = await connectRedis(server.url, silent);
  });

  afterAll(async () => {
    await connection?.close();
    await server?.stop();
  });

  test('the API makes the Redis store from its configuration; what it deletes is gone for every process', async () => {
    const app = buildApi(config(), unreachableTemporal, silent, { redis: connection.client });
    // Another process (the outcome indexer, say) with the same configuration and Redis.
    const elsewhere = createReturningCustomers(config(), connection.client);
    await seed(elsewhere, 'acme', 'user-1', ['moonpay']);
    await seed(elsewhere, 'globex', 'user-1', ['paybis']);
    expect((await forget(app, 'user-1', KEY_A)).status).toBe(204);
    await expect(elsewhere.providersOf('acme', 'user-1')).resolves.toEqual(new Set());
    await expect(elsewhere.providersOf('globex', 'user-1')).resolves.toEqual(new Set(['paybis']));
  });

  test('503 service_unavailable while Redis cannot be reached', async () => {
    const other = await startRedis();
    const lost = await connectRedis(other.url, silent);
    await other.stop();
    const app = buildApi(config(), unreachableTemporal, silent, { redis: lost.client });
    const res = await forget(app, 'user-1', KEY_A);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(res.headers['retry-after']).toBeDefined();
    await lost.close();
  });
});
