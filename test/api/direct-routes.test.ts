/**
 * The hot GET routes answered without Express's router (src/api/direct-routes.ts) answer every
 * request as the router does: the same status, headers and body for a success, a cached answer,
 * every refusal of the steps before the route (API key, per-key and per-IP limits), the route's
 * own refusals, and the metrics and request id of each. Two APIs over the same simulator, one with
 * the direct routes and one without, are asked the same things.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import type { Express, RequestHandler } from 'express';
import { buildApi } from '../../src/api/server';
import { directChainOf, DirectRoutes } from '../../src/api/direct-routes';
import { sandboxCredentials, withEndpoints, type AppConfig } from '../../src/config';
import { createLogger } from '../../src/logging';
import { httpRequests } from '../../src/metrics/metrics';
import { createSimulatorHost, type SimulatorHost } from '../../src/simulators';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { sandboxOffersSearch } from '../helpers/orders';

let simulatorServer: Server;
let host: SimulatorHost;
let simulatorUrl: string;
const client = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });

beforeAll(async () => {
  simulatorServer = createServer();
  await new Promise<void>((resolve) => simulatorServer.listen(0, '127.0.0.1', resolve));
  simulatorUrl = `http://127.0.0.1:${(simulatorServer.address() as AddressInfo).port}`;
  host = createSimulatorHost({
    sandbox: sandboxCredentials(testConfig().providerEnv),
    brokerUrl: 'http://127.0.0.1:1',
    publicUrl: simulatorUrl,
  });
  simulatorServer.on('request', host.app);
});

afterAll(async () => {
  host.stop();
  simulatorServer.closeAllConnections();
  await new Promise((resolve) => simulatorServer.close(resolve));
});

/** The same API twice: with its direct routes, and with every request through the router. */
function apis(overrides: Partial<AppConfig> = {}): { direct: Express; routed: Express } {
  const config = testConfig({ offersProviderTimeoutMs: 2000, ...overrides });
  const build = (directRoutes: boolean) =>
    buildApi(withEndpoints(config, { publicBaseUrl: config.publicBaseUrl, simulatorUrl }), client, createLogger('silent', 'test'), {
      directRoutes,
    });
  return { direct: build(true), routed: build(false) };
}

/** What must agree between the two answers: status, body and headers, but for those that differ by nature. */
function comparable(res: request.Response) {
  const { date: _date, ...headers } = res.headers as Record<string, string>;
  const body: unknown = res.headers['content-type']?.includes('json') ? res.body : res.text;
  return { status: res.status, headers, body };
}

const DICT = '/api/dict/currencies';
const offersPath = (overrides: Record<string, string> = {}) => `/api/on_ramp/offers?${sandboxOffersSearch(overrides)}`;

type Ask = (app: Express) => request.Test;

async function expectAlike(ask: Ask, overrides: Partial<AppConfig> = {}): Promise<request.Response> {
  const { direct, routed } = apis(overrides);
  const [a, b] = [await ask(direct).set('X-Request-Id', 'compare-1'), await ask(routed).set('X-Request-Id', 'compare-1')];
  expect(comparable(a)).toEqual(comparable(b));
  return a;
}

const withKey =
  (path: string): Ask =>
  (app) =>
    request(app).get(path).set('X-Api-Key', TEST_API_KEY);

