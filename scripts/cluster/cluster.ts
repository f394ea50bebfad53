import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { initPostgres, postgresProcess, postgresRunAs } from './postgresql';
import { prometheusConfig, writePrometheusConfig } from './prometheus';
import { clusterPorts, readStack, type Stack, type StackPorts } from './stack';
import { killLeftovers, SupervisedProcess, type ProcessSpec } from './supervisor';
import { setUpNamespace, setUpTemporalSchemas, temporalAnswers, writeTemporalConfigs } from './temporal';
import type { Cluster, ClusterAddresses, ClusterProcessInfo, ClusterProcessName, StartClusterOptions } from './types';

export type { Cluster, ClusterAddresses, ClusterProcessInfo, ClusterProcessName, StartClusterOptions } from './types';

const REPO = resolve(__dirname, '..', '..');
const DIST = join(REPO, 'dist', 'src');

/** The path an ensure script prints (it installs or builds the part when missing). */
function ensure(script: string): string {
  return execFileSync('bash', [join(REPO, 'scripts', script)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/**
 * The installed PostgreSQL, HAProxy and Redis against deploy/stack.json's versions (what compose pins):
 * another Debian release may ship others, which the cluster still runs, with a warning.
 */
function checkVersions(
  stack: Stack,
  binaries: { postgres: string; haproxy: string; redis: string; prometheus: string },
  say: (line: string) => void,
): void {
  const installed = (command: string, flag: string, pattern: RegExp) =>
    pattern.exec(execFileSync(command, [flag], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  const found = {
    postgresql: installed(binaries.postgres, '--version', /\(PostgreSQL\) (\d+)/),
    haproxy: installed(binaries.haproxy, '-v', /version (\d+\.\d+)/),
    redis: installed(binaries.redis, '--version', /v=(\d+)/),
    prometheus: installed(binaries.prometheus, '--version', /version (\d+\.\d+)/),
  };
  for (const [name, version] of Object.entries(found)) {
    const wanted = stack.versions[name as keyof typeof found];
    if (version !== wanted) say(`warning: ${name} ${version} is installed; deploy/stack.json and docker-compose.yml use ${wanted}`);
  }
}

/** Secrets of this cluster, made once and kept with its data (0600): the payload keys must outlive restarts. */
export interface ClusterSecrets {
  SIMULATOR_SECRET: string;
  ENCRYPTION_KEYS: string;
  /** The returning-customer HMAC key (RANKING_CUSTOMER_KEY). */
  RANKING_CUSTOMER_KEY: string;
  /** PostgreSQL's superuser (Temporal's user) and Redis: private to this cluster, never the demo's public ones. */
  POSTGRES_PASSWORD: string;
  REDIS_PASSWORD: string;
}

function clusterSecrets(dataDir: string): ClusterSecrets {
  const file = join(dataDir, 'secrets.json');
  if (!existsSync(file)) {
    const secrets: ClusterSecrets = {
      SIMULATOR_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      RANKING_CUSTOMER_KEY: randomBytes(32).toString('hex'),
      POSTGRES_PASSWORD: randomBytes(24).toString('hex'),
      REDIS_PASSWORD: randomBytes(24).toString('hex'),
    };
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  const secrets = JSON.parse(readFileSync(file, 'utf8')) as ClusterSecrets;
  // A cluster made before returning customers had no key for them: given one, kept from now on.
  if (!secrets.RANKING_CUSTOMER_KEY) {
    secrets.RANKING_CUSTOMER_KEY = randomBytes(32).toString('hex');
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}

async function httpOk(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1500) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

function redisAnswers(port: number, password: string): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write(`AUTH ${password}\r\nPING\r\n`));
    socket.on('data', (data) => {
      answer += data.toString();
      if (answer.includes('\r\n+PONG') || answer.startsWith('-')) finish(answer.startsWith('+OK\r\n+PONG'));
    });
  });
}

export function clusterAddresses(ports: StackPorts, apis: number): ClusterAddresses {
  return {
    api: `http://127.0.0.1:${ports.loadBalancer}`,
    apis: Array.from({ length: apis }, (_, i) => `http://127.0.0.1:${ports.apiFirst + i}`),
    simulators: `http://127.0.0.1:${ports.simulators}`,
    temporal: `127.0.0.1:${ports.temporalFrontend}`,
    ui: `http://127.0.0.1:${ports.temporalUi}`,
    redis: `redis://127.0.0.1:${ports.redis}`,
    postgresql: `postgresql://127.0.0.1:${ports.postgresql}`,
    prometheus: `http://127.0.0.1:${ports.prometheus}`,
  };
}

/** The environment of the broker's API and worker processes (the compose file's x-broker-env, on loopback). */
export function brokerEnv(
  stack: Stack,
  ports: StackPorts,
  secrets: ClusterSecrets,
  integratorsFile: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...stack.brokerEnv,
    TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporalFrontend}`,
    REDIS_URL: `redis://:${secrets.REDIS_PASSWORD}@127.0.0.1:${ports.redis}`,
    ONRAMP_INTEGRATORS_FILE: integratorsFile,
    PUBLIC_BASE_URL: `http://localhost:${ports.loadBalancer}`,
    SANDBOX_URL: `http://127.0.0.1:${ports.simulators}`,
    SANDBOX_PUBLIC_URL: `http://localhost:${ports.simulators}`,
    // Each process serves its metrics on a port of its own for Prometheus (not on the API's port).
    METRICS_HOST: '127.0.0.1',
    SIMULATOR_SECRET: secrets.SIMULATOR_SECRET,
    ENCRYPTION_KEYS: secrets.ENCRYPTION_KEYS,
    RANKING_CUSTOMER_KEY: secrets.RANKING_CUSTOMER_KEY,
    ...extra,
  };
}

/** The API process's own settings, on top of the broker's: where it listens and serves its metrics, and its one proxy. */
export function apiEnv(ports: StackPorts, index: number): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: String(ports.apiFirst + index),
    API_METRICS_PORT: String(ports.apiMetricsFirst + index),
    TRUST_PROXY: 'loopback',
  };
}

