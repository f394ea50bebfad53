/**
 * The Grafana dashboard under deploy/grafana: a dashboard Grafana can load (rows and panels with
 * unique ids, each panel's targets on the provisioned Prometheus datasource), one row each for
 * offers, orders, providers, integrator webhooks, Temporal, and ranking and provider health, every query valid PromQL (promtool
 * checks them as recording rules), and naming only metrics the broker exports or the Temporal
 * SDK's `temporal_*` series.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import '../../../src/metrics/webhook-backlog';
import { registry } from '../../../src/metrics/registry';
import { promtoolPath } from '../../helpers/prometheus';

const root = join(__dirname, '..', '..', '..');
const dashboard = JSON.parse(readFileSync(join(root, 'deploy/grafana/onramp.dashboard.json'), 'utf8'));
const datasources = parse(readFileSync(join(root, 'deploy/grafana/provisioning/datasources/prometheus.yml'), 'utf8'));
const provider = parse(readFileSync(join(root, 'deploy/grafana/provisioning/dashboards/onramp.yml'), 'utf8'));

const panels: any[] = dashboard.panels;
const graphs = panels.filter((p) => p.type !== 'row');
const targets: { panel: string; expr: string }[] = graphs.flatMap((p) => p.targets.map((t: any) => ({ panel: p.title, expr: t.expr })));

test('a Grafana dashboard: uid, title, panels with unique ids and positions, targets with expressions', () => {
  expect(dashboard).toMatchObject({ uid: expect.any(String), title: expect.any(String), schemaVersion: expect.any(Number) });
  const ids = panels.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const panel of panels)
    expect(panel.gridPos).toMatchObject({ h: expect.any(Number), w: expect.any(Number), x: expect.any(Number), y: expect.any(Number) });
  for (const panel of graphs) {
    expect(panel.targets.length).toBeGreaterThan(0);
    const refIds = panel.targets.map((t: any) => t.refId);
    expect(new Set(refIds).size).toBe(refIds.length);
    for (const target of panel.targets) expect(target.expr).toEqual(expect.any(String));
  }
});

test('one row each for offers, orders, providers, integrator webhooks, Temporal, and ranking and provider health', () => {
  expect(panels.filter((p) => p.type === 'row').map((p) => p.title)).toEqual([
    'Offers',
    'Orders',
    'Providers',
    'Integrator webhooks',
    'Temporal',
    'Ranking and provider health',
  ]);
});

test('every panel and target queries the provisioned Prometheus datasource, which points at the compose Prometheus', () => {
  const [source] = datasources.datasources;
  expect(source).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090' });
  for (const panel of graphs) {
    expect(panel.datasource).toEqual({ type: 'prometheus', uid: source.uid });
    for (const target of panel.targets) expect(target.datasource).toEqual({ type: 'prometheus', uid: source.uid });
  }
  expect(provider.providers[0]).toMatchObject({ type: 'file', options: { path: expect.any(String) } });
});

test('promtool: every query is valid PromQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'onramp-dashboard-'));
  try {
    const rules = targets.map((t, i) => `      - record: onramp:dashboard_query_${i}\n        expr: ${JSON.stringify(t.expr)}`);
    const file = join(dir, 'dashboard.rules.yml');
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
    let out: string;
    try {
      out = execFileSync(promtoolPath(), ['check', 'rules', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      const { stdout, stderr } = err as { stdout?: string; stderr?: string };
      throw new Error(`promtool check rules failed:\n${stdout ?? ''}${stderr ?? ''}`);
    }
    expect(out).toContain(`SUCCESS: ${targets.length} rules found`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the queries name only metrics the broker exports, or the Temporal SDK exporter', async () => {
  const exported = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
  const named = new Set(targets.flatMap((t) => [...t.expr.matchAll(/\b((?:onramp|temporal)_[a-z0-9_]+)/g)].map((m) => m[1]!)));
  const broker = [...named].filter((n) => n.startsWith('onramp_')).map((n) => n.replace(/_(bucket|count|sum)$/, ''));
  expect(broker.filter((name) => !exported.has(name))).toEqual([]);
  // The SDK's exporter, with the worker's settings (src/worker/telemetry.ts): a counter ends in _total, a duration in _seconds.
  const sdk = [...named].filter((n) => n.startsWith('temporal_'));
  expect(sdk.length).toBeGreaterThan(0);
  for (const name of sdk) expect(name).toMatch(/^temporal_[a-z_]+$/);
  expect(sdk).toEqual(expect.arrayContaining(['temporal_num_pollers', 'temporal_worker_task_slots_available']));
});
