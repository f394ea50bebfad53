/**
 * docker-compose.yml and `npm run cluster` describe one production topology. deploy/stack.json holds
 * its versions and settings; the cluster reads it, and this test fails when the compose file drifts
 * from it or from the cluster: the same services, the same versions, the same environment variables.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { apiEnv, brokerEnv, clusterProcessNames, loadBalancerEnv, simulatorEnv, workerEnv } from '../../../scripts/cluster/cluster';
import { prometheusConfig, SCRAPE_JOBS } from '../../../scripts/cluster/prometheus';
import { clusterPorts, readStack } from '../../../scripts/cluster/stack';
import { temporalServerConfig } from '../../../scripts/cluster/temporal';
import { TEMPORAL_DYNAMIC_CONFIG_FILE, temporalDynamicConfig } from '../../../scripts/lib/temporal-dynamic-config';
import { ORDER_SEARCH_ATTRIBUTES } from '../../../src/temporal/order-contract';

const root = join(__dirname, '..', '..', '..');
interface ComposeService {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | number>;
  volumes?: string[];
  ports?: string[];
}
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const stack = readStack();
const ports = clusterPorts(stack);
const services = compose.services;
const service = (name: string): ComposeService => {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no ${name} service`);
  return found;
};
const names = (env: Record<string, unknown> | undefined) => Object.keys(env ?? {}).sort();

describe('docker-compose.yml and npm run cluster', () => {
  test('run the same long-running services (compose adds the one-shot temporal-setup, and Grafana, which Debian does not package)', () => {
    const composeServices = Object.keys(services).filter((name) => name !== 'temporal-setup' && name !== 'grafana');
    expect(composeServices.sort()).toEqual([...clusterProcessNames(stack.replicas.api, stack.replicas.worker)].sort());
  });

  test("run the versions of deploy/stack.json (the compose images' tags; the cluster builds and installs these)", () => {
    const { versions } = stack;
    expect(service('postgresql').image).toBe(`postgres:${versions.postgresql}`);
    expect(service('temporal').image).toBe(`temporalio/auto-setup:${versions.temporal}`);
    expect(service('temporal-setup').image).toBe(`temporalio/admin-tools:${versions.temporalAdminTools}`);
    expect(versions.temporalAdminTools.startsWith(`${versions.temporal}-`)).toBe(true);
    expect(service('temporal-ui').image).toBe(`temporalio/ui:${versions.temporalUi}`);
    expect(service('redis').image).toBe(`redis:${versions.redis}`);
    expect(service('load-balancer').image).toBe(`haproxy:${versions.haproxy}`);
    expect(service('prometheus').image).toMatch(new RegExp(`^prom/prometheus:v${versions.prometheus.replace('.', '\\.')}\\.\\d+$`));
    expect(service('grafana').image).toBe(`grafana/grafana:${versions.grafana}`);
  });

  test('configure Temporal alike: namespace, retention, history shards, database credentials, advanced visibility', () => {
    const env = service('temporal').environment ?? {};
    const { temporal } = stack;
    expect(env).toMatchObject({
      DB: 'postgres12',
      DEFAULT_NAMESPACE: temporal.namespace,
      DEFAULT_NAMESPACE_RETENTION: `${temporal.retentionHours}h`,
      NUM_HISTORY_SHARDS: temporal.historyShards,
      POSTGRES_USER: temporal.user,
      POSTGRES_PWD: temporal.demoPassword,
    });
    const config = temporalServerConfig(stack, ports, '/dynamic.yaml', 'password');
    expect(config).toContain(`numHistoryShards: ${temporal.historyShards}`);
    expect(config).toContain('pluginName: postgres12');
    expect(config).toContain(`databaseName: ${temporal.visibilityDatabase}`);
  });

  test('give Temporal the same dynamic configuration file (eager activity dispatch among it)', () => {
    const env = service('temporal').environment ?? {};
    const target = String(env.DYNAMIC_CONFIG_FILE_PATH);
    expect(service('temporal').volumes).toContain(`./deploy/temporal/dynamicconfig.yaml:${target}:ro`);
    expect(relative(root, TEMPORAL_DYNAMIC_CONFIG_FILE)).toBe(join('deploy', 'temporal', 'dynamicconfig.yaml'));
    expect(temporalDynamicConfig()).toMatchObject({
      'system.enableActivityEagerExecution': true,
      'frontend.enableExecuteMultiOperation': true,
    });
  });

  test("register the broker's search attributes", () => {
    const script = JSON.stringify(service('temporal-setup').command);
    for (const { name } of ORDER_SEARCH_ATTRIBUTES) expect(script).toContain(name);
  });

  test('give the API processes and the workers the same environment variables', () => {
    const secrets = { SIMULATOR_SECRET: 's', ENCRYPTION_KEYS: 'k', RANKING_CUSTOMER_KEY: 'c', POSTGRES_PASSWORD: 'p', REDIS_PASSWORD: 'r' };
    const broker = brokerEnv(stack, ports, secrets, '/config/integrators.json');
    const api = { ...broker, ...apiEnv(ports, 0) };
    for (let i = 1; i <= stack.replicas.api; i++) {
      const env = service(`api-${i}`).environment;
      expect(names(env)).toEqual(names(api));
      expect(env).toMatchObject(stack.brokerEnv);
    }
    for (let i = 1; i <= stack.replicas.worker; i++) {
      const env = service(`worker-${i}`).environment;
      const cluster = workerEnv(ports, i - 1);
      expect(names(env)).toEqual(names({ ...broker, ...cluster }));
      expect(env).toMatchObject(stack.brokerEnv);
      // One worker counts the open orders, in both.
      expect(String(env?.OPEN_ORDERS_METRICS_INTERVAL_SECONDS)).toBe(cluster.OPEN_ORDERS_METRICS_INTERVAL_SECONDS);
    }
    expect(service('api-1').command).toEqual(service('api-2').command);
  });

  test('run the simulators and the load balancer alike, HAProxy on the shared deploy/haproxy configuration', () => {
    expect(names(service('simulators').environment)).toEqual(names(simulatorEnv(ports, 's')));
    const lb = service('load-balancer');
    expect(names(lb.environment)).toEqual(names(loadBalancerEnv(ports, stack.replicas.api)));
    expect(lb.volumes).toContain('./deploy/haproxy:/etc/onramp:ro');
    expect(lb.command).toEqual(['haproxy', '-f', '/etc/onramp/haproxy.cfg', '-db']);
    // Integrators reach the API through the load balancer only.
    expect(lb.ports).toEqual([`127.0.0.1:${stack.ports.loadBalancer}:3000`]);
    for (let i = 1; i <= stack.replicas.api; i++) expect(service(`api-${i}`).ports).toBeUndefined();
  });

  test("the load balancer's error answer is the API's service_unavailable problem, with Retry-After", () => {
    const raw = readFileSync(join(root, 'deploy', 'haproxy', '503.http'), 'utf8');
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
    expect(head).toMatch(/^Content-Type: application\/problem\+json$/m);
    expect(head).toMatch(/^Retry-After: \d+$/m);
    expect(JSON.parse(body)).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      type: 'urn:onramp-broker:problem:service_unavailable',
    });
  });

  test('scrape the same jobs with the same alert rules, one target per process', () => {
    const composeConfig = parse(readFileSync(join(root, 'deploy', 'prometheus', 'prometheus.yml'), 'utf8')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const clusterConfig = parse(
      prometheusConfig(
        { 'onramp-api': ['a:1', 'a:2'], 'onramp-worker': ['w:1', 'w:2'], 'temporal-sdk': ['w:3', 'w:4'], 'temporal-server': ['t:1'] },
        '/repo/deploy/prometheus/onramp.rules.yml',
        stack.prometheus.scrapeIntervalSeconds,
      ),
    ) as typeof composeConfig;
    for (const config of [composeConfig, clusterConfig]) {
      expect(config.scrape_configs.map((job) => job.job_name)).toEqual([...SCRAPE_JOBS]);
      expect(config.rule_files.map((file) => file.split('/').pop())).toEqual(['onramp.rules.yml']);
    }
    const targets = (job: string) => composeConfig.scrape_configs.find((j) => j.job_name === job)!.static_configs[0]!.targets;
    expect(targets('onramp-api')).toHaveLength(stack.replicas.api);
    expect(targets('onramp-worker')).toHaveLength(stack.replicas.worker);
    expect(targets('temporal-sdk')).toHaveLength(stack.replicas.worker);
    expect(service('prometheus').volumes).toContain('./deploy/prometheus/onramp.rules.yml:/etc/prometheus/onramp.rules.yml:ro');
  });
});