/** A worker's own settings: its metrics ports; the first worker alone counts the open orders. */
export function workerEnv(ports: StackPorts, index: number): Record<string, string> {
  return {
    WORKER_METRICS_PORT: String(ports.workerMetricsFirst + index),
    TEMPORAL_SDK_METRICS_PORT: String(ports.temporalSdkMetricsFirst + index),
    OPEN_ORDERS_METRICS_INTERVAL_SECONDS: index === 0 ? '60' : '0',
  };
}

/** The simulator host's environment (the compose file's `simulators` service, on loopback). */
export function simulatorEnv(ports: StackPorts, simulatorSecret: string): Record<string, string> {
  return {
    SIMULATOR_HOST: '127.0.0.1',
    SIMULATOR_PORT: String(ports.simulators),
    SIMULATOR_PUBLIC_URL: `http://localhost:${ports.simulators}`,
    BROKER_URL: `http://127.0.0.1:${ports.loadBalancer}`,
    SIMULATOR_SECRET: simulatorSecret,
  };
}

/** What deploy/haproxy/haproxy.cfg reads from its environment. */
export function loadBalancerEnv(ports: StackPorts, apis: number): Record<string, string> {
  return {
    LB_BIND: `127.0.0.1:${ports.loadBalancer}`,
    ERRORS_DIR: join(REPO, 'deploy', 'haproxy'),
    LB_MAXCONN: '4096',
    // Every client of the local cluster (the fault run, the bench, the simulators' webhooks) comes
    // from 127.0.0.1: one address, which the per-address limits must not throttle here.
    LB_SOURCE_MAX_CONN: '4096',
    LB_SOURCE_CONN_RATE: '1000000',
    ...Object.fromEntries(Array.from({ length: apis }, (_, i) => [`API_${i + 1}`, `127.0.0.1:${ports.apiFirst + i}`])),
  };
}

/** The names of the cluster's processes, in start order. */
export function clusterProcessNames(apis: number, workers: number): ClusterProcessName[] {
  return [
    'postgresql',
    'temporal',
    'temporal-ui',
    'redis',
    'simulators',
    ...Array.from({ length: apis }, (_, i) => `api-${i + 1}` as const),
    'load-balancer',
    ...Array.from({ length: workers }, (_, i) => `worker-${i + 1}` as const),
    'prometheus',
  ];
}

/** A process of the cluster, and what to set up in it once it is first ready (schemas, namespace). */
type ClusterProcessSpec = ProcessSpec & { setUp?: () => Promise<void> };

