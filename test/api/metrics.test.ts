/**
 * GET /metrics on the API: Prometheus's text format, outside the API key, with the HTTP metrics of
 * the requests before it (by route template, never the raw URL); refused without the bearer token
 * when METRICS_TOKEN is set, and not served on the API's port in production without one; with
 * METRICS_ENABLED=false, nothing recorded and nothing served.
 */
import request from 'supertest';
import { buildApi } from '../../src/api/server';
import { buildConfig, parseEnv } from '../../src/config';
import { createLogger } from '../../src/logging';
import { httpRequests, rateLimitRefusals, setMetricsRecording } from '../../src/metrics/metrics';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, TEST_ENCRYPTION_KEYS, TEST_RANKING_CUSTOMER_KEY, testConfig } from '../helpers/config';

const TOKEN = 'metrics-token-0123456789abcdef';
const client = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
const logger = createLogger('silent', 'test');

/** The value of one series in a text exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

test('answers the text format without an API key, with the HTTP metric of an earlier request by its route template', async () => {
  const app = buildApi(testConfig(), client, logger);
  const before = await request(app).get('/metrics');
  const counted = sample(before.text, 'onramp_http_requests_total', { route: '/api/dict/currencies', status_class: '2xx' }) ?? 0;
  await request(app).get('/api/dict/currencies').set('X-Api-Key', TEST_API_KEY).expect(200);
  await request(app).get('/api/on_ramp/orders/6f1c2d3e-0000-4000-8000-000000000000').expect(401);

  const res = await request(app).get('/metrics').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(res.text).toContain('# TYPE onramp_http_requests_total counter');
  expect(sample(res.text, 'onramp_http_requests_total', { method: 'GET', route: '/api/dict/currencies', status_class: '2xx' })).toBe(
    counted + 1,
  );
  expect(sample(res.text, 'onramp_http_request_duration_seconds_count', { route: '/api/dict/currencies', status_class: '2xx' })).toBe(
    counted + 1,
  );
  // Refused before any route matched: counted under /api/*, never under its URL.
  expect(sample(res.text, 'onramp_http_requests_total', { route: '/api/*', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
  expect(res.text).not.toContain('6f1c2d3e');
  expect(res.text).toContain('process_cpu_seconds_total');
});

test('with METRICS_TOKEN, a scrape without the token or with another is refused; with it, answered', async () => {
  const app = buildApi(testConfig({}, { METRICS_TOKEN: TOKEN }), client, logger);
  const missing = await request(app).get('/metrics').expect(401);
  expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
  await request(app).get('/metrics').set('Authorization', 'Bearer not-the-token-0000000000').expect(401);
  await request(app).get('/metrics').set('X-Api-Key', TEST_API_KEY).expect(401);
  const res = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
  expect(res.text).toContain('onramp_http_requests_total');
});

test('in production the API port serves /metrics only with a token; API_METRICS_PORT moves it off the API', () => {
  const production = {
    NODE_ENV: 'production',
    ONRAMP_API_KEY: 'obk_live_0123456789abcdef',
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
  };
  expect(buildConfig(parseEnv(production)).metrics.onApiPort).toBe(false);
  expect(buildConfig(parseEnv({ ...production, METRICS_TOKEN: TOKEN })).metrics.onApiPort).toBe(true);
  const moved = buildConfig(parseEnv({ ...production, API_METRICS_PORT: '9464' })).metrics;
  expect(moved).toMatchObject({ onApiPort: false, apiPort: 9464, host: '127.0.0.1' });
  expect(buildConfig(parseEnv({ NODE_ENV: 'test' })).metrics.onApiPort).toBe(true);
});

test('in production without a token, GET /metrics on the API port is a 404', async () => {
  const app = buildApi({ ...testConfig(), metrics: { ...testConfig().metrics, onApiPort: false } }, client, logger);
  await request(app).get('/metrics').expect(404);
});

test('metrics settings are validated: a short token, a port clash', () => {
  expect(() => parseEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  expect(() => parseEnv({ PORT: '3000', API_METRICS_PORT: '3000' })).toThrow(/API_METRICS_PORT: must differ from PORT/);
  expect(() => parseEnv({ WORKER_METRICS_PORT: '9464', TEMPORAL_SDK_METRICS_PORT: '9464' })).toThrow(/TEMPORAL_SDK_METRICS_PORT/);
  expect(() => parseEnv({ OPEN_ORDERS_METRICS_INTERVAL_SECONDS: '-1' })).toThrow(/OPEN_ORDERS_METRICS_INTERVAL_SECONDS/);
});

describe('METRICS_ENABLED=false', () => {
  /** Every sample of the HTTP request counter, summed (all routes, methods and statuses). */
  const requestsCounted = async () => (await httpRequests.get()).values.reduce((sum, v) => sum + v.value, 0);
  const limited = async () => (await rateLimitRefusals.get()).values.reduce((sum, v) => sum + v.value, 0);

  afterAll(() => setMetricsRecording(true));

  test('requests record nothing, GET /metrics is a 404, and no metrics port is configured', async () => {
    const config = testConfig({ rateLimit: { limit: 1, windowMs: 60_000 } }, { METRICS_ENABLED: 'false', API_METRICS_PORT: '9464' });
    expect(config.metrics).toMatchObject({ enabled: false, onApiPort: false });
    expect(config.metrics.apiPort).toBeUndefined();
    const app = buildApi(config, client, logger);
    const before = { requests: await requestsCounted(), limited: await limited() };
    await request(app).get('/api/dict/currencies').set('X-Api-Key', TEST_API_KEY).expect(200);
    await request(app).get('/api/dict/currencies').set('X-Api-Key', TEST_API_KEY).expect(429);
    await request(app).get('/api/on_ramp/orders/6f1c2d3e-0000-4000-8000-000000000000').expect(401);
    await request(app).get('/metrics').expect(404);
    expect(await requestsCounted()).toBe(before.requests);
    expect(await limited()).toBe(before.limited);
  });

  test('with it on again (the default), requests are counted and /metrics answers, as before', async () => {
    expect(testConfig({}, { METRICS_ENABLED: 'true' }).metrics.enabled).toBe(true);
    const app = buildApi(testConfig(), client, logger);
    const before = await requestsCounted();
    await request(app).get('/api/dict/currencies').set('X-Api-Key', TEST_API_KEY).expect(200);
    expect(await requestsCounted()).toBe(before + 1);
    await request(app).get('/metrics').expect(200);
  });

  test('the setting is a boolean, and on by default', () => {
    expect(parseEnv({}).METRICS_ENABLED).toBe(true);
    expect(parseEnv({ METRICS_ENABLED: '0' }).METRICS_ENABLED).toBe(false);
    expect(() => parseEnv({ METRICS_ENABLED: 'sometimes' })).toThrow(/METRICS_ENABLED/);
  });
});
