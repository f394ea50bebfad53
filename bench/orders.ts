/**
 * `npm run bench:orders`: order creation and whole order lifecycles through the broker, against the
 * engine's floor (and, when asked, a baseline workflow of the same Temporal shape), on one Temporal
 * dev server in one run. The broker's API and worker, the provider simulators and the floors' worker
 * each run in their own child process, so that each one's CPU time per lifecycle can be read apart
 * (/proc); every completed lifecycle's history is read back and its events counted. Prints tables;
 * the last line of stdout is one JSON object (bench/README.md).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { buildConfig, parseEnv } from '../src/config';
import { DEFAULT_DEV_API_KEY } from '../src/config/env';
import { currencyDictionary } from '../src/domain/currencies';
import { createProviderRegistry } from '../src/providers/registry';
import type { ProviderAdapter } from '../src/providers/types';
import { orderWorkflowId } from '../src/temporal/order-contract';
import { WORKFLOW_BUNDLE_OPTIONS } from '../src/worker/build';
import { baselineCreateUpdate, baselineEventSignal } from './baseline/workflow';
import { apiNodeFlags } from './lib/api-node-flags';
import { payAtCheckout } from './lib/checkout';
import { CompletionReceiver } from './lib/completion-receiver';
import { percentile, runConcurrently, runFor, type Run } from './lib/concurrency';
import { eventsPerWorkflow, mergeTallies, tallyHistories, workflowHistoryEvents, type HistoryTally } from './lib/history-events';
import { cpuSeconds, machineTicks } from './lib/load';
import { startBenchDevServer } from './lib/dev-server';
import { freePort, killAll, startChild, waitFor, type ChildHandle } from './lib/order-children';
import { cpuDelta, cpuMsPerUnit, createOverFloorMs, ratio, roundRatios, type CpuSnapshot } from './lib/order-figures';
import { partCostMs, variantsFromEnv, type OrderVariant } from './lib/order-variants';
import { median, renderTable, round } from './lib/table';

const CREATES = Number(process.env.BENCH_ORDERS_CREATES ?? 150);
const CONCURRENCY = Number(process.env.BENCH_ORDERS_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.BENCH_ORDERS_ROUNDS ?? 5);
/**
 * How long each side's measured run of a round lasts at least: lifecycles start until then. Long
 * enough that one of the dev server's ~2 s update-with-start pauses moves a round's figure by a
 * tenth, not decides it (bench/README.md).
 */
const ROUND_S = Number(process.env.BENCH_ORDERS_ROUND_S ?? 20);
/** The baseline workflow's rounds too: context only, no target (bench/README.md). */
const WITH_BASELINE = process.env.BENCH_ORDERS_BASELINE === '1';
/** The bill's variants of the broker, each run in every round beside it (bench/lib/order-variants.ts). */
const VARIANTS = variantsFromEnv(process.env.BENCH_ORDERS_VARIANTS);
/** Histories read at once after each measured run. */
const HISTORY_READS_IN_FLIGHT = 8;
/** Creations measured one at a time (each of the broker, the floor and the provider). */
const C1 = Number(process.env.BENCH_ORDERS_C1 ?? 40);
const C1_WARMUP = 3;
/** The whole run's bound: a child that dies or a workflow that hangs ends the run instead of stalling it. */
const TIMEOUT_S = Number(process.env.BENCH_ORDERS_TIMEOUT_S ?? 900 + 300 * VARIANTS.length);
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

/** Runs lifecycles: a fixed number (the warm-up) or for a round's time (the measured runs). */
type Driver = (task: () => Promise<void>) => Promise<Run>;
const warmUp: Driver = (task) => runConcurrently(CONCURRENCY, CONCURRENCY, task);
const aRound: Driver = (task) => runFor(ROUND_S, CONCURRENCY, task);

/** A run of lifecycles, and the workflow ids of those that completed. */
interface Lifecycles {
  run: Run;
  workflowIds: string[];
}

async function brokerLifecycles(apiUrl: string, receiver: CompletionReceiver, drive: Driver): Promise<Lifecycles> {
  const user = `bench-${randomUUID()}`;
  await offerFor(apiUrl, user);
  const workflowIds: string[] = [];
  const run = await drive(async () => {
    const order = await createOrder(apiUrl, user);
    const completed = receiver.completed(order.id);
    await payAtCheckout(order.redirect_url);
    await completed;
    workflowIds.push(orderWorkflowId(order.id));
  });
  return { run, workflowIds };
}

