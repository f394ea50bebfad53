/**
 * Per-API-key rate limiting behind the real authentication middleware and problem+json error
 * handler: in memory, and in a real redis-server shared by two app instances.
 */
import express, { type Express, type Request, type RequestHandler } from 'express';
import { requestLogging } from '../../src/api/request-log';
import request from 'supertest';
import { requireApiKey } from '../../src/api/auth';
import { errorHandler, notFoundHandler } from '../../src/api/problem';
import { createRateLimiter, policyName, rateLimitKey, type RateLimiterOptions } from '../../src/api/rate-limit';
import { IntegratorDirectory, sha256Hex } from '../../src/config/integrators';
import { createLogger } from '../../src/logging';
import { connectRedis, type RedisConnection } from '../../src/redis/connection';
import { startRedis, type RedisServer } from '../helpers/redis';

const logger = createLogger('silent', 'test');
const ACME_KEY = 'obk_test_acme_000000000000000000000000';
const GLOBEX_KEY = 'obk_test_globex_0000000000000000000000';
const directory = new IntegratorDirectory([
  { id: 'acme', name: 'Acme', api_key_sha256: [sha256Hex(ACME_KEY)] },
  { id: 'globex', name: 'Globex', api_key_sha256: [sha256Hex(GLOBEX_KEY)] },
]);

/** The API's order of middleware: auth, then the limiter, then the routes; problem+json for errors. */
function appWith(limiter: RequestHandler): Express {
  const app = express();
  requestLogging(app, logger);
  app.get('/healthz', (_req, res) => res.json({ ok: true }));
  app.use('/api', requireApiKey(directory));
  app.use('/api', limiter);
  app.get('/api/ping', (_req, res) => res.json({ ok: true }));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

const ping = (app: Express, key = ACME_KEY) => request(app).get('/api/ping').set('X-Api-Key', key);

async function spend(app: Express, times: number, key = ACME_KEY): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await ping(app, key);
    expect(res.status).toBe(200);
  }
}

function expectRateLimited(res: request.Response, limit: number, windowSeconds: number): void {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.body).toMatchObject({
    status: 429,
    code: 'rate_limited',
    type: 'urn:onramp-broker:problem:rate_limited',
    title: 'Too many requests',
  });
  expect(res.body.detail).toContain(`More than ${limit} requests in ${windowSeconds} s`);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers.ratelimit).toMatch(/; r=0; t=\d+$/);
  expect(res.headers['ratelimit-policy']).toContain(`q=${limit}; w=${windowSeconds}`);
}

describe('policyName and limiter options', () => {
  test('names the policy as express-rate-limit does: limit and window', () => {
    expect(policyName(600, 60_000)).toBe('600-in-1min');
    expect(policyName(10, 30_000)).toBe('10-in-30sec');
    expect(policyName(5, 90_000)).toBe('5-in-1.5min');
    expect(policyName(100, 3_600_000)).toBe('100-in-1hr');
    expect(policyName(100, 7_200_000)).toBe('100-in-2hrs');
    expect(policyName(5000, 86_400_000)).toBe('5000-in-1day');
    expect(policyName(5000, 172_800_000)).toBe('5000-in-2days');
  });

  test('a limit below 1 or a window under a second is refused when the limiter is made', () => {
    expect(() => createRateLimiter({ limit: 0, windowMs: 60_000, logger })).toThrow(RangeError);
    expect(() => createRateLimiter({ limit: 2.5, windowMs: 60_000, logger })).toThrow(RangeError);
    expect(() => createRateLimiter({ limit: 10, windowMs: 500, logger })).toThrow(RangeError);
  });
});

describe('rateLimitKey', () => {
  test('is the integrator when authenticated, else the IP (IPv6 by /56 subnet)', () => {
    // Behind a trusted proxy: req.ip, which Express reads from X-Forwarded-For.
    const req = (fields: Partial<Request>) =>
      ({
        app: { enabled: (setting: string) => setting === 'trust proxy' },
        socket: { remoteAddress: '10.0.0.1' },
        ...fields,
      }) as unknown as Request;
    expect(rateLimitKey(req({ integrator: directory.byId('acme'), ip: '203.0.113.9' }))).toBe('integrator:acme');
    expect(rateLimitKey(req({ ip: '203.0.113.9' }))).toBe('ip:203.0.113.9');
    expect(rateLimitKey(req({ ip: '2001:db8:1:2:3:4:5:6' }))).toBe('ip:2001:db8:1::/56');
    expect(rateLimitKey(req({ ip: '2001:db8:1:ff:ffff::1' }))).toBe('ip:2001:db8:1::/56');
    expect(rateLimitKey(req({ ip: '2001:db8:1:100::1' }))).not.toBe('ip:2001:db8:1::/56');
  });

  test('without a trusted proxy, the socket address, whatever req.ip would parse', () => {
    const direct = (remoteAddress: string) =>
      ({
        app: { enabled: () => false },
        socket: { remoteAddress },
        get ip(): string {
          throw new Error('req.ip is not read');
        },
      }) as unknown as Request;
    expect(rateLimitKey(direct('203.0.113.9'))).toBe('ip:203.0.113.9');
    expect(rateLimitKey(direct('2001:db8:1:2:3:4:5:6'))).toBe('ip:2001:db8:1::/56');
  });
});