describe('a direct route answers as the router does', () => {
  test.each([
    ['the dictionary', withKey(DICT), 200],
    ['the dictionary with a query string', withKey(`${DICT}?x=1`), 200],
    ['the dictionary, cached', (app: Express) => request(app).get(DICT).set('X-Api-Key', TEST_API_KEY).set('If-None-Match', '"x"'), 200],
    ['the dictionary without a key', (app: Express) => request(app).get(DICT), 401],
    ['the dictionary with a wrong key', (app: Express) => request(app).get(DICT).set('X-Api-Key', 'obk_test_wrong'), 401],
    ['the dictionary with a bearer key', (app: Express) => request(app).get(DICT).set('Authorization', `Bearer ${TEST_API_KEY}`), 200],
    ['offers with a bad query', withKey(offersPath({ amount_from: '-1', country: 'XX' })), 400],
    ['offers without a key', (app: Express) => request(app).get(offersPath()), 401],
    ['the dictionary, HEAD (through the router either way)', (app: Express) => request(app).head(DICT).set('X-Api-Key', TEST_API_KEY), 200],
    ['the dictionary, POST', (app: Express) => request(app).post(DICT).set('X-Api-Key', TEST_API_KEY), 405],
    ['the dictionary with a trailing slash', withKey(`${DICT}/`), 200],
  ])('%s', async (_name, ask, status) => {
    const res = await expectAlike(ask);
    expect(res.status).toBe(status);
  });

  test('a cached dictionary: 304 to its own ETag', async () => {
    const { direct } = apis();
    const first = await withKey(DICT)(direct);
    const res = await expectAlike((app) => request(app).get(DICT).set('X-Api-Key', TEST_API_KEY).set('If-None-Match', first.headers.etag!));
    expect(res.status).toBe(304);
  });

  test('offers: the same providers, fields and headers', async () => {
    const { direct, routed } = apis();
    const [a, b] = [await withKey(offersPath())(direct), await withKey(offersPath())(routed)];
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const { date: _d1, 'x-request-id': _i1, ...headersA } = a.headers as Record<string, string>;
    const { date: _d2, 'x-request-id': _i2, ...headersB } = b.headers as Record<string, string>;
    expect(Object.keys(headersA).sort()).toEqual(Object.keys(headersB).sort());
    expect(headersA['content-type']).toBe(headersB['content-type']);
    expect(Object.keys(a.body as object)).toEqual(['sandbox']);
    expect(Object.keys((a.body as Record<string, object>).sandbox!).sort()).toEqual(
      Object.keys((b.body as Record<string, object>).sandbox!).sort(),
    );
  });

  test('the per-key limit refuses alike, with its headers', async () => {
    const over = { rateLimit: { limit: 2, windowMs: 60_000 } };
    const { direct, routed } = apis(over);
    for (const app of [direct, routed]) {
      await withKey(DICT)(app).expect(200);
      await withKey(DICT)(app).expect(200);
    }
    const [a, b] = [await withKey(DICT)(direct).set('X-Request-Id', 'r'), await withKey(DICT)(routed).set('X-Request-Id', 'r')];
    expect(a.status).toBe(429);
    expect(a.headers['retry-after']).toBeDefined();
    expect(comparable(a)).toEqual(comparable(b));
  });

  test('the per-IP limit refuses alike, before the key is read', async () => {
    const over = { ipRateLimit: { limit: 1, windowMs: 60_000 } };
    const { direct, routed } = apis(over);
    for (const app of [direct, routed]) await request(app).get(DICT).expect(401);
    const [a, b] = [await request(direct).get(DICT).set('X-Request-Id', 'r'), await request(routed).get(DICT).set('X-Request-Id', 'r')];
    expect(a.status).toBe(429);
    expect(comparable(a)).toEqual(comparable(b));
  });

  test('refusals before the route are counted under /api/* on both paths, answers under the route', async () => {
    const counts = async () =>
      Object.fromEntries(
        (await httpRequests.get()).values.map((v) => [`${v.labels.method} ${v.labels.route} ${v.labels.status_class}`, v.value]),
      );
    const { direct, routed } = apis({ rateLimit: { limit: 1, windowMs: 60_000 } });
    const changes: Record<string, number>[] = [];
    for (const app of [direct, routed]) {
      const before = await counts();
      await request(app).get(DICT).expect(401);
      await withKey(DICT)(app).expect(200);
      await withKey(DICT)(app).expect(429);
      await withKey(offersPath({ amount_from: '-1' }))(app).expect(429);
      const after = await counts();
      changes.push(
        Object.fromEntries(
          Object.entries(after)
            .filter(([k, v]) => v !== (before[k] ?? 0))
            .map(([k, v]) => [k, v - (before[k] ?? 0)]),
        ),
      );
    }
    expect(changes[0]).toEqual({ 'GET /api/* 4xx': 3, [`GET ${DICT} 2xx`]: 1 });
    expect(changes[0]).toEqual(changes[1]);
  });

  test('admission: a held request keeps the key slot, the next is refused, the slot comes back', async () => {
    const over = { integratorAdmission: { concurrency: 1, queued: 0 }, offersProviderTimeoutMs: 3000 };
    const { direct, routed } = apis(over);
    for (const app of [direct, routed]) {
      await request(host.app).post('/sandbox/_simulator/faults').send({ latencyMs: 600 });
      try {
        const held = withKey(offersPath())(app);
        const heldDone = held.then((r) => r);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const refused = await withKey(DICT)(app);
        expect(refused.status).toBe(429);
        expect((await heldDone).status).toBe(200);
        await withKey(DICT)(app).expect(200);
      } finally {
        await request(host.app).post('/sandbox/_simulator/faults').send({ latencyMs: 0 });
      }
    }
  });

  test("each direct route runs exactly the router's handlers for it, in order", () => {
    const { direct } = apis();
    type Layer = {
      handle: RequestHandler & { stack?: Layer[] };
      route?: { stack: { method?: string; handle: RequestHandler }[] };
      match(path: string): boolean;
    };
    const matched = (stack: Layer[], path: string): RequestHandler[] =>
      stack
        .filter((layer) => layer.match(path))
        .flatMap((layer) => {
          if (layer.route)
            return layer.route.stack
              .filter((l) => l.method === undefined || l.method === 'get')
              .map((l) => l.handle)
              .slice(0, 1);
          if (layer.handle.stack) return matched(layer.handle.stack, path.replace(/^\/api/, ''));
          return [layer.handle];
        });
    const top = (direct as unknown as { router: { stack: Layer[] } }).router.stack;
    for (const url of [DICT, '/api/on_ramp/offers']) {
      const chain = directChainOf(direct, url);
      expect(chain).toBeDefined();
      // The first route that matches answers a GET: the router's handlers up to and including its GET handler.
      const routerChain = matched(top, url);
      const upToRoute = routerChain.slice(0, routerChain.indexOf(chain![chain!.length - 1]!) + 1);
      expect(upToRoute).toEqual(chain);
    }
  });

  test.each(['/api/dict/%63urrencies', '//api/dict/currencies', '/API/dict/currencies', '/api/dict/currencies?', '/api/dict/currencies#x'])(
    '%s: the router answers as it did',
    async (path) => {
      await expectAlike((app) => request(app).get(path).set('X-Api-Key', TEST_API_KEY));
    },
  );

  test('a given X-Request-Id is answered back, and the request counted under its route', async () => {
    const { direct } = apis();
    const counted = async () =>
      (await httpRequests.get()).values.find((v) => v.labels.route === DICT && v.labels.method === 'GET' && v.labels.status_class === '2xx')
        ?.value ?? 0;
    const before = await counted();
    const res = await request(direct).get(DICT).set('X-Api-Key', TEST_API_KEY).set('X-Request-Id', 'trace-me-1').expect(200);
    expect(res.headers['x-request-id']).toBe('trace-me-1');
    expect(await counted()).toBe(before + 1);
  });
});