/** Everything the cluster runs, in start order. */
function processSpecs(
  stack: Stack,
  ports: StackPorts,
  options: Required<Pick<StartClusterOptions, 'apis' | 'workers' | 'dataDir'>> & StartClusterOptions,
  tools: { say: (line: string) => void; admin: () => Promise<Connection>; pidOf: (name: string) => number | undefined },
): ClusterProcessSpec[] {
  const { say, admin, pidOf } = tools;
  const { dataDir } = options;
  const kit = ensure('ensure-temporal-server.sh');
  const pgBin = ensure('ensure-postgresql.sh');
  const haproxy = ensure('ensure-haproxy.sh');
  const redis = ensure('ensure-redis-server.sh');
  const prometheus = ensure('ensure-prometheus.sh');
  checkVersions(stack, { postgres: join(pgBin, 'postgres'), haproxy, redis, prometheus }, say);
  const secrets = clusterSecrets(dataDir);
  const integratorsFile = resolve(options.integratorsFile ?? join(REPO, 'deploy', 'integrators.example.json'));
  const runAs = postgresRunAs(say);
  const pgData = join(dataDir, 'postgresql');
  initPostgres({ binDir: pgBin, dataDir: pgData, user: stack.temporal.user, password: secrets.POSTGRES_PASSWORD, runAs, say });
  const roots = writeTemporalConfigs(dataDir, stack, ports, secrets.POSTGRES_PASSWORD);
  const redisConfig = join(dataDir, 'redis.conf');
  // A cache and the offers store: nothing persisted, as in docker-compose.yml; the password in a file, not on the command line.
  writeFileSync(redisConfig, `bind 127.0.0.1\nport ${ports.redis}\nsave ""\nappendonly no\nrequirepass ${secrets.REDIS_PASSWORD}\n`, {
    mode: 0o600,
  });
  const env = brokerEnv(stack, ports, secrets, integratorsFile, options.brokerEnv);
  const temporalAddress = `127.0.0.1:${ports.temporalFrontend}`;

  const specs: ClusterProcessSpec[] = [
    {
      name: 'postgresql',
      ...postgresProcess({ binDir: pgBin, dataDir: pgData, port: ports.postgresql, runAs }),
      setUp: () => setUpTemporalSchemas(kit, stack, ports, secrets.POSTGRES_PASSWORD),
    },
    {
      name: 'temporal',
      command: join(kit, 'bin', 'temporal-server'),
      args: ['--root', roots.server, '--config', 'config', '--env', 'cluster', '--allow-no-auth', 'start'],
      probe: () => temporalAnswers(temporalAddress),
      setUp: () => setUpNamespace(temporalAddress, stack, say),
    },
    {
      name: 'temporal-ui',
      command: join(kit, 'bin', 'temporal-ui-server'),
      args: ['--root', roots.ui, '--config', 'config', '--env', 'cluster', 'start'],
      probe: () => httpOk(`http://127.0.0.1:${ports.temporalUi}/`),
    },
    {
      name: 'redis',
      command: redis,
      args: [redisConfig],
      probe: () => redisAnswers(ports.redis, secrets.REDIS_PASSWORD),
    },
    {
      name: 'simulators',
      command: process.execPath,
      args: [join(DIST, 'simulators', 'main.js')],
      env: simulatorEnv(ports, secrets.SIMULATOR_SECRET),
      probe: () => httpOk(`http://127.0.0.1:${ports.simulators}/sandbox/_simulator/faults`),
    },
  ];
  for (let i = 0; i < options.apis; i++) {
    specs.push({
      name: `api-${i + 1}`,
      command: process.execPath,
      args: ['--max-semi-space-size=32', '--no-allocation-site-pretenuring', '--heap-growing-percent=20', join(DIST, 'api', 'main.js')],
      env: { ...env, ...apiEnv(ports, i) },
      probe: () => httpOk(`http://127.0.0.1:${ports.apiFirst + i}/readyz`),
    });
  }
  specs.push({
    name: 'load-balancer',
    command: haproxy,
    args: ['-f', join(REPO, 'deploy', 'haproxy', 'haproxy.cfg'), '-db'],
    env: loadBalancerEnv(ports, options.apis),
    probe: () => httpOk(`http://127.0.0.1:${ports.loadBalancer}/healthz`),
  });
  for (let i = 0; i < options.workers; i++) {
    const name = `worker-${i + 1}`;
    specs.push({
      name,
      command: process.execPath,
      args: [join(DIST, 'worker', 'main.js')],
      env: { ...env, ...workerEnv(ports, i) },
      // Ready once Temporal lists this process among the task queue's pollers.
      probe: async () => {
        const pid = pidOf(name);
        if (pid === undefined) return false;
        const { pollers } = await (
          await admin()
        ).workflowService.describeTaskQueue({
          namespace: stack.temporal.namespace,
          taskQueue: { name: stack.temporal.taskQueue },
          taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        });
        return (pollers ?? []).some((p) => p.identity?.startsWith(`${pid}@`));
      },
    });
  }
  const loopback = (first: number, count: number) => Array.from({ length: count }, (_, i) => `127.0.0.1:${first + i}`);
  const prometheusFile = writePrometheusConfig(
    join(dataDir, 'prometheus'),
    prometheusConfig(
      {
        'onramp-api': loopback(ports.apiMetricsFirst, options.apis),
        'onramp-worker': loopback(ports.workerMetricsFirst, options.workers),
        'temporal-sdk': loopback(ports.temporalSdkMetricsFirst, options.workers),
        'temporal-server': loopback(ports.temporalMetrics, 1),
      },
      join(REPO, 'deploy', 'prometheus', 'onramp.rules.yml'),
      stack.prometheus.scrapeIntervalSeconds,
    ),
  );
  specs.push({
    name: 'prometheus',
    command: prometheus,
    args: [
      `--config.file=${prometheusFile}`,
      `--storage.tsdb.path=${join(dataDir, 'prometheus', 'data')}`,
      `--storage.tsdb.retention.time=${stack.prometheus.retentionDays}d`,
      `--web.listen-address=127.0.0.1:${ports.prometheus}`,
    ],
    probe: () => httpOk(`http://127.0.0.1:${ports.prometheus}/-/ready`),
  });
  return specs;
}

