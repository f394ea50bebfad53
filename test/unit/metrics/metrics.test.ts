/**
 * The metrics module: every metric's name follows Prometheus's conventions, the separate metrics
 * server answers only /metrics and only with its token, the integrator webhook backlog gauge, and
 * the switch that turns recording off (METRICS_ENABLED=false).
 */
import { metricsAuthorized } from '../../../src/metrics/access';
import {
  integratorWebhookOldestUndelivered,
  metricsRecording,
  offerOutcomes,
  offerProviderSlow,
  offerQuoteDuration,
  setMetricsRecording,
  statusClass,
} from '../../../src/metrics/metrics';
import { metricsText, registry } from '../../../src/metrics/registry';
import { startMetricsServer } from '../../../src/metrics/server';
import { WebhookBacklog } from '../../../src/metrics/webhook-backlog';

test('every broker metric is onramp_-prefixed, counters end in _total, durations in _seconds, and each has help', async () => {
  const metrics = (await registry.getMetricsAsJSON()).filter((m) => m.name.startsWith('onramp_'));
  expect(metrics.length).toBeGreaterThanOrEqual(25);
  for (const metric of metrics) {
    expect(metric.name).toMatch(/^onramp_[a-z0-9_]+$/);
    expect(metric.help.length).toBeGreaterThan(10);
    if (String(metric.type) === 'counter') expect(metric.name).toMatch(/_total$/);
    else expect(metric.name).not.toMatch(/_total$/);
    if (/duration|latency/.test(metric.name)) expect(metric.name).toMatch(/_seconds$/);
    // Labels a caller could choose freely (ids, URLs) are never metric labels.
    const labels = (metric as unknown as { values: { labels: Record<string, unknown> }[] }).values.flatMap((v) => Object.keys(v.labels));
    for (const label of labels) expect(['id', 'url', 'path', 'order_id', 'user', 'webhook_id']).not.toContain(label);
  }
});

test('statusClass: the hundreds of a status', () => {
  expect([200, 204, 301, 404, 429, 500, 503].map(statusClass)).toEqual(['2xx', '2xx', '3xx', '4xx', '4xx', '5xx', '5xx']);
});

test('metricsAuthorized: open without a token; with one, only the same bearer token', () => {
  expect(metricsAuthorized(undefined, undefined)).toBe(true);
  expect(metricsAuthorized(undefined, 'secret-token-0123456789')).toBe(false);
  expect(metricsAuthorized('Bearer secret-token-0123456789', 'secret-token-0123456789')).toBe(true);
  expect(metricsAuthorized('bearer secret-token-0123456789', 'secret-token-0123456789')).toBe(true);
  expect(metricsAuthorized('Bearer secret-token-012345678', 'secret-token-0123456789')).toBe(false);
  expect(metricsAuthorized('Basic c2VjcmV0', 'secret-token-0123456789')).toBe(false);
});

describe('the metrics server', () => {
  test('serves /metrics with its token, refuses without it, and nothing else', async () => {
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, token: 'secret-token-0123456789' });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const refused = await fetch(`${server.url}/metrics`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      const ok = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer secret-token-0123456789' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await ok.text()).toContain('# TYPE onramp_provider_requests_total counter');
      expect((await fetch(`${server.url}/other`)).status).toBe(404);
      expect((await fetch(`${server.url}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});

describe('WebhookBacklog', () => {
  test('the oldest failing webhook per integrator, until it settles or its next attempt is long overdue', () => {
    let now = 10_000_000;
    const backlog = new WebhookBacklog(() => now, 60_000);
    backlog.failed('evt_a_1', 'acme', now - 3_600_000, now + 300_000);
    backlog.failed('evt_b_1', 'acme', now - 60_000, now + 5_000);
    backlog.failed('evt_c_1', 'zeta', now - 10_000, now + 5_000);
    expect(backlog.oldestAges()).toEqual(
      new Map([
        ['acme', 3600],
        ['zeta', 10],
      ]),
    );
    backlog.settled('evt_a_1');
    expect(backlog.oldestAges().get('acme')).toBe(60);
    // The next attempt of evt_b_1 and evt_c_1 was due 5 s after; a minute past that they are forgotten
    // (another worker may have delivered them).
    now += 5_000 + 60_001;
    expect(backlog.oldestAges()).toEqual(new Map());
  });

  test('update sets the gauge; an integrator whose backlog cleared reads 0', async () => {
    let now = 50_000_000;
    const backlog = new WebhookBacklog(() => now);
    backlog.failed('evt_x_1', 'gauge-test', now - 7_200_000, now + 60_000);
    backlog.update();
    const read = async () =>
      (await integratorWebhookOldestUndelivered.get()).values.find((v) => v.labels.integrator === 'gauge-test')?.value;
    expect(await read()).toBe(7200);
    backlog.settled('evt_x_1');
    now += 1000;
    backlog.update();
    expect(await read()).toBe(0);
  });
});

test('metricsText: the registry in the text format with its content type', async () => {
  const { contentType, body } = await metricsText();
  expect(contentType).toMatch(/^text\/plain/);
  expect(body).toContain('# HELP onramp_orders_created_total');
});

describe('setMetricsRecording (METRICS_ENABLED)', () => {
  afterEach(() => setMetricsRecording(true));

  test('off, no metric records (counters, histograms, gauges); on again, they record as before', async () => {
    const total = async () => (await offerOutcomes.get()).values.find((v) => v.labels.provider === 'switch-test')?.value ?? 0;
    const count = async () =>
      (await offerQuoteDuration.get()).values.find((v) => v.labels.provider === 'switch-test' && v.metricName?.endsWith('_count'))?.value ??
      0;
    const slow = async () => (await offerProviderSlow.get()).values.find((v) => v.labels.provider === 'switch-test')?.value;
    const record = () => {
      offerOutcomes.inc({ provider: 'switch-test', reason: 'ok' });
      offerQuoteDuration.observe({ provider: 'switch-test' }, 0.1);
      offerProviderSlow.set({ provider: 'switch-test' }, 1);
      offerQuoteDuration.startTimer({ provider: 'switch-test' })();
    };

    expect(metricsRecording()).toBe(true);
    setMetricsRecording(false);
    expect(metricsRecording()).toBe(false);
    record();
    expect(await total()).toBe(0);
    expect(await count()).toBe(0);
    expect(await slow()).toBeUndefined();

    setMetricsRecording(true);
    record();
    expect(await total()).toBe(1);
    expect(await count()).toBe(2);
    expect(await slow()).toBe(1);
  });
});
