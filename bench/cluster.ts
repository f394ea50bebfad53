/**
 * `npm run bench:cluster`: scale figures of the production topology (npm run cluster) on this machine.
 * In one run on one cluster: order lifecycles per second and create p50/p99 with one worker and with
 * two, and offers per second through one API process and through the load balancer over two, with the
 * CPU each process spent per lifecycle and per offers request. Prints a table; the last line of stdout
 * is one JSON object (bench/README.md). On a 2-core machine every process shares the same two cores,
 * so a second process can add little: the ratios say how much, not what more cores would give.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCluster, type Cluster, type ClusterProcessName } from '../scripts/cluster/cluster';
import { payAtCheckout } from './lib/checkout';
import { CompletionReceiver } from './lib/completion-receiver';
import { percentile, runConcurrently, type Run } from './lib/concurrency';
import { runLoad } from './lib/load';
import { renderTable, round } from './lib/table';

const LIFECYCLES = Number(process.env.BENCH_CLUSTER_LIFECYCLES ?? 120);
const CONCURRENCY = Number(process.env.BENCH_CLUSTER_CONCURRENCY ?? 16);
const OFFERS_SECONDS = Number(process.env.BENCH_CLUSTER_OFFERS_SECONDS ?? 15);
const OFFERS_CONNECTIONS = Number(process.env.BENCH_CLUSTER_OFFERS_CONNECTIONS ?? 16);
const DATA_DIR = resolve(__dirname, '..', '.data', 'cluster-bench');
const API_KEY = `obk_bench_${randomBytes(12).toString('hex')}`;
const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const ORDER = {
  provider_code: 'sandbox',
  from_currency: 1,
  to_currency: 13,
  from_amount: '100.00',
  payment_method: 'card',
  country_code: 'GB',
};

const progress = (message: string) => process.stderr.write(`[bench:cluster] ${message}\n`);

async function api<T>(base: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
  return json;
}

function offersQuery(user: string, providers?: string): string {
  return `/api/on_ramp/offers?${new URLSearchParams({
    external_user_id: user,
    currency_from: '1',
    currency_to: '13',
    amount_from: ORDER.from_amount,
    country: ORDER.country_code,
    payment_method: ORDER.payment_method,
    ...(providers ? { provider_codes: providers } : {}),
  }).toString()}`;
}

/** CPU (ms) of every process of the cluster, for differences over a phase. */
function cpuByProcess(cluster: Cluster): Map<ClusterProcessName, number> {
  return new Map(cluster.processes().map((p) => [p.name, p.cpuMs]));
}

interface LifecyclePhase {
  workers: number;
  run: Run;
  createMs: number[];
  cpuMsPerLifecycle: Record<string, number>;
}

async function lifecycles(cluster: Cluster, receiver: CompletionReceiver, workers: number, count: number): Promise<LifecyclePhase> {
  const base = cluster.addresses.api;
  const user = `bench-${randomUUID()}`;
  await api(base, offersQuery(user, 'sandbox'));
  const createMs: number[] = [];
  const before = cpuByProcess(cluster);
  const run = await runConcurrently(count, CONCURRENCY, async () => {
    const t0 = performance.now();
    const order = await api<{ id: string; redirect_url: string }>(base, '/api/on_ramp/orders', {
      ...ORDER,
      wallet_address: WALLET,
      external_user_id: user,
      external_order_id: `bench-${randomUUID()}`,
    });
    createMs.push(performance.now() - t0);
    const completed = receiver.completed(order.id);
    await payAtCheckout(order.redirect_url);
    await completed;
  });
  const after = cpuByProcess(cluster);
  const cpuMsPerLifecycle = Object.fromEntries([...after].map(([name, ms]) => [name, (ms - (before.get(name) ?? 0)) / count]));
  return { workers, run, createMs, cpuMsPerLifecycle };
}

