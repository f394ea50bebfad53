/**
 * `npm run bench:isolation`: whether one integrator can slow another. Integrator B's latencies
 * (offers, order reads, first webhook) are measured alone, then while another integrator loads one
 * shared resource each, within its own rate limit:
 *
 *   hang    A's webhook endpoint takes every delivery and never answers, while A has 200 open orders
 *   search  A runs 10 searches at once, over and over, across its 1,000 orders
 *   burst   A spends its whole rate limit on offers at once, against a provider that answers slowly
 *
 * One Temporal dev server; the broker's API and worker from their production entries, the provider
 * simulators and A's searches and offers (bench/isolation-load.ts) each in their own child process,
 * so that B's timings never share an event loop with A's client. Each attack is made by an integrator
 * of its own (A's three faces), so that one attack's rate-limit window never shapes the next. Prints
 * a table; the last line of stdout is one JSON object (bench/README.md).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { sha256Hex } from '../src/config/integrators';
import { orderWorkflowId } from '../src/temporal/order-contract';
import { WORKFLOW_BUNDLE_OPTIONS } from '../src/worker/build';
import { apiNodeFlags } from './lib/api-node-flags';
import { percentile, runConcurrently } from './lib/concurrency';
import { FirstWebhookReceiver, SwitchableEndpoint } from './lib/integrator-endpoints';
import { Broker, pause, type Integrator } from './lib/isolation-client';
import { machineTicks } from './lib/load';
import { startBenchDevServer } from './lib/dev-server';
import { freePort, killAll, startChild, waitFor, type ChildHandle } from './lib/order-children';
import { renderTable, round } from './lib/table';

const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
/** A's open orders while its endpoint hangs, and the orders its searches run over. */
const HANG_ORDERS = int('BENCH_ISOLATION_HANG_ORDERS', 200);
const SEARCH_ORDERS = int('BENCH_ISOLATION_SEARCH_ORDERS', 1000);
const SEARCHES_AT_ONCE = int('BENCH_ISOLATION_SEARCHES', 10);
/** How long each phase measures B, and the pace of B's reads and orders (its offers go one after another). */
const PHASE_S = int('BENCH_ISOLATION_PHASE_S', 30);
const READ_EVERY_MS = int('BENCH_ISOLATION_READ_EVERY_MS', 25);
const WEBHOOK_EVERY_MS = int('BENCH_ISOLATION_WEBHOOK_EVERY_MS', 500);
/** The slow provider's latency (the moonpay simulator), all run long, so that B's offers alone include it. */
const SLOW_PROVIDER = 'moonpay';
const SLOW_MS = int('BENCH_ISOLATION_SLOW_MS', 800);
/**
 * The per-integrator rate limit: the default's 600 requests (RATE_LIMIT_REQUESTS), in a 10 s window
 * instead of 60 s (RATE_LIMIT_WINDOW_SECONDS), so that A's burst comes again every 10 s of B's
 * measurement instead of once.
 */
const RATE_LIMIT = 600;
const RATE_WINDOW_S = 10;
const TIMEOUT_S = int('BENCH_ISOLATION_TIMEOUT_S', 900);
/** The loads to measure B under (all three by default); `alone` is always measured, first. */
const LOADS = ['hang', 'search', 'burst'] as const;
const CHOSEN = (process.env.BENCH_ISOLATION_PHASES ?? LOADS.join(',')).split(',').map((s) => s.trim());
for (const name of CHOSEN) {
  if (!(LOADS as readonly string[]).includes(name)) throw new Error(`BENCH_ISOLATION_PHASES: unknown phase ${name}`);
}
const measures = (load: (typeof LOADS)[number]) => CHOSEN.includes(load);
const QUEUE = 'bench-isolation';

