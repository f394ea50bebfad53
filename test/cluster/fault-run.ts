/**
 * The production rehearsal (issue 18), `npm run test:cluster`: a steady load of orders through every
 * provider simulator, via the load balancer, while processes are killed and a provider turns slow
 * then down; then the invariants, printed as tables; the exit code says whether they all held. Last,
 * the providers' books are made to differ and every provider's window of the run is reconciled:
 * each seeded mismatch must be reported, and nothing else (test/cluster/reconciliation-check.ts).
 * Beside the buys, a few sell orders per provider with a sell flow (test/cluster/sell-plan.ts), spread
 * over the load, each driven through its provider's sell checkout to a planned final status.
 *
 *   npm run test:cluster                # builds dist/ first, as npm run cluster does
 *   npm run test:cluster -- --local     # against the in-process local stack (no process faults)
 *
 * Environment: FAULT_RUN_RATE (orders a second, default 1), FAULT_RUN_ORDERS (at most, default 450),
 * FAULT_RUN_PROVIDER (the provider made slow then down, default banxa), FAULT_RUN_TIME_SCALE (every
 * time of the schedule multiplied, default 1; 0.25 for a quick try).
 */
import { readFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { screenshotWorkflowList } from '../../scripts/cluster/ui-screenshot';
import { orderWorkflowId } from '../../src/temporal/order-contract';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { BrokerClient } from './broker-client';
import { LAST_FAULT_ENDS_S, runFaultSchedule, type FaultTarget } from './fault-schedule';
import { drain } from './final-state';
import { answersTable, healingTable } from './healing';
import { newIntegrator, writeIntegratorsFile } from './integrators';
import { acceptable, allChecks, type Check, type RunEvidence } from './invariants';
import { startLocalCluster, type RunCluster } from './local-cluster';
import { runLoad } from './load-generator';
import { PROVIDERS } from './order-plan';
import { checkReconciliation } from './reconciliation-check';
import { table } from './report';
import { drainSells } from './sell-final-state';
import { sellChecks, type SellEvidence } from './sell-invariants';
import { runSellLoad } from './sell-load';
import { discoverSellMarket, planSells, SELL_PROVIDERS, type SellMarket } from './sell-plan';
import { SimulatorControl } from './simulator-control';
import { Stopper } from './stopper';

const LOCAL = process.argv.includes('--local');
const DATA_DIR = resolve('.data/cluster-test');
const INTEGRATORS_FILE = resolve('.data/cluster-test-integrators.json');
const RATE = Number(process.env.FAULT_RUN_RATE ?? 1);
const MAX_ORDERS = Number(process.env.FAULT_RUN_ORDERS ?? 450);
const SLOW_PROVIDER = process.env.FAULT_RUN_PROVIDER ?? 'banxa';
const TIME_SCALE = Number(process.env.FAULT_RUN_TIME_SCALE ?? 1);
/** The load goes on this long after the last fault ended, so that its healing shows. */
const AFTER_LAST_FAULT_S = 30;
const DRAIN_S = 150;
/** The last sell order starts this long before the load ends: its walk is over well before the drain's end. */
const SELL_LAST_START_BEFORE_END_S = 60;

/** Fast order timings and room for the run's traffic from one address. */
const BROKER_ENV: Record<string, string> = {
  ORDER_POLL_INITIAL_SECONDS: '2',
  ORDER_POLL_MAX_SECONDS: '8',
  ORDER_SETTLED_GRACE_SECONDS: '30',
  ORDER_PAYMENT_WINDOW_SECONDS: '900',
  OFFER_TTL_SECONDS: '600',
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,2,4,8,15,30',
  WEBHOOK_TIMEOUT_SECONDS: '5',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  RATE_LIMIT_REQUESTS: '1000000',
  RATE_LIMIT_IP_REQUESTS: '1000000000',
};

const t0 = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}`);

async function startRunCluster(integratorsFile: string): Promise<RunCluster> {
  if (LOCAL) return startLocalCluster({ integratorsFile, brokerEnv: BROKER_ENV });
  const { startCluster } = await import('../../scripts/cluster/cluster');
  return startCluster({
    dataDir: DATA_DIR,
    portOffset: 100,
    integratorsFile,
    brokerEnv: BROKER_ENV,
    log: (line) => log(`cluster: ${line}`),
  });
}

async function main(): Promise<number> {
  const stopper = new Stopper();
  const integrator = newIntegrator();
  const receiver = new IntegratorReceiver(integrator.webhookSecret);
  let cluster: RunCluster | undefined;
  let stopping: Promise<void> | undefined;
  const cleanUp = () =>
    (stopping ??= (async () => {
      stopper.stop();
      await cluster?.stop().catch((err: unknown) => log(`cluster stop failed: ${(err as Error).message}`));
      await receiver.stop();
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void cleanUp().then(() => process.exit(130));
    });
  }

  try {
    await rm(DATA_DIR, { recursive: true, force: true });
    await writeIntegratorsFile(INTEGRATORS_FILE, integrator, await receiver.start());
    log(LOCAL ? 'starting the local stack' : `starting the cluster in ${DATA_DIR}`);
    cluster = await startRunCluster(INTEGRATORS_FILE);
    const { addresses } = cluster;
    log(`cluster up: API ${addresses.api}, simulators ${addresses.simulators}, Temporal UI ${addresses.ui}`);

    const client = new BrokerClient(addresses.api, integrator.apiKey);
    const simulators = new SimulatorControl(addresses.simulators);
    const runId = Date.now().toString(36);
    const sellPlans = planSells(runId, await sellMarkets(addresses.api, integrator.apiKey));
    const startedAt = Date.now();
    const loadSeconds = LAST_FAULT_ENDS_S * TIME_SCALE + AFTER_LAST_FAULT_S;
    log(`load: ${RATE}/s for ${loadSeconds} s (at most ${MAX_ORDERS} orders); ${SLOW_PROVIDER} will be slow then down`);
    log(`sell load: ${sellPlans.length} sell orders over ${SELL_PROVIDERS.length} providers with a sell flow, spread over the load`);
    const [records, faults, sells] = await Promise.all([
      runLoad({
        runId,
        ratePerSecond: RATE,
        durationMs: loadSeconds * 1000,
        maxOrders: MAX_ORDERS,
        client,
        simulators,
        placeDeadlineMs: 180_000,
        stopper,
        log,
      }),
      runFaultSchedule(startedAt, {
        cluster: faultTarget(cluster),
        simulators,
        provider: SLOW_PROVIDER,
        stopper,
        timeScale: TIME_SCALE,
        log,
      }),
      runSellLoad(sellPlans, {
        spreadMs: Math.max(0, loadSeconds - SELL_LAST_START_BEFORE_END_S) * 1000,
        client,
        simulators,
        placeDeadlineMs: 180_000,
        stopper,
        log,
      }),
    ]);
    log(
      `drain: following ${records.filter((r) => r.orderId).length} orders and ${sells.filter((r) => r.orderId).length} sell orders for at most ${DRAIN_S} s`,
    );
    const drainDeadline = Date.now() + DRAIN_S * 1000;
    const [finals, sellFinals] = await Promise.all([
      drain(records, client, receiver, drainDeadline, stopper),
      drainSells(sells, client, receiver, drainDeadline, stopper),
    ]);
    log('drain: done');
    const providerOrders = new Map(await Promise.all(PROVIDERS.map(async (code) => [code, await simulators.orders(code)] as const)));

    const evidence: RunEvidence = { records, finals, providerOrders, webhooks: receiver.received, answers: client.answers, faults };
    const sellEvidence: SellEvidence = { sells, sellFinals, providerOrders, webhooks: receiver.received };
    const checks = [...allChecks(evidence), ...sellChecks(sellEvidence)];
    if (!LOCAL) checks.push(await checkWebUi(addresses.ui, integrator.id, evidence));
    // Last: it changes the providers' books, which the checks above read as they are.
    if (!LOCAL) {
      log("reconciliation: seeding mismatches in the providers' books and reconciling the run's window");
      const secrets = JSON.parse(await readFile(resolve(DATA_DIR, 'secrets.json'), 'utf8')) as { ENCRYPTION_KEYS: string };
      checks.push(
        await checkReconciliation({
          temporalAddress: addresses.temporal,
          encryptionKeys: secrets.ENCRYPTION_KEYS,
          simulatorsUrl: addresses.simulators,
          providers: PROVIDERS,
          records,
          finals,
          fromMs: startedAt - 60_000,
          marginMs: Number(BROKER_ENV.ORDER_PAYMENT_WINDOW_SECONDS) * 1000,
          log,
        }),
      );
    }
    console.log(`\nFaults and healing\n${healingTable(evidence)}`);
    console.log(
      `\nHTTP answers of the broker (through the load balancer)\n${answersTable(evidence, (a) => acceptable(a, records, faults))}`,
    );
    console.log(`\nOrders by provider\n${ordersTable(evidence)}`);
    console.log(`\nSell orders by provider\n${sellOrdersTable(sellEvidence)}`);
    const processes = cluster.processes();
    if (processes.length > 0) {
      console.log(
        `\nProcesses\n${table(
          ['process', 'restarts', 'CPU'],
          processes.map((p) => [p.name, p.restarts, `${(p.cpuMs / 1000).toFixed(1)} s`]),
        )}`,
      );
    }
    console.log(
      `\nInvariants\n${table(
        ['invariant', 'result', 'summary'],
        checks.map((c) => [c.name, c.ok ? 'ok' : 'FAILED', c.summary]),
      )}`,
    );
    for (const c of checks.filter((x) => !x.ok)) {
      console.log(`\n${c.name}: ${c.failures.length} failure(s)`);
      for (const line of c.failures.slice(0, 40)) console.log(`  - ${line}`);
      if (c.failures.length > 40) console.log(`  ... ${c.failures.length - 40} more`);
    }
    return checks.every((c) => c.ok) ? 0 : 1;
  } finally {
    log('stopping');
    await cleanUp();
  }
}

/**
 * The cluster's Temporal Web UI lists orders by the broker's search attributes: the integrator's
 * completed orders, a few of which must show. The screenshot goes to CLUSTER_UI_SCREENSHOT when set
 * (docs/images/cluster-web-ui.png is one), else into the run's data directory.
 */
async function checkWebUi(uiUrl: string, integratorId: string, { records, finals }: RunEvidence): Promise<Check> {
  const name = 'the Web UI lists the orders by search attributes';
  const complete = records.filter((r) => r.orderId && finals.get(r.orderId)?.status === 'complete').slice(-3);
  const file = resolve(process.env.CLUSTER_UI_SCREENSHOT ?? `${DATA_DIR}/web-ui.png`);
  try {
    await screenshotWorkflowList({
      uiUrl,
      namespace: 'default',
      query: `IntegratorId='${integratorId}' AND OrderStatus='complete'`,
      expectRows: complete.map((r) => orderWorkflowId(r.orderId!)),
      file,
    });
    return { name, ok: complete.length > 0, summary: `${complete.length} completed orders found in the list; ${file}`, failures: [] };
  } catch (err) {
    return { name, ok: false, summary: 'the list did not show them', failures: [(err as Error).message] };
  }
}

/**
 * The market each provider with a sell flow buys in (through the API, before the load and its
 * faults, by a client whose answers are not the run's); a provider offering none is left out, and said so.
 */
async function sellMarkets(apiUrl: string, apiKey: string): Promise<Map<string, SellMarket>> {
  const probe = new BrokerClient(apiUrl, apiKey);
  const markets = new Map<string, SellMarket>();
  for (const code of SELL_PROVIDERS) {
    const market = await discoverSellMarket(probe, code);
    if (market) markets.set(code, market);
    log(
      market
        ? `sell: ${code} buys ${market.from_amount} of currency ${market.from_currency} for ${market.to_currency} by ${market.payout_method} in ${market.country_code}`
        : `sell: ${code} offered no sell in the places tried; no sell orders for it`,
    );
  }
  return markets;
}

/** What the schedule kills and restarts: the cluster, unless it cannot (the local stack). */
function faultTarget(cluster: RunCluster): FaultTarget | undefined {
  const { kill, restart, stopProcess, startProcess } = cluster;
  return kill && restart && stopProcess && startProcess
    ? {
        kill: kill.bind(cluster),
        restart: restart.bind(cluster),
        stopProcess: stopProcess.bind(cluster),
        startProcess: startProcess.bind(cluster),
      }
    : undefined;
}

function ordersTable({ records, finals }: RunEvidence): string {
  const rows = PROVIDERS.map((code) => {
    const mine = records.filter((r) => r.plan.provider === code);
    const acked = mine.filter((r) => r.orderId);
    const final = (status: string) => acked.filter((r) => finals.get(r.orderId!)?.status === status).length;
    const mode = (m: string) => acked.filter((r) => r.plan.webhooks === m).length;
    return [
      code,
      mine.length,
      acked.length,
      final('complete'),
      final('failed'),
      mine.filter((r) => r.refusedWith).length,
      mine.filter((r) => r.noOffer).length,
      mode('drop'),
      mode('duplicate'),
      mode('reorder'),
      mine.filter((r) => r.saw503).length,
    ];
  });
  return table(
    ['provider', 'planned', 'acknowledged', 'complete', 'failed', 'refused', 'no offer', 'dropped', 'duplicated', 'reordered', 'after 503'],
    rows,
  );
}

function sellOrdersTable({ sells, sellFinals }: SellEvidence): string {
  const providers = [...new Set(sells.map((r) => r.plan.provider))];
  const rows = providers.map((code) => {
    const mine = sells.filter((r) => r.plan.provider === code);
    const acked = mine.filter((r) => r.orderId);
    const final = (status: string) => acked.filter((r) => sellFinals.get(r.orderId!)?.status === status).length;
    const mode = (m: string) => acked.filter((r) => r.plan.webhooks === m).length;
    return [
      code,
      mine.length,
      acked.length,
      final('complete'),
      final('failed'),
      final('expired'),
      final('refunded'),
      mine.filter((r) => r.notPlayable).length,
      mine.filter((r) => r.noOffer).length,
      acked.filter((r) => r.deposits.length > 0).length,
      mode('drop'),
      mode('duplicate'),
      mine.filter((r) => r.saw503).length,
    ];
  });
  return table(
    [
      'provider',
      'planned',
      'acknowledged',
      'complete',
      'failed',
      'expired',
      'refunded',
      'not playable',
      'no offer',
      'deposit read',
      'dropped',
      'duplicated',
      'after 503',
    ],
    rows,
  );
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