/** Lifecycles of the baseline or the floor workflow (same update and signals), driven as the broker's are. */
async function workflowLifecycles(client: Client, workflow: 'baselineWorkflow' | 'floorWorkflow', drive: Driver): Promise<Lifecycles> {
  const workflowIds: string[] = [];
  const run = await drive(async () => {
    const workflowId = `bench-${workflow}-${randomUUID()}`;
    const start = new WithStartWorkflowOperation(workflow, {
      workflowId,
      taskQueue: BENCH_QUEUE,
      args: [PROVIDER_SIGNALS],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    await client.workflow.executeUpdateWithStart(baselineCreateUpdate, { startWorkflowOperation: start });
    const handle = await start.workflowHandle();
    for (let i = 0; i < PROVIDER_SIGNALS; i++) await handle.signal(baselineEventSignal, `event-${i}`);
    await handle.result();
    workflowIds.push(workflowId);
  });
  return { run, workflowIds };
}

/**
 * The histories of a run's completed lifecycles, counted. The broker's `complete` webhook can come
 * just before its workflow closes, so each is awaited closed before its history is read.
 */
async function historiesOf(client: Client, workflowIds: string[]): Promise<HistoryTally> {
  const histories: Awaited<ReturnType<typeof workflowHistoryEvents>>[] = [];
  await runConcurrently(workflowIds.length, HISTORY_READS_IN_FLIGHT, async (i) => {
    await closed(client, workflowIds[i]!);
    histories.push(await workflowHistoryEvents(client, workflowIds[i]!));
  });
  return tallyHistories(histories);
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
  const tree = workingTree();
  if (process.env.BENCH_ORDERS_LIFECYCLES !== undefined) {
    progress('BENCH_ORDERS_LIFECYCLES no longer applies: each round lasts BENCH_ORDERS_ROUND_S seconds');
  }
  progress(
    `load average ${loadAtStart}; git ${tree.head}${tree.dirty ? ' (working tree changed)' : ''}; workflows/order.ts local activities: ${tree.orderWorkflowLocalActivities}`,
  );
  progress('starting the Temporal dev server and bundling workflows');
  const { env, temporalPids } = await startBenchDevServer({ timeoutS: TIMEOUT_S, timeoutVariable: 'BENCH_ORDERS_TIMEOUT_S', progress });
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

  const children: ChildHandle[] = [];
  /**
   * A broker: its simulators, API and worker, each a child, on a task queue of its own. The
   * benchmarked one (`variant` undefined) has the names `simulators`, `api`, `worker`; a variant's
   * children are named `<name>@<variant>`. The API and worker read the same environment, as in production.
   */
  const startBroker = async (variant?: OrderVariant) => {
    const [apiPort, simPort] = [await freePort(), await freePort()];
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const simUrl = `http://127.0.0.1:${simPort}`;
    const suffix = variant ? `@${variant.name}` : '';
    const taskQueue = variant ? `${ORDERS_QUEUE}-${variant.name}` : ORDERS_QUEUE;
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
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKFLOW_BUNDLE_PATH: join(dir, 'order-bundle.js'),
      ...variant?.env,
    };
    const sim = startChild(
      `simulators${suffix}`,
      'bench/orders-child.ts',
      ['sim'],
      { NODE_ENV: 'development', SIMULATOR_PORT: String(simPort), BROKER_URL: apiUrl },
      join(dir, `simulators${suffix}.log`),
    );
    children.push(sim);
    // BENCH_ORDERS_API_FLAGS, BENCH_ORDERS_WORKER_FLAGS: extra node flags for the API (after its
    // production flags) and for the order worker, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`.
    const flagsFrom = (name: string) => (process.env[name] ?? '').split(' ').filter(Boolean);
    const apiFlags = [...apiNodeFlags(), ...flagsFrom('BENCH_ORDERS_API_FLAGS')];
    const apiChild = startChild(`api${suffix}`, 'src/api/main.ts', [], brokerEnv, join(dir, `api${suffix}.log`), apiFlags);
    children.push(apiChild);
    const workerFlags = flagsFrom('BENCH_ORDERS_WORKER_FLAGS');
    const worker = startChild(`worker${suffix}`, 'src/worker/main.ts', [], brokerEnv, join(dir, `worker${suffix}.log`), workerFlags);
    children.push(worker);
    await Promise.all([
      waitFor(`simulators${suffix}`, async () => (await fetch(`${simUrl}/`)).status > 0),
      waitFor(`api${suffix}`, async () => (await fetch(`${apiUrl}/healthz`)).ok),
      waitFor(`worker${suffix}`, async () => (await pollersOf(env.client, taskQueue)) > 0),
    ]);
    const pids = { [`api${suffix}`]: apiChild.pid, [`worker${suffix}`]: worker.pid, [`simulators${suffix}`]: sim.pid };
    return { apiUrl, brokerEnv, pids };
  };
  let finished = false;
  try {
    progress(
      `starting the simulators, the API, the worker and the bench workers${VARIANTS.length > 0 ? `, and ${VARIANTS.length} variants of the broker` : ''}`,
    );
    const broker = await startBroker();
    const { apiUrl, brokerEnv } = broker;
    const variantBrokers = new Map<string, Awaited<ReturnType<typeof startBroker>>>();
    for (const variant of VARIANTS) variantBrokers.set(variant.name, await startBroker(variant));
    const benchWorkers = startChild(
      'bench workers',
      'bench/orders-child.ts',
      ['bench-workers'],
      { TEMPORAL_ADDRESS: env.address, BENCH_QUEUE, BENCH_BUNDLE_PATH: join(dir, 'bench-bundle.js') },
      join(dir, 'bench-workers.log'),
    );
    children.push(benchWorkers);
    await waitFor('bench workers', async () => (await pollersOf(env.client, BENCH_QUEUE)) > 0);

    // The broker's own configuration, for the provider's create measured directly.
    const sandbox = createProviderRegistry(buildConfig(parseEnv({ ...process.env, ...brokerEnv }))).get('sandbox');
    if (!sandbox) throw new Error('the sandbox provider is not enabled');

    const pids: Record<string, number> = {
      ...broker.pids,
      ...Object.fromEntries([...variantBrokers.values()].flatMap((b) => Object.entries(b.pids))),
      'bench workers': benchWorkers.pid,
      temporal: temporalPids.length === 1 ? temporalPids[0]! : -1,
      load: process.pid,
    };
    const snapshot = (): CpuSnapshot => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
    /** A variant's side is `broker@<variant>`. */
    type Side = 'baseline' | 'floor' | 'broker' | `broker@${string}`;
    const variantSides = VARIANTS.map((v): Side => `broker@${v.name}`);
    const sides: Side[] = [...(WITH_BASELINE ? (['baseline'] as const) : []), 'floor', 'broker', ...variantSides];
    const lifecyclesOf = (side: Side, drive: Driver): Promise<Lifecycles> => {
      if (side === 'broker') return brokerLifecycles(apiUrl, receiver, drive);
      if (side.startsWith('broker@')) return brokerLifecycles(variantBrokers.get(side.slice('broker@'.length))!.apiUrl, receiver, drive);
      return workflowLifecycles(env.client, side === 'baseline' ? 'baselineWorkflow' : 'floorWorkflow', drive);
    };

    progress('warming up');
    for (const side of sides) await lifecyclesOf(side, warmUp);

    progress(`creation one at a time: ${C1} each of the floor, the provider and the broker`);
    const c1 = await oneAtATime(env.client, apiUrl, sandbox, receiver);

    interface Measured {
      run: Run;
      cpu: CpuSnapshot;
      history: HistoryTally;
    }
    const measured = new Map<Side, Measured[]>(sides.map((side) => [side, []]));
    /** A side's measured runs, one a round (none for a side not run). */
    const phase = (side: Side): Measured[] => measured.get(side) ?? [];
    for (let r = 1; r <= ROUNDS; r++) {
      // The order alternates from one round to the next, so that no side always follows the same one.
      for (const side of r % 2 === 1 ? sides : [...sides].reverse()) {
        progress(`round ${r}/${ROUNDS}: ${side}, ${ROUND_S} s`);
        const before = snapshot();
        const { run, workflowIds } = await lifecyclesOf(side, aRound);
        const cpu = cpuDelta(before, snapshot());
        // Read after the CPU snapshot: the reads are not the lifecycles' cost.
        const history = await historiesOf(env.client, workflowIds);
        phase(side).push({ run, cpu, history });
        progress(
          `round ${r}/${ROUNDS}: ${side}: ${run.count} lifecycles in ${round(run.seconds, 1)} s, ${round(run.count / run.seconds, 2)}/s, ${eventsPerWorkflow(history).median} history events each (median)`,
        );
      }
    }
    progress('order creation');
    const created = await creates(apiUrl, CREATES);

    const rates = (side: Side) => phase(side).map(({ run }) => run.count / run.seconds);
    const perSecond = (side: Side) => median(rates(side));
    const all = (side: Side) => phase(side).flatMap(({ run }) => run.latenciesMs);
    const lifecycles = (side: Side) => phase(side).reduce((sum, { run }) => sum + run.count, 0);
    const cpuOf = (side: Side, names: string[]) => {
      const perLifecycle = cpuMsPerUnit(
        phase(side).map(({ cpu }) => cpu),
        lifecycles(side),
      );
      return Object.fromEntries(names.map((name) => [name, perLifecycle[name]!]));
    };
    const lifecyclePerS = perSecond('broker');
    const floorPerS = perSecond('floor');
    const vsFloor = roundRatios(rates('broker'), rates('floor'));
    const vsBaseline = WITH_BASELINE ? roundRatios(rates('broker'), rates('baseline')) : undefined;
    const p = (values: number[], q: number) => percentile(values, q);
    const createC1P50 = p(c1.create, 50);
    const floorC1P50 = p(c1.floor, 50);
    const providerP50 = p(c1.provider, 50);
    const overFloor = createOverFloorMs(createC1P50, floorC1P50, providerP50);
    const lifecycleRow = (name: string, side: Side) => [
      name,
      lifecycles(side),
      CONCURRENCY,
      perSecond(side),
      p(all(side), 50),
      p(all(side), 99),
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
      ...(WITH_BASELINE ? [lifecycleRow('baseline lifecycle', 'baseline')] : []),
      lifecycleRow('floor lifecycle (local activities)', 'floor'),
      lifecycleRow('broker lifecycle', 'broker'),
      c1Row('floor create (no activity)', c1.floor),
      c1Row('provider create (sandbox adapter)', c1.provider),
      c1Row('broker create', c1.create),
      ['broker create', CREATES, CONCURRENCY, created.count / created.seconds, p(created.latenciesMs, 50), p(created.latenciesMs, 99)],
    ];
    process.stdout.write(`Lifecycles: "per s" is the median of the ${ROUNDS} rounds' (each at least ${ROUND_S} s)\n`);
    process.stdout.write(`${renderTable(['run', 'count', 'concurrency', 'per s', 'p50 ms', 'p99 ms'], rows)}\n\n`);

    const roundRows = phase('broker').map((_, i) => [
      i + 1,
      ...(vsBaseline ? [rates('baseline')[i]!] : []),
      rates('floor')[i]!,
      rates('broker')[i]!,
      vsFloor.ratios[i]!,
      ...(vsBaseline ? [vsBaseline.ratios[i]!] : []),
    ]);
    const roundHeader = [
      'round',
      ...(vsBaseline ? ['baseline per s'] : []),
      'floor per s',
      'broker per s',
      'broker / floor',
      ...(vsBaseline ? ['broker / baseline'] : []),
    ];
    process.stdout.write(`${renderTable(roundHeader, roundRows)}\n\n`);

    const brokerCpu = cpuOf('broker', ['api', 'worker', 'temporal', 'simulators', 'load']);
    const floorCpu = cpuOf('floor', ['bench workers', 'temporal', 'load']);
    const baselineCpu = WITH_BASELINE ? cpuOf('baseline', ['bench workers', 'temporal', 'load']) : undefined;
    // What issue 34 compares: every process that does an order's work, not the load that drives it.
    const cpuVsFloor = ratio(
      brokerCpu.api! + brokerCpu.worker! + brokerCpu.temporal! + brokerCpu.simulators!,
      floorCpu['bench workers']! + floorCpu.temporal!,
    );
    // The bill: each variant against the broker of the same rounds (bench/lib/order-variants.ts).
    const brokerTotal = brokerCpu.api! + brokerCpu.worker! + brokerCpu.temporal! + brokerCpu.simulators!;
    const bill = VARIANTS.map((variant) => {
      const side: Side = `broker@${variant.name}`;
      const at = `@${variant.name}`;
      const cpu = cpuOf(side, [`api${at}`, `worker${at}`, 'temporal', `simulators${at}`, 'load']);
      const byProcess = Object.fromEntries(Object.entries(cpu).map(([name, value]) => [name.replace(at, ''), value]));
      const total = byProcess.api! + byProcess.worker! + byProcess.temporal! + byProcess.simulators!;
      return {
        variant,
        perSecond: perSecond(side),
        vsBroker: roundRatios(rates(side), rates('broker')),
        cpu: byProcess,
        total,
        costMs: partCostMs(variant, brokerTotal, total),
      };
    });
    const cell = (n: number | undefined) => (n === undefined ? '-' : n);
    const benchWorkersRow = (name: string, cpu: Record<string, number>) => [
      name,
      '-',
      cell(cpu['bench workers']),
      cell(cpu.temporal),
      '-',
      cell(cpu.load),
    ];
    const cpuRows = [
      ...(baselineCpu ? [benchWorkersRow('baseline lifecycle', baselineCpu)] : []),
      benchWorkersRow('floor lifecycle', floorCpu),
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
      `CPU ms per lifecycle (user + system, /proc; "worker" is the bench workers' process for the floor${WITH_BASELINE ? ' and the baseline' : ''})\n`,
    );
    process.stdout.write(`${renderTable(['run', 'API', 'worker', 'Temporal', 'simulators', 'load'], cpuRows)}\n\n`);
    if (bill.length > 0) {
      process.stdout.write(
        `The bill: the broker beside variants of itself, each with one part switched, in the same ${ROUNDS} rounds (CPU ms per lifecycle; "part costs" is broker - variant for a part switched off, variant - broker for one switched on)\n`,
      );
      const billRows = [
        [
          'broker (as benchmarked)',
          '-',
          lifecyclePerS,
          1,
          brokerCpu.api!,
          brokerCpu.worker!,
          brokerCpu.temporal!,
          brokerCpu.simulators!,
          brokerTotal,
          '-',
        ],
        ...bill.map((b) => [
          b.variant.name,
          `${b.variant.part} ${b.variant.switched}`,
          b.perSecond,
          b.vsBroker.median,
          b.cpu.api!,
          b.cpu.worker!,
          b.cpu.temporal!,
          b.cpu.simulators!,
          b.total,
          b.costMs,
        ]),
      ];
      process.stdout.write(
        `${renderTable(['run', 'part', 'per s', 'vs broker', 'API', 'worker', 'Temporal', 'simulators', 'total', 'part costs'], billRows)}\n\n`,
      );
    }

    const tallies = new Map<Side, HistoryTally>(sides.map((side) => [side, mergeTallies(phase(side).map(({ history }) => history))]));
    const tally = (side: Side): HistoryTally => tallies.get(side) ?? mergeTallies([]);
    const labels = [...new Set(sides.flatMap((side) => Object.keys(tally(side).perWorkflow)))].sort();
    const mean = (side: Side, label: string) => tally(side).perWorkflow[label] ?? 0;
    const meanTotal = (side: Side) => Object.values(tally(side).perWorkflow).reduce((a, b) => a + b, 0);
    const eventRow = (label: string, of: (side: Side) => number) => [
      label,
      ...(WITH_BASELINE ? [round(of('baseline'), 2)] : []),
      round(of('floor'), 2),
      round(of('broker'), 2),
      round(of('broker') - of('floor'), 2),
    ];
    process.stdout.write(
      `History events per completed lifecycle, by event (mean per lifecycle, every run of each workflow; ${lifecycles('broker')} broker and ${lifecycles('floor')} floor lifecycles read)\n`,
    );
    process.stdout.write(
      `${renderTable(
        ['event', ...(WITH_BASELINE ? ['baseline'] : []), 'floor', 'broker', 'broker - floor'],
        [...labels.map((label) => eventRow(label, (side) => mean(side, label))), eventRow('all events', meanTotal)],
      )}\n\n`,
    );
    const brokerEvents = eventsPerWorkflow(tally('broker'));
    const floorEvents = eventsPerWorkflow(tally('floor'));
    const baselineEvents = WITH_BASELINE ? eventsPerWorkflow(tally('baseline')) : undefined;
    const range = (e: { min: number; max: number }) => `${e.min}-${e.max}`;
    process.stdout.write(
      `history events per completed lifecycle (median, range): broker ${brokerEvents.median} (${range(brokerEvents)}), floor ${floorEvents.median} (${range(floorEvents)})${baselineEvents ? `, baseline ${baselineEvents.median} (${range(baselineEvents)})` : ''}\n`,
    );
    process.stdout.write(
      `create one at a time: broker p50 ${round(createC1P50, 1)} ms - (floor ${round(floorC1P50, 1)} + provider ${round(providerP50, 1)}) = ${round(overFloor, 1)} ms over the floor (target <= 25)\n`,
    );
    process.stdout.write(
      `lifecycles: ${round(vsFloor.median, 3)}x the floor (target >= 0.8), the median of the ${ROUNDS} rounds' ratios; CPU per lifecycle ${round(cpuVsFloor, 2)}x the floor's (issue 34: <= 1.4)${vsBaseline ? `; ${round(vsBaseline.median, 3)}x the baseline (context, no target)` : ''}\n\n`,
    );
    const ms = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(' ', '_'), round(v, 2)]));
    const perEvent = (tally: HistoryTally) => Object.fromEntries(Object.entries(tally.perWorkflow).map(([k, v]) => [k, round(v, 2)]));
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
        rounds: ROUNDS,
        round_s: ROUND_S,
        lifecycle_per_s: round(lifecyclePerS, 2),
        floor_lifecycle_per_s: round(floorPerS, 2),
        lifecycle_vs_floor: round(vsFloor.median, 3),
        lifecycle_vs_floor_rounds: vsFloor.ratios.map((r) => round(r, 3)),
        lifecycle_per_s_rounds: rates('broker').map((r) => round(r, 2)),
        floor_lifecycle_per_s_rounds: rates('floor').map((r) => round(r, 2)),
        cpu_ms_per_lifecycle: ms(brokerCpu),
        floor_cpu_ms_per_lifecycle: ms(floorCpu),
        cpu_vs_floor: round(cpuVsFloor, 3),
        history_events_per_order: brokerEvents.median,
        history_events_per_order_range: [brokerEvents.min, brokerEvents.max],
        floor_history_events_per_lifecycle: floorEvents.median,
        floor_history_events_per_lifecycle_range: [floorEvents.min, floorEvents.max],
        history_events_by_type: perEvent(tally('broker')),
        floor_history_events_by_type: perEvent(tally('floor')),
        ...(vsBaseline && baselineCpu && baselineEvents
          ? {
              baseline_lifecycle_per_s: round(perSecond('baseline'), 2),
              lifecycle_vs_baseline: round(vsBaseline.median, 3),
              lifecycle_vs_baseline_rounds: vsBaseline.ratios.map((r) => round(r, 3)),
              baseline_cpu_ms_per_lifecycle: ms(baselineCpu),
              baseline_history_events_per_lifecycle: baselineEvents.median,
            }
          : {}),
        run_seconds: round(runSeconds, 1),
        load_average_1m_at_start: loadAtStart,
        steal_pct: round((100 * (ticksAtEnd.steal - ticksAtStart.steal)) / (ticksAtEnd.total - ticksAtStart.total), 1),
        git_head: tree.head,
        working_tree_changed: tree.dirty,
        order_workflow_local_activities: tree.orderWorkflowLocalActivities,
        // Every figure above was measured beside these stacks (idle while another side runs).
        variants: VARIANTS.map((v) => v.name),
        ...(bill.length > 0
          ? {
              bill: Object.fromEntries(
                bill.map((b) => [
                  b.variant.name,
                  {
                    part: b.variant.part,
                    switched: b.variant.switched,
                    lifecycle_per_s: round(b.perSecond, 2),
                    vs_broker: round(b.vsBroker.median, 3),
                    vs_broker_rounds: b.vsBroker.ratios.map((r) => round(r, 3)),
                    cpu_ms_per_lifecycle: ms(b.cpu),
                    cpu_ms_total: round(b.total, 2),
                    part_cost_ms: round(b.costMs, 2),
                  },
                ]),
              ),
            }
          : {}),
      })}\n`,
    );
    finished = true;
  } finally {
    // The worker first (it would retry against a stopped API or simulator), then the rest.
    for (const kind of ['worker', 'bench workers', 'api', 'simulators']) {
      for (const child of children.filter((c) => c.name === kind || c.name.startsWith(`${kind}@`))) await child.stop();
    }
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