const progress = (message: string) => process.stderr.write(`[bench:isolation] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Orders of `who`, created `concurrency` at a time; their ids. */
async function ordersOf(broker: Broker, who: Integrator, count: number, concurrency = 20): Promise<string[]> {
  const user = `bench-${who.id}-${randomUUID()}`;
  await broker.offerFor(who, user);
  const ids: string[] = [];
  await runConcurrently(count, concurrency, async () => void ids.push((await broker.createOrder(who, user)).id));
  return ids;
}

/** Ends orders the bench no longer needs (they would poll their provider for days); their visibility records stay. */
async function terminate(client: Client, ids: string[]): Promise<void> {
  await runConcurrently(ids.length, 20, async (i) => {
    await client.workflow
      .getHandle(orderWorkflowId(ids[i]!))
      .terminate('bench:isolation: done with it')
      .catch(() => undefined);
  });
}

interface Samples {
  offersMs: number[];
  /** B's offers that carried the slow provider's quote. */
  slowProviderQuoted: number;
  readsMs: number[];
  firstWebhookMs: number[];
  /** The broker API's event-loop delay over the phase. */
  apiEventLoop: { p99Ms: number; maxMs: number };
}

/**
 * B's figures over one phase of `PHASE_S` seconds, three streams side by side so that each one's
 * samples spread over the whole phase (A's loads come in waves): offers one after another (of the
 * sandbox and the slow provider), an order read every `READ_EVERY_MS`, and an order created every
 * `WEBHOOK_EVERY_MS`, timed from its create request to its first webhook at B's endpoint (the
 * webhook often comes before the create's answer, so the create's own latency is part of it).
 */
async function measureB(broker: Broker, client: Client, b: Integrator, receiver: FirstWebhookReceiver): Promise<Samples> {
  const user = `bench-b-${randomUUID()}`;
  await broker.offerFor(b, user);
  const orders = [(await broker.createOrder(b, user)).id];
  await broker.eventLoopDelay();
  const samples: Samples = { offersMs: [], slowProviderQuoted: 0, readsMs: [], firstWebhookMs: [], apiEventLoop: { p99Ms: 0, maxMs: 0 } };
  const ends = performance.now() + PHASE_S * 1000;
  const running = () => performance.now() < ends;
  /** Runs `step` every `everyMs` (or back to back with 0) until the phase ends. */
  const paced = async (everyMs: number, step: (i: number) => Promise<void>) => {
    for (let i = 0; running(); i++) {
      const started = performance.now();
      await step(i);
      await pause(everyMs - (performance.now() - started), running);
    }
  };
  await Promise.all([
    paced(0, async (i) => {
      // Distinct amounts: identical quote calls in flight are made once (docs/decisions.md, "Offers").
      const amount = (100 + i / 100 + Math.random() / 10).toFixed(2);
      const path = broker.offersPath(user, amount, `sandbox,${SLOW_PROVIDER}`);
      const t0 = performance.now();
      const offers = await broker.ok<Record<string, unknown>>(b, path);
      samples.offersMs.push(performance.now() - t0);
      if (offers[SLOW_PROVIDER]) samples.slowProviderQuoted++;
    }),
    paced(READ_EVERY_MS, async (i) => {
      const t0 = performance.now();
      await broker.ok(b, `/api/on_ramp/orders/sandbox?code=${orders[i % orders.length]!}`);
      samples.readsMs.push(performance.now() - t0);
    }),
    paced(WEBHOOK_EVERY_MS, async () => {
      const asked = performance.now();
      const { id } = await broker.createOrder(b, user);
      orders.push(id);
      samples.firstWebhookMs.push((await receiver.firstArrival(id, 60_000)) - asked);
    }),
  ]);
  samples.apiEventLoop = await broker.eventLoopDelay();
  await terminate(client, orders);
  return samples;
}

function loadAverage(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
}

const newIntegrator = (id: string): Integrator => ({ id, key: `bench-${id}-${randomBytes(12).toString('hex')}` });
const webhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

async function main(): Promise<void> {
  const runStarted = performance.now();
  const ticksAtStart = machineTicks();
  const loadAtStart = loadAverage();
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  progress(`load average ${loadAtStart}; starting the Temporal dev server and bundling workflows`);
  const { env } = await startBenchDevServer({ timeoutS: TIMEOUT_S, timeoutVariable: 'BENCH_ISOLATION_TIMEOUT_S', progress });

  const receiverB = new FirstWebhookReceiver();
  const endpointA = new SwitchableEndpoint();
  const [urlB, urlA] = [await receiverB.start(), await endpointA.start()];
  const b = newIntegrator('b');
  const hanging = newIntegrator('a_hang');
  const searching = newIntegrator('a_search');
  const bursting = newIntegrator('a_burst');
  const dir = mkdtempSync(join(tmpdir(), 'bench-isolation-'));
  const integratorsFile = join(dir, 'integrators.json');
  writeFileSync(
    integratorsFile,
    JSON.stringify({
      integrators: [
        { id: b.id, name: 'B, measured', api_key_sha256: [sha256Hex(b.key)], webhook_url: urlB, webhook_secret: webhookSecret() },
        ...[hanging, searching, bursting].map((a) => ({
          id: a.id,
          name: `A (${a.id})`,
          api_key_sha256: [sha256Hex(a.key)],
          webhook_url: urlA,
          webhook_secret: webhookSecret(),
        })),
      ],
    }),
  );
  const bundle = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: new DefaultLogger('ERROR') });
  writeFileSync(join(dir, 'order-bundle.js'), bundle.code);

  const [apiPort, simPort] = [await freePort(), await freePort()];
  const broker = new Broker(`http://127.0.0.1:${apiPort}`);
  const simUrl = `http://127.0.0.1:${simPort}`;
  const brokerEnv: Record<string, string> = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    PUBLIC_BASE_URL: broker.url,
    SANDBOX_URL: simUrl,
    ONRAMP_INTEGRATORS_FILE: integratorsFile,
    RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
    RATE_LIMIT_WINDOW_SECONDS: String(RATE_WINDOW_S),
    // Every client here is 127.0.0.1: the per-address limit would make the integrators one.
    RATE_LIMIT_IP_REQUESTS: '0',
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_TASK_QUEUE: QUEUE,
    WORKFLOW_BUNDLE_PATH: join(dir, 'order-bundle.js'),
  };
  const children: ChildHandle[] = [];
  let finished = false;
  try {
    progress('starting the simulators, the API and the worker');
    children.push(
      startChild(
        'simulators',
        'bench/orders-child.ts',
        ['sim'],
        { NODE_ENV: 'development', SIMULATOR_PORT: String(simPort), BROKER_URL: broker.url },
        join(dir, 'simulators.log'),
      ),
      // BENCH_CHILD_NODE_ARGS: extra node flags for the API, e.g. "--trace-gc" or "--cpu-prof --cpu-prof-dir=/tmp/prof".
      startChild('api', 'src/api/main.ts', [], brokerEnv, join(dir, 'api.log'), [
        ...apiNodeFlags(),
        ...(process.env.BENCH_CHILD_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== ''),
      ]),
      startChild('worker', 'src/worker/main.ts', [], brokerEnv, join(dir, 'worker.log')),
    );
    await Promise.all([
      waitFor('simulators', async () => (await fetch(`${simUrl}/`)).status > 0),
      waitFor('api', async () => (await fetch(`${broker.url}/healthz`)).ok),
      waitFor('worker', async () => {
        const { pollers } = await env.client.workflowService.describeTaskQueue({
          namespace: 'default',
          taskQueue: { name: QUEUE },
          taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        });
        return pollers.length > 0;
      }),
    ]);
    const slow = await fetch(`${simUrl}/${SLOW_PROVIDER}/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: SLOW_MS }),
    });
    if (!slow.ok) throw new Error(`${SLOW_PROVIDER} faults: HTTP ${slow.status}`);

    if (measures('search')) {
      progress(`A's ${SEARCH_ORDERS} orders for its searches (then ended: they stay in visibility)`);
      const searchOrders = await ordersOf(broker, searching, SEARCH_ORDERS);
      await terminate(env.client, searchOrders);
      await waitFor(
        'visibility of the searched orders',
        async () => (await env.client.workflow.count(`IntegratorId = '${searching.id}'`)).count >= SEARCH_ORDERS,
        120_000,
      );
    }

    progress('warming up B');
    await measureB(broker, env.client, b, receiverB);

    const phases: Record<string, Samples> = {};
    const attacks: Record<string, unknown> = {};
    progress('B alone');
    phases.alone = await measureB(broker, env.client, b, receiverB);

    if (measures('hang')) {
      progress(`hang: A's endpoint hangs; A creates ${HANG_ORDERS} orders`);
      endpointA.hanging = true;
      const hangOrders = await ordersOf(broker, hanging, HANG_ORDERS);
      phases.hang = await measureB(broker, env.client, b, receiverB);
      attacks.hang = { orders: hangOrders.length, deliveries_held: endpointA.held };
      await terminate(env.client, hangOrders);
      endpointA.release();
    }
    /** B's figures while A's load child runs `role`; what A sent. */
    const underLoad = async (role: 'search' | 'burst', a: Integrator, extra: Record<string, string>) => {
      const resultPath = join(dir, `${role}.json`);
      const child = startChild(
        `A's ${role}`,
        'bench/isolation-load.ts',
        [],
        { ROLE: role, API_URL: broker.url, A_ID: a.id, A_KEY: a.key, RESULT_PATH: resultPath, ...extra },
        join(dir, `${role}.log`),
      );
      // The child's first requests, before B starts: A's load is on for the whole phase.
      await sleep(1000);
      const samples = await measureB(broker, env.client, b, receiverB);
      await child.stop();
      return { samples, sent: JSON.parse(readFileSync(resultPath, 'utf8')) as unknown };
    };

    if (measures('search')) {
      progress(`search: A runs ${SEARCHES_AT_ONCE} searches at once over its ${SEARCH_ORDERS} orders`);
      const search = await underLoad('search', searching, { SEARCHES: String(SEARCHES_AT_ONCE) });
      phases.search = search.samples;
      attacks.search = search.sent;
    }

    if (measures('burst')) {
      progress(`burst: A spends its rate limit (${RATE_LIMIT} per ${RATE_WINDOW_S} s) on offers against ${SLOW_PROVIDER} at ${SLOW_MS} ms`);
      const burst = await underLoad('burst', bursting, { SLOW_PROVIDER });
      phases.burst = burst.samples;
      attacks.burst = burst.sent;
    }

    const p = (values: number[], q: number) => round(percentile(values, q), 1);
    const alone = phases.alone;
    const figures: Record<string, Record<string, number>> = {};
    const rows: (string | number)[][] = [];
    const checks: Record<string, boolean> = {};
    for (const [name, samples] of Object.entries(phases)) {
      const entry: Record<string, number> = {};
      for (const [figure, values, aloneValues] of [
        ['offers', samples.offersMs, alone.offersMs],
        ['order_read', samples.readsMs, alone.readsMs],
        ['first_webhook', samples.firstWebhookMs, alone.firstWebhookMs],
      ] as const) {
        const [p50, p99] = [p(values, 50), p(values, 99)];
        const [r50, r99] = [round(p50 / p(aloneValues, 50), 2), round(p99 / p(aloneValues, 99), 2)];
        entry[`${figure}_p50_ms`] = p50;
        entry[`${figure}_p99_ms`] = p99;
        if (name !== 'alone') {
          entry[`${figure}_p50_ratio`] = r50;
          entry[`${figure}_p99_ratio`] = r99;
          checks[`${name}_${figure}`] = r50 <= 1.5 && r99 <= 2;
        }
        rows.push([name, figure, values.length, p50, p99, name === 'alone' ? '-' : r50, name === 'alone' ? '-' : r99]);
      }
      entry.slow_provider_quoted_pct = round((100 * samples.slowProviderQuoted) / samples.offersMs.length, 1);
      entry.api_event_loop_delay_p99_ms = round(samples.apiEventLoop.p99Ms, 1);
      entry.api_event_loop_delay_max_ms = round(samples.apiEventLoop.maxMs, 1);
      figures[name] = entry;
    }
    process.stdout.write(`${renderTable(['phase', 'B figure', 'samples', 'p50 ms', 'p99 ms', 'p50 / alone', 'p99 / alone'], rows)}\n\n`);
    process.stdout.write(
      `B's offers carrying ${SLOW_PROVIDER}'s quote: ${Object.entries(figures)
        .map(([name, f]) => `${name} ${f.slow_provider_quoted_pct} %`)
        .join(', ')}\n`,
    );
    process.stdout.write(
      `the broker API's event-loop delay, p99 / max ms: ${Object.entries(figures)
        .map(([name, f]) => `${name} ${f.api_event_loop_delay_p99_ms} / ${f.api_event_loop_delay_max_ms}`)
        .join(', ')}\n`,
    );
    process.stdout.write(`A's load: ${JSON.stringify(attacks)}\n`);
    process.stdout.write(
      `target: each p50 within 1.5x alone, each p99 within 2x: ${Object.values(checks).every(Boolean) ? 'met' : 'NOT met'}\n\n`,
    );
    const ticksAtEnd = machineTicks();
    process.stdout.write(
      `${JSON.stringify({
        ...figures,
        attacks,
        targets_met: checks,
        slow_provider_ms: SLOW_MS,
        run_seconds: round((performance.now() - runStarted) / 1000, 1),
        load_average_1m_at_start: loadAtStart,
        steal_pct: round((100 * (ticksAtEnd.steal - ticksAtStart.steal)) / (ticksAtEnd.total - ticksAtStart.total), 1),
      })}\n`,
    );
    finished = true;
  } finally {
    for (const name of ['worker', 'api', 'simulators']) await children.find((c) => c.name === name)?.stop();
    await receiverB.stop();
    await endpointA.stop();
    await env.teardown();
    if (finished && process.env.BENCH_ISOLATION_KEEP_LOGS !== '1') rmSync(dir, { recursive: true, force: true });
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