async function offers(cluster: Cluster, url: string, label: string) {
  progress(`offers for ${OFFERS_SECONDS}s through ${label}`);
  const before = cpuByProcess(cluster);
  const result = await runLoad({
    url,
    connections: OFFERS_CONNECTIONS,
    durationSec: OFFERS_SECONDS,
    settleSec: 2,
    headers: { 'x-api-key': API_KEY },
    pathFor: (context) => offersQuery((context.user ??= `bench-offers-${randomUUID()}`) as string),
  });
  const after = cpuByProcess(cluster);
  const cpuMsPerRequest = Object.fromEntries(
    [...after].map(([name, ms]) => [name, (ms - (before.get(name) ?? 0)) / Math.max(result.requests, 1)]),
  );
  if (result.non2xx > 0 || result.errors > 0) progress(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { label, result, cpuMsPerRequest };
}

async function main(): Promise<void> {
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });
  const receiver = new CompletionReceiver();
  const webhookUrl = await receiver.start();
  const integratorsFile = join(DATA_DIR, 'integrators.json');
  writeFileSync(
    integratorsFile,
    JSON.stringify({
      integrators: [
        {
          id: 'bench',
          name: 'bench:cluster',
          api_key_sha256: [createHash('sha256').update(API_KEY).digest('hex')],
          webhook_url: webhookUrl,
          webhook_secret: `whsec_${randomBytes(24).toString('base64')}`,
        },
      ],
    }),
  );
  progress('starting the cluster (npm run cluster topology, its own data directory and ports)');
  const cluster = await startCluster({
    dataDir: DATA_DIR,
    portOffset: 200,
    integratorsFile,
    brokerEnv: {
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_REQUESTS: '0',
      RATE_LIMIT_IP_REQUESTS: '0',
    },
    log: progress,
  });
  try {
    progress('warm-up');
    await lifecycles(cluster, receiver, 2, 20);
    await cluster.stopProcess('worker-2');
    progress(`${LIFECYCLES} lifecycles with one worker`);
    const oneWorker = await lifecycles(cluster, receiver, 1, LIFECYCLES);
    await cluster.startProcess('worker-2');
    progress(`${LIFECYCLES} lifecycles with two workers`);
    const twoWorkers = await lifecycles(cluster, receiver, 2, LIFECYCLES);
    const oneApi = await offers(cluster, cluster.addresses.apis[0]!, 'api-1 alone');
    const twoApis = await offers(cluster, cluster.addresses.api, 'the load balancer over two APIs');

    const perS = (phase: LifecyclePhase) => phase.run.count / phase.run.seconds;
    const cpuCell = (cpu: Record<string, number>, names: string[]) =>
      round(
        names.reduce((sum, n) => sum + (cpu[n] ?? 0), 0),
        1,
      );
    const groups = {
      api: ['api-1', 'api-2'],
      worker: ['worker-1', 'worker-2'],
      temporal: ['temporal'],
      postgresql: ['postgresql'],
      'load-balancer': ['load-balancer'],
      simulators: ['simulators'],
      redis: ['redis'],
    };
    const header = ['run', 'count', 'per s', 'p50 ms', 'p99 ms', ...Object.keys(groups).map((g) => `${g} cpu ms`)];
    const lifecycleRow = (phase: LifecyclePhase) => [
      `lifecycles, ${phase.workers} worker${phase.workers > 1 ? 's' : ''} (create latency)`,
      phase.run.count,
      perS(phase),
      percentile(phase.createMs, 50),
      percentile(phase.createMs, 99),
      ...Object.values(groups).map((names) => cpuCell(phase.cpuMsPerLifecycle, names)),
    ];
    const offersRow = (o: Awaited<ReturnType<typeof offers>>) => [
      `offers, ${o.label}`,
      o.result.requests,
      o.result.rps,
      o.result.latency.p50,
      o.result.latency.p99,
      ...Object.values(groups).map((names) => cpuCell(o.cpuMsPerRequest, names)),
    ];
    process.stdout.write(
      `\n${renderTable(header, [lifecycleRow(oneWorker), lifecycleRow(twoWorkers), offersRow(oneApi), offersRow(twoApis)])}\n` +
        `\nCPU columns: ms of CPU per lifecycle (or per offers request) in each group of processes.\n` +
        `This machine has ${(await import('node:os')).availableParallelism()} cores shared by every process: the gain of a second worker or API is bounded by them.\n\n`,
    );
    const peakRss = Object.fromEntries(cluster.processes().map((p) => [p.name, Math.round(p.peakRssMb)]));
    process.stdout.write(
      `Peak resident memory (MB): ${Object.entries(peakRss)
        .map(([name, mb]) => `${name} ${mb}`)
        .join(', ')}\n\n`,
    );
    process.stdout.write(
      `${JSON.stringify({
        lifecycles: LIFECYCLES,
        concurrency: CONCURRENCY,
        lifecycle_per_s_1_worker: round(perS(oneWorker), 2),
        lifecycle_per_s_2_workers: round(perS(twoWorkers), 2),
        workers_ratio: round(perS(twoWorkers) / perS(oneWorker), 3),
        create_p50_ms_1_worker: round(percentile(oneWorker.createMs, 50), 1),
        create_p99_ms_1_worker: round(percentile(oneWorker.createMs, 99), 1),
        create_p50_ms_2_workers: round(percentile(twoWorkers.createMs, 50), 1),
        create_p99_ms_2_workers: round(percentile(twoWorkers.createMs, 99), 1),
        offers_per_s_1_api: round(oneApi.result.rps, 1),
        offers_per_s_2_apis: round(twoApis.result.rps, 1),
        apis_ratio: round(twoApis.result.rps / oneApi.result.rps, 3),
        offers_p99_ms_1_api: oneApi.result.latency.p99,
        offers_p99_ms_2_apis: twoApis.result.latency.p99,
        peak_rss_mb: peakRss,
        cpu_ms_per_lifecycle_2_workers: Object.fromEntries(
          Object.entries(groups).map(([g, n]) => [g, cpuCell(twoWorkers.cpuMsPerLifecycle, n)]),
        ),
      })}\n`,
    );
  } finally {
    await cluster.stop();
    await receiver.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`[bench:cluster] ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
