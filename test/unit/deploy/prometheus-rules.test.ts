/**
 * The alert rules under deploy/prometheus: valid for Prometheus (`promtool check rules`), each
 * alert's unit tests pass (`promtool test rules`: series that must fire it and series that must
 * not), every rule names only metrics the broker or the Temporal SDK exports, and every alert has
 * its runbook paragraph in docs/operations.md.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import '../../../src/metrics/webhook-backlog';
import { registry } from '../../../src/metrics/registry';
import { promtoolPath } from '../../helpers/prometheus';

const root = join(__dirname, '..', '..', '..');
const RULES = join(root, 'deploy/prometheus/onramp.rules.yml');
const TESTS = join(root, 'deploy/prometheus/tests/onramp.rules.test.yml');

function promtool(...args: string[]): string {
  try {
    return execFileSync(promtoolPath(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

const rules = readFileSync(RULES, 'utf8');
const alerts = [...rules.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]!);

test('promtool check rules: the rules file is valid', () => {
  expect(promtool('check', 'rules', RULES)).toContain(`SUCCESS: ${alerts.length} rules found`);
});

test('promtool test rules: every alert fires on its series and stays quiet on the others', () => {
  expect(promtool('test', 'rules', TESTS)).toContain('SUCCESS');
});

test('every alert has a unit test', () => {
  const tested = new Set([...readFileSync(TESTS, 'utf8').matchAll(/alertname: (\w+)/g)].map((m) => m[1]));
  expect(alerts.filter((alert) => !tested.has(alert))).toEqual([]);
});

test('the rules name only metrics the broker exports (and the Temporal SDK exporter)', async () => {
  const exported = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
  const named = new Set([...rules.matchAll(/\b(onramp_[a-z0-9_]+)/g)].map((m) => m[1]!.replace(/_(bucket|count|sum)$/, '')));
  expect([...named].filter((name) => !exported.has(name))).toEqual([]);
  expect(rules).toMatch(/temporal_num_pollers\{poller_type="workflow_task"\}/);
});

test('every alert has a runbook paragraph in docs/operations.md, which its runbook_url names', () => {
  const operations = readFileSync(join(root, 'docs/operations.md'), 'utf8');
  for (const alert of alerts) {
    expect(operations).toContain(`#### ${alert}`);
    expect(rules).toContain(`runbook_url: 'docs/operations.md#${alert.toLowerCase()}'`);
  }
});