/**
 * Starts the production topology of docker-compose.yml on this machine from real parts: PostgreSQL,
 * the Temporal server and Web UI, Redis, the provider simulators, the API processes behind HAProxy
 * and the workers; every process supervised and restarted when it dies. A second start on the same
 * data directory reuses its databases and secrets.
 */
export async function startCluster(options: StartClusterOptions): Promise<Cluster> {
  const say = options.log ?? ((line: string) => process.stdout.write(`[cluster] ${line}\n`));
  const dataDir = resolve(options.dataDir);
  const stack = readStack();
  const apis = options.apis ?? stack.replicas.api;
  const workers = options.workers ?? stack.replicas.worker;
  for (const entry of ['api/main.js', 'worker/main.js', 'simulators/main.js'])
    if (!existsSync(join(DIST, entry))) throw new Error(`dist/src/${entry} is missing: run npm run build first`);
  mkdirSync(dataDir, { recursive: true });
  const ports = clusterPorts(stack, options.portOffset ?? 0);
  const dirs = { logDir: join(dataDir, 'logs'), runDir: join(dataDir, 'run') };
  killLeftovers(dirs.runDir, say);

  let adminConnection: Connection | undefined;
  const admin = async () => (adminConnection ??= await Connection.connect({ address: `127.0.0.1:${ports.temporalFrontend}` }));
  const processes = new Map<string, SupervisedProcess>();
  const setUps = new Map<SupervisedProcess, () => Promise<void>>();
  const pidOf = (name: string) => processes.get(name)?.pid;
  for (const { setUp, ...spec } of processSpecs(stack, ports, { ...options, dataDir, apis, workers }, { say, admin, pidOf })) {
    const proc = new SupervisedProcess(spec, dirs, say);
    processes.set(spec.name, proc);
    if (setUp) setUps.set(proc, setUp);
  }
  const get = (name: ClusterProcessName) => {
    const found = processes.get(name);
    if (!found) throw new Error(`no process named ${name} in this cluster`);
    return found;
  };
  const started: SupervisedProcess[] = [];
  const stopAll = async () => {
    for (const proc of started) proc.release();
    for (const proc of started.reverse()) await proc.close();
    await adminConnection?.close();
  };

  try {
    for (const proc of processes.values()) {
      const t0 = Date.now();
      started.push(proc);
      await proc.start(proc.spec.name === 'temporal' ? 180_000 : 120_000);
      say(`${proc.spec.name} ready in ${((Date.now() - t0) / 1000).toFixed(1)}s (pid ${proc.pid})`);
      await setUps.get(proc)?.();
    }
  } catch (err) {
    say(`start failed: ${(err as Error).message}; logs in ${dirs.logDir}`);
    await stopAll();
    throw err;
  }

  return {
    addresses: clusterAddresses(ports, apis),
    processes: (): ClusterProcessInfo[] =>
      [...processes.values()].map((p) => ({
        name: p.spec.name as ClusterProcessName,
        pid: p.pid,
        restarts: p.restarts,
        cpuMs: p.cpuMs(),
        peakRssMb: p.peakRssMb,
      })),
    kill: (name, signal = 'SIGKILL') => Promise.resolve(get(name).kill(signal)),
    restart: async (name) => {
      await get(name).stop();
      await get(name).start();
    },
    stopProcess: (name) => get(name).stop(),
    startProcess: (name) => get(name).start(),
    ready: (name, timeoutMs) => get(name).ready(timeoutMs),
    stop: stopAll,
  };
}
