/**
 * The per-client-IP rate limit in front of API-key authentication and provider webhooks, on the
 * real API (buildApi) over real HTTP: in memory, with and without TRUST_PROXY, and in a real
 * redis-server shared by two API instances.
 */
import type { Express } from 'express';
import request from 'supertest';
import { buildApi } from '../../src/api/server';
import type { AppConfig } from '../../src/config';
import { createLogger } from '../../src/logging';
import type { RedisConnection } from '../../src/redis/connection';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { useSharedRedis } from '../helpers/redis';

const logger = createLogger('silent', 'test');
const unreachableTemporal = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
const WRONG_KEY = 'obk_test_wrong_0000000000000000000000000';

function api(ipLimit: number, env: NodeJS.ProcessEnv = {}, redis?: RedisConnection): Express {
  const config: AppConfig = { ...testConfig({}, env), ipRateLimit: { limit: ipLimit, windowMs: 60_000 } };
  return buildApi(config, unreachableTemporal, logger, redis ? { redis: redis.client } : {});
}

const currencies = (app: Express, key: string, forwardedFor?: string) => {
  const req = request(app).get('/api/dict/currencies').set('X-Api-Key', key);
  return forwardedFor ? req.set('X-Forwarded-For', forwardedFor) : req;
};

function expectIpLimited(res: request.Response, limit: number): void {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.body).toMatchObject({ status: 429, code: 'rate_limited' });
  expect(res.body.detail).toContain(`More than ${limit} requests in 60 s for this client address`);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 0 && retryAfter <= 60).toBe(true);
}

test('failed-key guessing from one address is stopped with 429 before the key is checked', async () => {
  const app = api(3);
  for (let i = 0; i < 3; i++) expect((await currencies(app, WRONG_KEY)).status).toBe(401);
  expectIpLimited(await currencies(app, WRONG_KEY), 3);
  // Before authentication: even the right key is not looked at.
  expectIpLimited(await currencies(app, TEST_API_KEY), 3);
});

test('a flood of forged provider webhooks is limited', async () => {
  const app = api(2);
  const forged = () =>
    request(app)
      .post('/api/webhooks/sandbox')
      .set('content-type', 'application/json')
      .set('Sandbox-Signature', 't=1,v1=00')
      .send(JSON.stringify({ filler: 'x'.repeat(200_000) }));
  for (let i = 0; i < 2; i++) expect((await forged()).status).toBe(401);
  expectIpLimited(await forged(), 2);
});

test('without TRUST_PROXY a forged X-Forwarded-For does not escape the limit', async () => {
  const app = api(2);
  expect((await currencies(app, TEST_API_KEY, '203.0.113.1')).status).toBe(200);
  expect((await currencies(app, TEST_API_KEY, '203.0.113.2')).status).toBe(200);
  expectIpLimited(await currencies(app, TEST_API_KEY, '203.0.113.3'), 2);
});

test('with TRUST_PROXY naming 127.0.0.1 the forwarded client address is what is counted', async () => {
  const app = api(2, { TRUST_PROXY: '127.0.0.1' });
  await currencies(app, TEST_API_KEY, '203.0.113.1').expect(200);
  await currencies(app, TEST_API_KEY, '203.0.113.1').expect(200);
  expectIpLimited(await currencies(app, TEST_API_KEY, '203.0.113.1'), 2);
  // Another client behind the same proxy has its own budget; an address the client prepends is not believed.
  await currencies(app, TEST_API_KEY, '203.0.113.2').expect(200);
  expectIpLimited(await currencies(app, TEST_API_KEY, '198.51.100.7, 203.0.113.1'), 2);
});

test('TRUST_PROXY accepts addresses, CIDRs and named ranges, and refuses anything else naming the variable', () => {
  expect(testConfig({}, { TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1,fd00::/48,loopback' }).trustProxy).toEqual([
    '10.0.0.1',
    '10.1.0.0/16',
    '::1',
    'fd00::/48',
    'loopback',
  ]);
  expect(testConfig().trustProxy).toEqual([]);
  for (const bad of ['true', '1', '10.0.0.0/33', 'proxy.example', '10.0.0.1/8/1', '0.0.0.0/0', '::/0'])
    expect(() => testConfig({}, { TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
});

describe('in Redis', () => {
  const redis = useSharedRedis();

  test('two API instances share the counters of one address', async () => {
    const appA = api(3, {}, redis.first);
    const appB = api(3, {}, redis.second);
    expect((await currencies(appA, WRONG_KEY)).status).toBe(401);
    expect((await currencies(appB, WRONG_KEY)).status).toBe(401);
    expect((await currencies(appA, WRONG_KEY)).status).toBe(401);
    expectIpLimited(await currencies(appB, WRONG_KEY), 3);
    await expect(redis.first.client.get('onramp:rl-ip:ip:127.0.0.1')).resolves.toBe('4');
  });
});
