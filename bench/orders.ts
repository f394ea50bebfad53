/**
 * `npm run bench:orders`: order creation and whole order lifecycles through the broker, against the
 * engine's floor and a baseline workflow of the same Temporal shape, on one Temporal dev server in
 * one run. The broker's API and worker, the provider simulators and the baseline's and floors' worker
 * each run in their own child process, so that each one's CPU time per lifecycle can be read apart
 * (/proc). Prints tables; the last line of stdout is one JSON object (bench/README.md).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { ensureTemporalCli } from '../scripts/lib/temporal-cli';
import { devServerDynamicConfigArgs } from '../scripts/lib/temporal-dynamic-config';
import { buildConfig, parseEnv } from '../src/config';
import { DEFAULT_DEV_API_KEY } from '../src/config/env';
import { currencyDictionary } from '../src/domain/currencies';
import { createProviderRegistry } from '../src/providers/registry';
import type { ProviderAdapter } from '../src/providers/types';
import { ORDER_SEARCH_ATTRIBUTES, orderWorkflowId } from '../src/temporal/shared';
import { WORKFLOW_BUNDLE_OPTIONS } from '../src/worker/build';
import { baselineCreateUpdate, baselineEventSignal } from './baseline/workflow';
import { apiNodeFlags } from './lib/api-node-flags';
import { payAtCheckout } from './lib/checkout';
import { CompletionReceiver } from './lib/completion-receiver';
import { percentile, runConcurrently, type Run } from './lib/concurrency';
import { cpuSeconds, machineTicks } from './lib/load';
import { childPidsMatching, freePort, killAll, startChild, waitFor, type ChildHandle } from './lib/order-children';
import { cpuDelta, cpuMsPerUnit, createOverFloorMs, roundRatios, type CpuSnapshot } from './lib/order-figures';
import { median, renderTable, round } from './lib/table';

const LIFECYCLES = Number(process.env.BENCH_ORDERS_LIFECYCLES ?? 150);
const CREATES = Number(process.env.BENCH_ORDERS_CREATES ?? 150);
const CONCURRENCY = Number(process.env.BENCH_ORDERS_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.BENCH_ORDERS_ROUNDS ?? 3);
/** Creations measured one at a time (each of the broker, the floor and the provider). */
const C1 = Number(process.env.BENCH_ORDERS_C1 ?? 40);
const C1_WARMUP = 3;
/** The whole run's bound: a child that dies or a workflow that hangs ends the run instead of stalling it. */
const TIMEOUT_S = Number(process.env.BENCH_ORDERS_TIMEOUT_S ?? 900);
const BENCH_QUEUE = 'bench-baseline';
const ORDERS_QUEUE = 'bench-orders';
/** The provider webhooks a paid sandbox order sends: awaiting payment, payment received, completed. */
const PROVIDER_SIGNALS = 3;

const progress = (message: string) => process.stderr.write(`[bench:orders] ${message}\n`);

async function api<T>(apiUrl: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': DEFAULT_DEV_API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const ORDER = {
  provider_code: 'sandbox',
  from_currency: 1,
  to_currency: 13,
  from_amount: '100.00',
  payment_method: 'card',
  country_code: 'GB',
};
const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/** Asks for offers so that orders of `user` have a live one to match (offers live 120 s). */
async function offerFor(apiUrl: string, user: string): Promise<void> {
  const query = new URLSearchParams({
    external_user_id: user,
    currency_from: '1',
    currency_to: '13',
    amount_from: ORDER.from_amount,
    country: ORDER.country_code,
    payment_method: ORDER.payment_method,
    provider_codes: 'sandbox',
  });
  const offers = await api<Record<string, unknown>>(apiUrl, `/api/on_ramp/offers?${query.toString()}`);
  if (!offers.sandbox) throw new Error(`no sandbox offer: ${JSON.stringify(offers)}`);
}