describe('DirectRoutes', () => {
  /** An app with one direct route whose last handler is `last`, and the same route on its router. */
  function appWith(last: RequestHandler) {
    const seen: string[] = [];
    const app = express();
    const step: RequestHandler = (_req, _res, next) => {
      seen.push('step');
      next();
    };
    app.get('/hot', step, last);
    app.use((_req, res) => void res.status(404).json({ from: 'not found' }));
    app.use(
      ((err: Error, _req, res, _next) =>
        void res.status(500).json({ from: 'error handler', message: err.message })) as express.ErrorRequestHandler,
    );
    const direct = new DirectRoutes();
    direct.first((req, _res, next) => {
      seen.push(`first ${req.baseUrl} route ${String((req as { route?: { path: string } }).route?.path)}`);
      next();
    });
    direct.add('', '/hot', [step], last);
    direct.install(
      app,
      (err: Error, _req, res, _next) => void res.status(500).json({ from: 'direct error handler', message: err.message }),
      (_req, res) => void res.status(404).json({ from: 'direct not found' }),
    );
    return { app, seen };
  }

  test('runs the first steps, then the route, with what Express would have set', async () => {
    const { app, seen } = appWith(
      (req, res) =>
        void res.json({ query: req.query, original: req.originalUrl, params: req.params, route: (req.route as { path: string }).path }),
    );
    const res = await request(app).get('/hot?a=1').expect(200);
    expect(res.body).toEqual({ query: { a: '1' }, original: '/hot?a=1', params: {}, route: '/hot' });
    // The route is entered after the steps before it, as with the router.
    expect(seen).toEqual(['first  route undefined', 'step']);
  });

  test.each([
    [
      'thrown',
      (() => {
        throw new Error('thrown');
      }) as RequestHandler,
    ],
    ['rejected', (() => Promise.reject(new Error('rejected'))) as RequestHandler],
    ['passed on', ((_req, _res, next) => next(new Error('passed on'))) as RequestHandler],
  ])('an error %s goes to the error handler once', async (message, last) => {
    const { app } = appWith(last);
    const res = await request(app).get('/hot').expect(500);
    expect(res.body).toEqual({ from: 'direct error handler', message });
  });

  test('an error handler that throws after the answer began closes the connection', async () => {
    const app = express();
    const direct = new DirectRoutes();
    direct.add('', '/hot', [], (_req, res, next) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
      next(new Error('late'));
    });
    direct.install(
      app,
      () => {
        throw new Error('the error handler failed');
      },
      (_req, res) => void res.status(404).end(),
    );
    await expect(request(app).get('/hot')).rejects.toThrow();
  });

  test('an error handler that throws before any answer: a bare 500 problem', async () => {
    const app = express();
    const direct = new DirectRoutes();
    direct.add('', '/hot', [], (_req, _res, next) => next(new Error('early')));
    direct.install(
      app,
      () => {
        throw new Error('the error handler failed');
      },
      (_req, res) => void res.status(404).end(),
    );
    const res = await request(app).get('/hot').expect(500);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 500, code: 'internal_error' });
  });

  test('a route that answers nothing is not found', async () => {
    const { app } = appWith((_req, _res, next) => next());
    expect((await request(app).get('/hot').expect(404)).body).toEqual({ from: 'direct not found' });
  });

  test('any other method, path or spelling goes through the router', async () => {
    const { app, seen } = appWith((_req, res) => void res.json({ ok: true }));
    await request(app).get('/HOT').expect(200);
    await request(app).get('/hot/').expect(200);
    await request(app).head('/hot').expect(200);
    expect(seen).toEqual(['step', 'step', 'step']);
    expect((await request(app).get('/cold').expect(404)).body).toEqual({ from: 'not found' });
  });
});