describe.each<[string, () => Partial<RateLimiterOptions>]>([
  ['in memory', () => ({})],
  ['in Redis', () => ({ redis: shared.connection.client, prefix: `rl-${Math.random()}:` })],
])('rate limiter %s', (_name, storeOptions) => {
  const limiter = (limit: number, windowMs = 60_000) => createRateLimiter({ limit, windowMs, logger, ...storeOptions() });

  test('every counted request carries draft-8 RateLimit headers; the (limit+1)th is a 429 problem', async () => {
    const app = appWith(limiter(3));
    const first = await ping(app);
    expect(first.status).toBe(200);
    expect(first.headers.ratelimit).toMatch(/^"3-in-1min"; r=2; t=(59|60)$/);
    expect(first.headers['ratelimit-policy']).toMatch(/^"3-in-1min"; q=3; w=60; pk=:[A-Za-z0-9+/=]+:$/);
    expect(first.headers['x-ratelimit-limit']).toBeUndefined();
    expect(first.headers['retry-after']).toBeUndefined();
    await spend(app, 2);
    expectRateLimited(await ping(app), 3, 60);
    expectRateLimited(await ping(app), 3, 60);
  });

  test('two API keys have separate budgets', async () => {
    const app = appWith(limiter(2));
    await spend(app, 2, ACME_KEY);
    expectRateLimited(await ping(app, ACME_KEY), 2, 60);
    await spend(app, 2, GLOBEX_KEY);
    expectRateLimited(await ping(app, GLOBEX_KEY), 2, 60);
  });

  test('requests without a valid key are refused by auth first and use no budget', async () => {
    const app = appWith(limiter(1));
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/api/ping').set('X-Api-Key', 'obk_test_wrong_000000000000000000');
      expect(res.status).toBe(401);
      expect(res.headers.ratelimit).toBeUndefined();
    }
    await spend(app, 1);
    expectRateLimited(await ping(app), 1, 60);
  });

  test('routes outside /api are not limited', async () => {
    const app = appWith(limiter(1));
    await spend(app, 1);
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/healthz');
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toBeUndefined();
    }
  });

  test('the budget comes back when the window ends', async () => {
    const app = appWith(limiter(1, 1000));
    await spend(app, 1);
    expectRateLimited(await ping(app), 1, 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await spend(app, 1);
  });
});

describe('rate limiter in Redis', () => {
  test('two API processes (two clients, one server) share one budget per key', async () => {
    const other = await connectRedis(shared.server.url, logger);
    try {
      const prefix = `rl-shared-${Math.random()}:`;
      const appA = appWith(createRateLimiter({ limit: 3, windowMs: 60_000, redis: shared.connection.client, prefix, logger }));
      const appB = appWith(createRateLimiter({ limit: 3, windowMs: 60_000, redis: other.client, prefix, logger }));
      await spend(appA, 1);
      const second = await ping(appB);
      expect(second.status).toBe(200);
      expect(second.headers.ratelimit).toMatch(/; r=1; /);
      await spend(appA, 1);
      expectRateLimited(await ping(appB), 3, 60);
      expectRateLimited(await ping(appA), 3, 60);
      await spend(appB, 1, GLOBEX_KEY);
    } finally {
      await other.close();
    }
  });

  test('counts are kept under the prefix with the window as their TTL', async () => {
    const prefix = `rl-ttl-${Math.random()}:`;
    const app = appWith(createRateLimiter({ limit: 5, windowMs: 60_000, redis: shared.connection.client, prefix, logger }));
    await spend(app, 2);
    const key = `${prefix}integrator:acme`;
    await expect(shared.connection.client.get(key)).resolves.toBe('2');
    const ttl = await shared.connection.client.pTTL(key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  test('with Redis down requests pass unlimited (logged); a limiter made while Redis was down works once it is back', async () => {
    const own = await startRedis();
    let conn: RedisConnection | undefined;
    let again: RedisServer | undefined;
    const logged: string[] = [];
    const spy = {
      ...logger,
      error: (_obj: unknown, message?: string) => logged.push(message ?? ''),
      warn: (_obj: unknown, message?: string) => logged.push(message ?? ''),
    } as unknown as typeof logger;
    try {
      conn = await connectRedis(own.url, logger, { connectTimeoutMs: 300 });
      await own.stop();
      await waitFor(() => !conn!.client.isReady);

      const app = appWith(createRateLimiter({ limit: 1, windowMs: 60_000, redis: conn.client, logger: spy }));
      for (let i = 0; i < 3; i++) {
        const res = await ping(app);
        expect(res.status).toBe(200);
        expect(res.headers.ratelimit).toBeUndefined();
      }
      expect(logged.some((m) => /allowing request without rate-limiting/.test(m))).toBe(true);

      again = await startRedis({ port: own.port });
      await waitFor(() => conn!.client.isReady);
      await spend(app, 1);
      expectRateLimited(await ping(app), 1, 60);
    } finally {
      await conn?.close();
      await again?.stop();
      await own.stop();
    }
  });

  test('a Redis that stops answering does not hold requests: they pass uncounted at the deadline', async () => {
    const own = await startRedis();
    const conn = await connectRedis(own.url, logger, { closeTimeoutMs: 300 });
    try {
      const app = appWith(createRateLimiter({ limit: 1, windowMs: 60_000, redis: conn.client, logger, redisTimeoutMs: 300 }));
      await spend(app, 1);
      expectRateLimited(await ping(app), 1, 60);
      process.kill(own.pid, 'SIGSTOP');
      const started = Date.now();
      const res = await ping(app);
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      process.kill(own.pid, 'SIGCONT');
      await conn.close();
      await own.stop();
    }
  });
});

const shared = {} as { server: RedisServer; connection: RedisConnection };

beforeAll(async () => {
  shared.server = await startRedis();
  shared.connection = await connectRedis(shared.server.url, logger);
});

afterAll(async () => {
  await shared.connection?.close();
  await shared.server?.stop();
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