async function createOrder(apiUrl: string, user: string): Promise<{ id: string; redirect_url: string }> {
  return api<{ id: string; redirect_url: string }>(apiUrl, '/api/on_ramp/orders', {
    ...ORDER,
    wallet_address: WALLET,
    external_user_id: user,
    external_order_id: `bench-${randomUUID()}`,
  });
}

async function brokerLifecycles(apiUrl: string, receiver: CompletionReceiver, count: number): Promise<Run> {
  const user = `bench-${randomUUID()}`;
  await offerFor(apiUrl, user);
  return runConcurrently(count, CONCURRENCY, async () => {
    const order = await createOrder(apiUrl, user);
    const completed = receiver.completed(order.id);
    await payAtCheckout(order.redirect_url);
    await completed;
  });
}

/** Lifecycles of the baseline or the floor workflow (same update and signals), driven as the broker's are. */
async function workflowLifecycles(client: Client, workflow: 'baselineWorkflow' | 'floorWorkflow', count: number): Promise<Run> {
  return runConcurrently(count, CONCURRENCY, async () => {
    const start = new WithStartWorkflowOperation(workflow, {
      workflowId: `bench-${workflow}-${randomUUID()}`,
      taskQueue: BENCH_QUEUE,
      args: [PROVIDER_SIGNALS],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    await client.workflow.executeUpdateWithStart(baselineCreateUpdate, { startWorkflowOperation: start });
    const handle = await start.workflowHandle();
    for (let i = 0; i < PROVIDER_SIGNALS; i++) await handle.signal(baselineEventSignal, `event-${i}`);
    await handle.result();
  });
}

/** The create floor: update-with-start of a workflow that runs no activity and answers at once. */
async function floorCreate(client: Client): Promise<void> {
  const start = new WithStartWorkflowOperation('floorCreateWorkflow', {
    workflowId: `bench-floor-create-${randomUUID()}`,
    taskQueue: BENCH_QUEUE,
    args: [],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  await client.workflow.executeUpdateWithStart(baselineCreateUpdate, { startWorkflowOperation: start });
}

async function creates(apiUrl: string, count: number): Promise<Run> {
  const user = `bench-${randomUUID()}`;
  await offerFor(apiUrl, user);
  return runConcurrently(count, CONCURRENCY, async () => void (await createOrder(apiUrl, user)));
}

interface OneAtATime {
  create: number[];
  floor: number[];
  provider: number[];
}

/**
 * Creations one at a time, interleaved so that the three see the same machine: the floor's
 * update-with-start, the provider's own create (the sandbox adapter's createOrder against the
 * simulator, as the worker's activity calls it), then the broker's POST. Only those are timed; each
 * broker order is then paid and followed to `complete` and its workflow's close, so that none is left
 * polling and the next iteration starts on an idle engine.
 */
async function oneAtATime(client: Client, apiUrl: string, sandbox: ProviderAdapter, receiver: CompletionReceiver): Promise<OneAtATime> {
  const user = `bench-${randomUUID()}`;
  await offerFor(apiUrl, user);
  const fiat = currencyDictionary.fiat(ORDER.from_currency)!;
  const crypto = currencyDictionary.crypto(ORDER.to_currency)!;
  const timed = async (task: () => Promise<unknown>) => {
    const t0 = performance.now();
    await task();
    return performance.now() - t0;
  };
  const result: OneAtATime = { create: [], floor: [], provider: [] };
  for (let i = 0; i < C1_WARMUP + C1; i++) {
    const floorMs = await timed(() => floorCreate(client));
    const providerMs = await timed(() =>
      sandbox.createOrder({
        orderId: `bench-direct-${randomUUID()}`,
        fiat,
        crypto,
        fiatAmount: ORDER.from_amount,
        walletAddress: WALLET,
        paymentMethod: ORDER.payment_method,
        country: ORDER.country_code,
        externalUserId: user,
        extras: {},
      }),
    );
    let order: { id: string; redirect_url: string } | undefined;
    const createMs = await timed(async () => (order = await createOrder(apiUrl, user)));
    const completed = receiver.completed(order!.id);
    await payAtCheckout(order!.redirect_url);
    await completed;
    await closed(client, orderWorkflowId(order!.id));
    if (i < C1_WARMUP) continue;
    result.floor.push(floorMs);
    result.provider.push(providerMs);
    result.create.push(createMs);
  }
  return result;
}

/** Resolves once the workflow has closed (read raw: the order's payloads are encrypted), within 30 s. */
async function closed(client: Client, workflowId: string): Promise<void> {
  const running = temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { workflowExecutionInfo } = await client.workflowService.describeWorkflowExecution({
      namespace: 'default',
      execution: { workflowId },
    });
    if (workflowExecutionInfo?.status !== running) return;
    if (Date.now() > deadline) throw new Error(`${workflowId} still running 30 s after its complete webhook`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function pollersOf(client: Client, taskQueue: string): Promise<number> {
  const { pollers } = await client.workflowService.describeTaskQueue({
    namespace: 'default',
    taskQueue: { name: taskQueue },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  return pollers.length;
}

/** What the run measured: the git commit, and whether the order workflow had local activities. */
function workingTree(): { head: string; dirty: boolean; orderWorkflowLocalActivities: boolean } {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: join(__dirname, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  const order = readFileSync(join(__dirname, '..', 'workflows', 'order.ts'), 'utf8');
  return {
    head: git('rev-parse', '--short', 'HEAD'),
    dirty: git('status', '--porcelain', '--', 'workflows', 'activities', 'src') !== '',
    orderWorkflowLocalActivities: order.includes('proxyLocalActivities'),
  };
}

/** The machine's 1-minute load average (other work on it moves every figure); NaN off Linux. */
function loadAverage(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  const ticksAtStart = machineTicks();
  const loadAtStart = loadAverage();
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const cli = process.env.TEMPORAL_CLI_PATH ?? ensureTemporalCli();
  const tree = workingTree();
  progress(
    `load average ${loadAtStart}; git ${tree.head}${tree.dirty ? ' (working tree changed)' : ''}; workflows/order.ts local activities: ${tree.orderWorkflowLocalActivities}`,
  );
  progress('starting the Temporal dev server and bundling workflows');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cli },
      searchAttributes: [...ORDER_SEARCH_ATTRIBUTES],
      // The production topology's dynamic configuration (eager activity dispatch among it).
      extraArgs: devServerDynamicConfigArgs(),
    },
  });
  const temporalPids = childPidsMatching('start-dev');
  setTimeout(() => {
    progress(`the run took over ${TIMEOUT_S} s (BENCH_ORDERS_TIMEOUT_S): stopping`);
    killAll();
    for (const pid of temporalPids) process.kill(pid, 'SIGKILL');
    process.exit(1);
  }, TIMEOUT_S * 1000).unref();
  if (temporalPids.length !== 1) progress(`warning: ${temporalPids.length} Temporal dev server processes found; its CPU is not reported`);
  const receiver = new CompletionReceiver();
  const webhookUrl = await receiver.start();
  const quiet = new DefaultLogger('ERROR');
  const [orderBundle, benchBundle] = await Promise.all([
    bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: quiet }),
    bundleWorkflowCode({ workflowsPath: require.resolve('./baseline/workflows'), logger: quiet }),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'bench-orders-'));
  writeFileSync(join(dir, 'order-bundle.js'), orderBundle.code);
  writeFileSync(join(dir, 'bench-bundle.js'), benchBundle.code);

  const [apiPort, simPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const simUrl = `http://127.0.0.1:${simPort}`;
  // The broker's API and worker read the same environment, as in production.
  const brokerEnv: Record<string, string> = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    PUBLIC_BASE_URL: apiUrl,
    SANDBOX_URL: simUrl,
    ONRAMP_WEBHOOK_URL: webhookUrl,
    RATE_LIMIT_REQUESTS: '0',
    RATE_LIMIT_IP_REQUESTS: '0',
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_TASK_QUEUE: ORDERS_QUEUE,
    WORKFLOW_BUNDLE_PATH: join(dir, 'order-bundle.js'),
  };
  const children: ChildHandle[] = [];
  let finished = false;
  try {
    progress('starting the simulators, the API, the worker and the bench workers');
    const sim = startChild(
      'simulators',
      'bench/orders-child.ts',
      ['sim'],
      { NODE_ENV: 'development', SIMULATOR_PORT: String(simPort), BROKER_URL: apiUrl },
      join(dir, 'simulators.log'),
    );
    children.push(sim);
    // BENCH_ORDERS_API_FLAGS, BENCH_ORDERS_WORKER_FLAGS: extra node flags for the API (after its
    // production flags) and for the order worker, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`.
    const flagsFrom = (name: string) => (process.env[name] ?? '').split(' ').filter(Boolean);
    const apiFlags = [...apiNodeFlags(), ...flagsFrom('BENCH_ORDERS_API_FLAGS')];
    const apiChild = startChild('api', 'src/api/main.ts', [], brokerEnv, join(dir, 'api.log'), apiFlags);
    children.push(apiChild);
    const workerFlags = flagsFrom('BENCH_ORDERS_WORKER_FLAGS');
    const worker = startChild('worker', 'src/worker/main.ts', [], brokerEnv, join(dir, 'worker.log'), workerFlags);
    children.push(worker);
    const benchWorkers = startChild(
      'bench workers',
      'bench/orders-child.ts',
      ['bench-workers'],
      { TEMPORAL_ADDRESS: env.address, BENCH_QUEUE, BENCH_BUNDLE_PATH: join(dir, 'bench-bundle.js') },
      join(dir, 'bench-workers.log'),
    );
    children.push(benchWorkers);
    await Promise.all([
      waitFor('simulators', async () => (await fetch(`${simUrl}/`)).status > 0),
      waitFor('api', async () => (await fetch(`${apiUrl}/healthz`)).ok),
      waitFor('worker', async () => (await pollersOf(env.client, ORDERS_QUEUE)) > 0),
      waitFor('bench workers', async () => (await pollersOf(env.client, BENCH_QUEUE)) > 0),
    ]);

    // The broker's own configuration, for the provider's create measured directly.
    const sandbox = createProviderRegistry(buildConfig(parseEnv({ ...process.env, ...brokerEnv }))).get('sandbox');
    if (!sandbox) throw new Error('the sandbox provider is not enabled');

    const pids: Record<string, number> = {
      api: apiChild.pid,
      worker: worker.pid,
      'bench workers': benchWorkers.pid,
      temporal: temporalPids.length === 1 ? temporalPids[0]! : -1,
      simulators: sim.pid,
      load: process.pid,
    };
    const snapshot = (): CpuSnapshot => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
    const measured = async (run: () => Promise<Run>): Promise<{ run: Run; cpu: CpuSnapshot }> => {
      const before = snapshot();
      const result = await run();
      return { run: result, cpu: cpuDelta(before, snapshot()) };
    };

    progress('warming up');
    await workflowLifecycles(env.client, 'baselineWorkflow', CONCURRENCY);
    await workflowLifecycles(env.client, 'floorWorkflow', CONCURRENCY);
    await brokerLifecycles(apiUrl, receiver, CONCURRENCY);

    progress(`creation one at a time: ${C1} each of the floor, the provider and the broker`);
    const c1 = await oneAtATime(env.client, apiUrl, sandbox, receiver);

    const phases = {
      baseline: [] as { run: Run; cpu: CpuSnapshot }[],
      floor: [] as { run: Run; cpu: CpuSnapshot }[],
      broker: [] as { run: Run; cpu: CpuSnapshot }[],
    };
    for (let round = 1; round <= ROUNDS; round++) {
      // The order alternates from one round to the next, so that no side always follows the same one.
      const order = round % 2 === 1 ? (['baseline', 'floor', 'broker'] as const) : (['broker', 'floor', 'baseline'] as const);
      for (const phase of order) {
        progress(`round ${round}/${ROUNDS}: ${phase}`);
        phases[phase].push(
          await measured(() =>
            phase === 'broker'
              ? brokerLifecycles(apiUrl, receiver, LIFECYCLES)
              : workflowLifecycles(env.client, phase === 'baseline' ? 'baselineWorkflow' : 'floorWorkflow', LIFECYCLES),
          ),
        );
      }
    }
    progress('order creation');
    const created = await creates(apiUrl, CREATES);

    const perSecond = (runs: { run: Run }[]) => median(runs.map(({ run }) => run.count / run.seconds));
    const all = (runs: { run: Run }[]) => runs.flatMap(({ run }) => run.latenciesMs);
    const cpuOf = (runs: { run: Run; cpu: CpuSnapshot }[], names: string[]) => {
      const perLifecycle = cpuMsPerUnit(
        runs.map(({ cpu }) => cpu),
        runs.reduce((sum, { run }) => sum + run.count, 0),
      );
      return Object.fromEntries(names.map((name) => [name, perLifecycle[name]!]));
    };
    const lifecyclePerS = perSecond(phases.broker);
    const baselinePerS = perSecond(phases.baseline);
    const floorPerS = perSecond(phases.floor);
    const rates = (runs: { run: Run }[]) => runs.map(({ run }) => run.count / run.seconds);
    const vsBaseline = roundRatios(rates(phases.broker), rates(phases.baseline));
    const vsFloor = roundRatios(rates(phases.broker), rates(phases.floor));
    const p = (values: number[], q: number) => percentile(values, q);
    const createC1P50 = p(c1.create, 50);
    const floorC1P50 = p(c1.floor, 50);
    const providerP50 = p(c1.provider, 50);
    const overFloor = createOverFloorMs(createC1P50, floorC1P50, providerP50);
    const lifecycleRow = (name: string, runs: { run: Run }[], perS: number) => [
      name,
      ROUNDS * LIFECYCLES,
      CONCURRENCY,
      perS,
      p(all(runs), 50),
      p(all(runs), 99),
    ];
    const c1Row = (name: string, values: number[]) => [
      name,
      values.length,
      1,
      values.length / (values.reduce((a, b) => a + b, 0) / 1000),
      p(values, 50),
      p(values, 99),
    ];
    const rows: (string | number)[][] = [
      lifecycleRow('baseline lifecycle', phases.baseline, baselinePerS),
      lifecycleRow('floor lifecycle (local activities)', phases.floor, floorPerS),
      lifecycleRow('broker lifecycle', phases.broker, lifecyclePerS),
      c1Row('floor create (no activity)', c1.floor),
      c1Row('provider create (sandbox adapter)', c1.provider),
      c1Row('broker create', c1.create),
      ['broker create', CREATES, CONCURRENCY, created.count / created.seconds, p(created.latenciesMs, 50), p(created.latenciesMs, 99)],
    ];
    process.stdout.write(`${renderTable(['run', 'count', 'concurrency', 'per s', 'p50 ms', 'p99 ms'], rows)}\n\n`);

    const brokerCpu = cpuOf(phases.broker, ['api', 'worker', 'temporal', 'simulators', 'load']);
    const baselineCpu = cpuOf(phases.baseline, ['bench workers', 'temporal', 'load']);
    const floorCpu = cpuOf(phases.floor, ['bench workers', 'temporal', 'load']);
    const cell = (n: number | undefined) => (n === undefined ? '-' : n);
    const cpuRows = [
      ['baseline lifecycle', '-', cell(baselineCpu['bench workers']), cell(baselineCpu.temporal), '-', cell(baselineCpu.load)],
      ['floor lifecycle', '-', cell(floorCpu['bench workers']), cell(floorCpu.temporal), '-', cell(floorCpu.load)],
      [
        'broker lifecycle',
        cell(brokerCpu.api),
        cell(brokerCpu.worker),
        cell(brokerCpu.temporal),
        cell(brokerCpu.simulators),
        cell(brokerCpu.load),
      ],
    ];
    process.stdout.write(
      `CPU ms per lifecycle (user + system, /proc; "worker" is the bench workers' process for the baseline and the floor)\n`,
    );
    process.stdout.write(`${renderTable(['run', 'API', 'worker', 'Temporal', 'simulators', 'load'], cpuRows)}\n\n`);
    process.stdout.write(
      `create one at a time: broker p50 ${round(createC1P50, 1)} ms - (floor ${round(floorC1P50, 1)} + provider ${round(providerP50, 1)}) = ${round(overFloor, 1)} ms over the floor (target <= 25)\n`,
    );
    process.stdout.write(
      `lifecycles: ${round(vsBaseline.median, 3)}x the baseline (target >= 1.3), ${round(vsFloor.median, 3)}x the floor (target >= 0.8), medians of the rounds' ratios\n\n`,
    );
    const ms = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(' ', '_'), round(v, 2)]));
    const runSeconds = (performance.now() - runStarted) / 1000;
    const ticksAtEnd = machineTicks();
    process.stdout.write(
      `${JSON.stringify({
        create_c1_p50_ms: round(createC1P50, 1),
        create_c1_p99_ms: round(p(c1.create, 99), 1),
        floor_c1_p50_ms: round(floorC1P50, 1),
        floor_c1_p99_ms: round(p(c1.floor, 99), 1),
        provider_create_p50_ms: round(providerP50, 1),
        provider_create_p99_ms: round(p(c1.provider, 99), 1),
        create_c1_over_floor_ms: round(overFloor, 1),
        create_per_s: round(created.count / created.seconds, 2),
        create_p50_ms: round(p(created.latenciesMs, 50), 1),
        create_p99_ms: round(p(created.latenciesMs, 99), 1),
        lifecycle_per_s: round(lifecyclePerS, 2),
        baseline_lifecycle_per_s: round(baselinePerS, 2),
        floor_lifecycle_per_s: round(floorPerS, 2),
        lifecycle_vs_baseline: round(vsBaseline.median, 3),
        lifecycle_vs_floor: round(vsFloor.median, 3),
        lifecycle_ratio: round(vsBaseline.median, 3),
        lifecycle_vs_baseline_rounds: vsBaseline.ratios.map((r) => round(r, 3)),
        lifecycle_vs_floor_rounds: vsFloor.ratios.map((r) => round(r, 3)),
        cpu_ms_per_lifecycle: ms(brokerCpu),
        baseline_cpu_ms_per_lifecycle: ms(baselineCpu),
        floor_cpu_ms_per_lifecycle: ms(floorCpu),
        run_seconds: round(runSeconds, 1),
        load_average_1m_at_start: loadAtStart,
        steal_pct: round((100 * (ticksAtEnd.steal - ticksAtStart.steal)) / (ticksAtEnd.total - ticksAtStart.total), 1),
        git_head: tree.head,
        working_tree_changed: tree.dirty,
        order_workflow_local_activities: tree.orderWorkflowLocalActivities,
      })}\n`,
    );
    finished = true;
  } finally {
    // The worker first (it would retry against a stopped API or simulator), then the rest.
    for (const name of ['worker', 'bench workers', 'api', 'simulators']) await children.find((c) => c.name === name)?.stop();
    await receiver.stop();
    await env.teardown();
    // The children's logs are kept when the run failed, or when asked (BENCH_ORDERS_KEEP_LOGS=1).
    if (finished && process.env.BENCH_ORDERS_KEEP_LOGS !== '1') rmSync(dir, { recursive: true, force: true });
    else progress(`the children's logs are in ${dir}`);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    killAll();
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
