/**
 * `npm run bench:conversion`: whether offers ranked by what completes deliver more crypto than offers
 * ranked by price (issue 33). Simulated customers, each taking the first offer, go through the real
 * API, order workflows and provider simulators of one in-process stack (src/dev/local-stack.ts) on a
 * Temporal dev server; each simulator's `completionRate` switch decides how many of its paid orders
 * complete (the rest fail as that provider's declined payment), drawn from a seeded source so that
 * every run, and both arms of a scenario, draw alike. Each arm has a Temporal server and a stack of
 * its own: the ranking starts with no history and cannot rebuild another arm's.
 *
 *   unreliable  five providers within 3 % on price, the cheapest completing 60 %, the others 85–95 %
 *   equal       the same five, every one completing 90 %
 *   outage      as `equal`, ranked; the recommended provider fails every order creation for a while
 *
 * and offers latency with ranking on and off, interleaved, on the `unreliable` ranked arm's
 * statistics. Prints tables; the last line of stdout is one JSON object (bench/README.md).
 */
import BigNumber from 'bignumber.js';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { ensureTemporalCli } from '../scripts/lib/temporal-cli';
import { devServerDynamicConfigArgs } from '../scripts/lib/temporal-dynamic-config';
import { startLocalStack, type LocalStack } from '../src/dev/local-stack';
import { isSettled, type OrderStatus } from '../src/domain/order-status';
import { createLogger } from '../src/logging';
import { ORDER_SEARCH_ATTRIBUTES } from '../src/temporal/order-contract';
import { WORKFLOW_BUNDLE_OPTIONS } from '../src/worker/build';
import { currencyId } from '../test/helpers/currencies';
import { TEST_API_KEY, testConfig } from '../test/helpers/config';
import { percentile } from './lib/concurrency';
import { runBench } from './lib/run-bench';
import { seededRandom } from './lib/seeded-random';
import { renderTable, round } from './lib/table';

const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SEED = int('BENCH_CONVERSION_SEED', 33);
/** Checkouts per arm of the `unreliable` and `equal` scenarios, and the customers in flight at once. */
const CHECKOUTS = int('BENCH_CONVERSION_CHECKOUTS', 300);
const CONCURRENCY = int('BENCH_CONVERSION_CONCURRENCY', 6);
/** The outage: it begins once this many customers have started, lasts OUTAGE_S, and the run goes on until the provider is back (at most RECOVERY_MAX_S). */
const OUTAGE_AFTER = int('BENCH_CONVERSION_OUTAGE_AFTER', 100);
const OUTAGE_S = int('BENCH_CONVERSION_OUTAGE_S', 60);
const RECOVERY_MAX_S = int('BENCH_CONVERSION_RECOVERY_MAX_S', 180);
/** "Back in offers" = in every offers answer (asked every 500 ms) for this long. */
const BACK_FOR_S = int('BENCH_CONVERSION_BACK_FOR_S', 10);
/** Offers requests of each kind in the latency comparison, one at a time, on and off alternating. */
const LATENCY_REQUESTS = int('BENCH_CONVERSION_LATENCY_REQUESTS', 1500);
/**
 * How often the API reads the statistics again. The default (5 s) is nothing beside orders that take
 * minutes; here an order's whole life takes about a second, so the read is made as much shorter.
 */
const REFRESH_MS = int('BENCH_CONVERSION_REFRESH_MS', 500);
const TIMEOUT_S = int('BENCH_CONVERSION_TIMEOUT_S', 1500);
const ORDER_FINAL_TIMEOUT_MS = 60_000;

/** The market: GBP 1,000 by card in GB for BTC, where these five providers' offers lie within 3 %. */
const PROVIDERS = ['revolut', 'banxa', 'ramp', 'alchemypay', 'sandbox'] as const;
const MARKET = { fiat: 'GBP', crypto: 'BTC', amount: '1000', country: 'GB', paymentMethod: 'card' } as const;
const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
/** `unreliable`: the completion rates of the providers other than the cheapest, in order of price (best first). */
const OTHERS_RATES = [0.9, 0.85, 0.95, 0.9];
const CHEAPEST_RATE = 0.6;
const EQUAL_RATE = 0.9;

const progress = (message: string) => process.stderr.write(`[bench:conversion] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Offers = Record<string, { amount_expected_to?: string; error?: { code: string }; ranking?: { rank: number; score: string } }>;

interface Creation {
  provider: string;
  /** When the order request was sent. */
  atMs: number;
  ok: boolean;
  code?: string;
}

interface Checkout {
  provider?: string;
  /** The order's final status, or why there was no order. */
  outcome: string;
  delivered: BigNumber;
}

interface CreatedAnswer {
  id?: string;
  redirect_url?: string;
  code?: string;
  alternatives?: { provider_code: string }[];
}

interface ArmResult {
  name: string;
  ranked: boolean;
  checkouts: Checkout[];
  creations: Creation[];
  seconds: number;
}

async function api<T>(stack: LocalStack, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': TEST_API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const offersPath = (user: string, ranked: boolean) =>
  `/api/on_ramp/offers?${new URLSearchParams({
    external_user_id: user,
    currency_from: String(currencyId(MARKET.fiat)),
    currency_to: String(currencyId(MARKET.crypto, 'bitcoin')),
    amount_from: MARKET.amount,
    country: MARKET.country,
    payment_method: MARKET.paymentMethod,
    provider_codes: PROVIDERS.join(','),
    ...(ranked ? {} : { ranking: 'off' }),
  }).toString()}`;

/** The offer a customer takes: the recommended one (rank 1) when ranked, the most crypto otherwise. */
export function firstOffer(offers: Offers, ranked: boolean): string | undefined {
  const live = Object.entries(offers).filter(([, offer]) => offer.amount_expected_to !== undefined);
  if (ranked) return live.find(([, offer]) => offer.ranking?.rank === 1)?.[0];
  let best: [string, BigNumber] | undefined;
  for (const [code, offer] of live) {
    const amount = new BigNumber(offer.amount_expected_to!);
    if (!best || amount.gt(best[1])) best = [code, amount];
  }
  return best?.[0];
}

interface Stage {
  name: string;
  env: TestWorkflowEnvironment;
  stack: LocalStack;
}

let bundle: Promise<{ code: string }> | undefined;
const stages = new Set<Stage>();

async function startStage(name: string, rates: Record<string, number>): Promise<Stage> {
  bundle ??= bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: new DefaultLogger('ERROR') });
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: process.env.TEMPORAL_CLI_PATH ?? ensureTemporalCli() },
      searchAttributes: [...ORDER_SEARCH_ATTRIBUTES],
      extraArgs: devServerDynamicConfigArgs(),
    },
  });
  const base = testConfig();
  const stack = await startLocalStack({
    config: {
      ...base,
      ranking: { ...base.ranking, refreshMs: REFRESH_MS },
      temporal: { ...base.temporal, taskQueue: `bench-conversion-${name}` },
    },
    client: env.client,
    connection: env.nativeConnection,
    logger: createLogger('silent', 'bench-conversion'),
    settleDelayMs: 100,
    simulatorRandom: (code) => seededRandom(SEED, code),
    workflowBundle: await bundle,
  });
  for (const [code, rate] of Object.entries(rates)) Object.assign(stack.simulators.get(code).faults, { completionRate: rate });
  const stage = { name, env, stack };
  stages.add(stage);
  return stage;
}

async function stopStage(stage: Stage): Promise<void> {
  stages.delete(stage);
  await stage.stack.stop();
  await stage.env.teardown();
}

async function waitFinal(stack: LocalStack, provider: string, id: string): Promise<{ status: string; to_amount: string }> {
  const deadline = Date.now() + ORDER_FINAL_TIMEOUT_MS;
  for (;;) {
    const { status, body } = await api<{ status: string; to_amount: string }>(stack, `/api/on_ramp/orders/${provider}?code=${id}`);
    if (status === 200 && isSettled(body.status as OrderStatus)) return body;
    if (Date.now() > deadline) return { status: `not final (${body.status ?? status})`, to_amount: '0' };
    await sleep(200);
  }
}

/**
 * One customer: asks for offers, orders the first one (when its provider turns out unavailable,
 * the first of the answer's `alternatives`, as an integrator would offer it), pays at the provider's
 * checkout and waits for the order to be final.
 */
async function checkoutOnce(stage: Stage, ranked: boolean, user: string, creations: Creation[]): Promise<Checkout> {
  const { stack } = stage;
  const offers = await api<Offers>(stack, offersPath(user, ranked));
  const first = offers.status === 200 ? firstOffer(offers.body, ranked) : undefined;
  if (!first) return { outcome: `no offer (${offers.status})`, delivered: new BigNumber(0) };
  let provider: string = first;
  for (let attempt = 1; ; attempt++) {
    const sentAtMs = Date.now();
    const created: { status: number; body: CreatedAnswer } = await api<CreatedAnswer>(stack, '/api/on_ramp/orders', {
      provider_code: provider,
      from_currency: currencyId(MARKET.fiat),
      to_currency: currencyId(MARKET.crypto, 'bitcoin'),
      from_amount: MARKET.amount,
      wallet_address: WALLET,
      payment_method: MARKET.paymentMethod,
      country_code: MARKET.country,
      external_user_id: user,
      external_order_id: `${user}-${attempt}`,
    });
    creations.push({ provider, atMs: sentAtMs, ok: created.status === 200, code: created.body.code });
    if (created.status === 200) {
      const paid = await fetch(created.body.redirect_url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'pay' }),
      });
      if (!paid.ok) return { provider, outcome: `checkout ${paid.status}`, delivered: new BigNumber(0) };
      const final = await waitFinal(stack, provider, created.body.id!);
      return { provider, outcome: final.status, delivered: new BigNumber(final.status === 'complete' ? final.to_amount : 0) };
    }
    const next: string | undefined =
      created.body.code === 'provider_unavailable' ? created.body.alternatives?.[0]?.provider_code : undefined;
    if (!next || attempt >= 3)
      return { provider, outcome: `not created (${created.body.code ?? created.status})`, delivered: new BigNumber(0) };
    provider = next;
  }
}

/** Customers, CONCURRENCY at a time, until `more()` says no more start. */
async function customers(stage: Stage, ranked: boolean, more: (done: number) => boolean): Promise<ArmResult> {
  const checkouts: Checkout[] = [];
  const creations: Creation[] = [];
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (more(checkouts.length) && more(started)) {
        const user = `${stage.name}-${started++}`;
        checkouts.push(await checkoutOnce(stage, ranked, user, creations));
        if (checkouts.length % 50 === 0) progress(`${stage.name}: ${checkouts.length} checkouts`);
      }
    }),
  );
  return { name: stage.name, ranked, checkouts, creations, seconds: (performance.now() - t0) / 1000 };
}

const delivered = (arm: ArmResult) => arm.checkouts.reduce((sum, c) => sum.plus(c.delivered), new BigNumber(0));
const per100 = (arm: ArmResult) => delivered(arm).div(arm.checkouts.length).times(100);

function armRows(arm: ArmResult): (string | number)[][] {
  const byProvider = new Map<string, { orders: number; complete: number }>();
  for (const c of arm.checkouts) {
    const key = c.provider ?? '(none)';
    const row = byProvider.get(key) ?? { orders: 0, complete: 0 };
    row.orders++;
    if (c.outcome === 'complete') row.complete++;
    byProvider.set(key, row);
  }
  return [...byProvider.entries()]
    .sort((a, b) => b[1].orders - a[1].orders)
    .map(([provider, row]) => [arm.name, provider, row.orders, row.complete, round(row.complete / row.orders, 3)]);
}

function outcomesOf(arm: ArmResult): string {
  const counts = new Map<string, number>();
  for (const c of arm.checkouts) counts.set(c.outcome, (counts.get(c.outcome) ?? 0) + 1);
  return [...counts.entries()].map(([outcome, n]) => `${outcome} ${n}`).join(', ');
}

/** The five providers' offers by price (most crypto first), read from a fresh stack before any order. */
async function pricesOf(stage: Stage): Promise<{ code: string; amount: BigNumber }[]> {
  const offers = await api<Offers>(stage.stack, offersPath('bench-prices', false));
  const priced = PROVIDERS.map((code) => ({ code, amount: new BigNumber(offers.body[code]?.amount_expected_to ?? NaN) }));
  const missing = priced.filter((p) => p.amount.isNaN());
  if (missing.length > 0) throw new Error(`no offer from ${missing.map((p) => p.code).join(', ')}: ${JSON.stringify(offers.body)}`);
  return priced.sort((a, b) => b.amount.comparedTo(a.amount) ?? 0);
}

async function scenarioArms(
  scenario: string,
  rates: Record<string, number>,
  afterRanked?: (stage: Stage) => Promise<void>,
): Promise<[ArmResult, ArmResult]> {
  const arms: ArmResult[] = [];
  for (const ranked of [false, true]) {
    const stage = await startStage(`${scenario}-${ranked ? 'ranked' : 'price'}`, rates);
    try {
      progress(`${stage.name}: ${CHECKOUTS} checkouts, ${CONCURRENCY} at a time`);
      arms.push(await customers(stage, ranked, (n) => n < CHECKOUTS));
      if (ranked && afterRanked) await afterRanked(stage);
    } finally {
      await stopStage(stage);
    }
  }
  return [arms[0]!, arms[1]!];
}

interface Latency {
  on: number[];
  off: number[];
}

/** Offers requests one at a time, ranking on and off alternating (which goes first swapping every pair), each for a new customer. */
async function offersLatency(stage: Stage): Promise<Latency> {
  const on: number[] = [];
  const off: number[] = [];
  const time = async (ranked: boolean, user: string) => {
    const t0 = performance.now();
    const res = await api<Offers>(stage.stack, offersPath(user, ranked));
    const ms = performance.now() - t0;
    if (res.status !== 200 || Object.keys(res.body).length !== PROVIDERS.length)
      throw new Error(`offers ${res.status}: ${JSON.stringify(res.body)}`);
    (ranked ? on : off).push(ms);
  };
  for (let i = 0; i < 100; i++) await time(i % 2 === 0, `warm-${i}`);
  on.length = 0;
  off.length = 0;
  for (let i = 0; i < LATENCY_REQUESTS; i++) {
    const first = i % 2 === 0;
    await time(first, `latency-${i}-a`);
    await time(!first, `latency-${i}-b`);
  }
  return { on, off };
}

interface OutageResult {
  provider: string;
  arm: ArmResult;
  ordersToFailed: number;
  refusedDuringOutage: number;
  firstOutOfOffersS?: number;
  recoverySeconds?: number;
}

/**
 * `equal` rates, ranked: once OUTAGE_AFTER customers have started, the recommended provider fails every
 * order creation (its quotes still answer) for OUTAGE_S; then it works again, and the run goes on
 * until it has been in every offers answer for BACK_FOR_S (or RECOVERY_MAX_S pass).
 */
async function outage(rates: Record<string, number>): Promise<OutageResult> {
  const stage = await startStage('outage', rates);
  try {
    let phase: 'before' | 'outage' | 'after' | 'done' = 'before';
    let provider = '';
    let failedAt = 0;
    let recoveredAt = 0;
    let outOfOffersAt: number | undefined;
    let backSince: number | undefined;
    let recoverySeconds: number | undefined;
    const watch = async () => {
      while (phase !== 'done') {
        if (phase !== 'before') {
          const offers = await api<Offers>(stage.stack, offersPath(`watch-${Date.now()}`, true));
          const present = offers.status === 200 && offers.body[provider]?.amount_expected_to !== undefined;
          const now = Date.now();
          if (!present && phase === 'outage') outOfOffersAt ??= now;
          if (phase === 'after') {
            if (!present) backSince = undefined;
            else backSince ??= now;
            if (backSince !== undefined && now - backSince >= BACK_FOR_S * 1000) {
              recoverySeconds = Math.max(0, backSince - recoveredAt) / 1000;
              phase = 'done';
            } else if (now - recoveredAt > RECOVERY_MAX_S * 1000) phase = 'done';
          }
        }
        await sleep(500);
      }
    };
    const control = async (arm: Promise<ArmResult>) => {
      const watching = watch();
      const result = await arm;
      phase = 'done';
      await watching;
      return result;
    };
    const simulator = (code: string) => stage.stack.simulators.get(code);
    let done = 0;
    const run = customers(stage, true, (n) => {
      done = Math.max(done, n);
      return phase !== 'done';
    });
    const switching = (async () => {
      while (done < OUTAGE_AFTER && phase === 'before') await sleep(100);
      const offers = await api<Offers>(stage.stack, offersPath('outage-begins', true));
      provider = firstOffer(offers.body, true)!;
      simulator(provider).faults.createErrorRate = 1;
      failedAt = Date.now();
      phase = 'outage';
      progress(`outage: ${provider} fails every order creation from now, for ${OUTAGE_S} s`);
      await sleep(OUTAGE_S * 1000);
      simulator(provider).faults.createErrorRate = 0;
      recoveredAt = Date.now();
      phase = 'after';
      progress(`outage: ${provider} creates orders again`);
    })();
    const arm = await control(run);
    await switching;
    const toFailed = arm.creations.filter((c) => c.provider === provider && c.atMs >= failedAt && c.atMs < recoveredAt);
    return {
      provider,
      arm,
      ordersToFailed: toFailed.length,
      refusedDuringOutage: toFailed.filter((c) => !c.ok).length,
      firstOutOfOffersS: outOfOffersAt === undefined ? undefined : (outOfOffersAt - failedAt) / 1000,
      recoverySeconds,
    };
  } finally {
    await stopStage(stage);
  }
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  setTimeout(() => {
    progress(`the run took over ${TIMEOUT_S} s (BENCH_CONVERSION_TIMEOUT_S): stopping`);
    process.exit(1);
  }, TIMEOUT_S * 1000).unref();
  const runStarted = performance.now();

  const probe = await startStage('prices', {});
  const prices = await pricesOf(probe);
  await stopStage(probe);
  const spread = prices[0]!.amount.minus(prices.at(-1)!.amount).div(prices[0]!.amount).toNumber();
  if (spread > 0.03) throw new Error(`the five offers are ${round(spread * 100, 2)} % apart, not within 3 %: choose another market`);
  const cheapest = prices[0]!.code;
  const unreliable = Object.fromEntries(prices.map((p, i) => [p.code, i === 0 ? CHEAPEST_RATE : OTHERS_RATES[i - 1]!]));
  const equal = Object.fromEntries(prices.map((p) => [p.code, EQUAL_RATE]));
  process.stdout.write(
    `\nOffers for ${MARKET.fiat} ${MARKET.amount} by ${MARKET.paymentMethod} in ${MARKET.country} (${MARKET.crypto}); spread ${round(spread * 100, 2)} %\n`,
  );
  process.stdout.write(
    renderTable(
      ['provider', 'amount_expected_to', 'below the best %', 'completes (unreliable)', 'completes (equal)'],
      prices.map((p) => [
        p.code,
        p.amount.toFixed(),
        round(prices[0]!.amount.minus(p.amount).div(prices[0]!.amount).times(100).toNumber(), 2),
        unreliable[p.code]!,
        equal[p.code]!,
      ]),
    ) + '\n',
  );

  let latency: Latency | undefined;
  const [unreliablePrice, unreliableRanked] = await scenarioArms('unreliable', unreliable, async (stage) => {
    progress(`latency: ${LATENCY_REQUESTS} offers requests each with ranking on and off, alternating`);
    latency = await offersLatency(stage);
  });
  const [equalPrice, equalRanked] = await scenarioArms('equal', equal);
  const outageResult = await outage(equal);

  const arms = [unreliablePrice, unreliableRanked, equalPrice, equalRanked, outageResult.arm];
  process.stdout.write('\nCheckouts by provider (the first offer taken; ranked arms take rank 1, price arms the most crypto)\n');
  process.stdout.write(renderTable(['arm', 'provider', 'orders', 'complete', 'share'], arms.flatMap(armRows)) + '\n');
  process.stdout.write('\nCrypto delivered\n');
  process.stdout.write(
    renderTable(
      ['arm', 'checkouts', 'seconds', 'BTC delivered', 'BTC per 100 checkouts', 'outcomes'],
      arms.map((arm) => [
        arm.name,
        arm.checkouts.length,
        round(arm.seconds, 1),
        delivered(arm).toFixed(8),
        per100(arm).toFixed(8),
        outcomesOf(arm),
      ]),
    ) + '\n',
  );
  const unreliableRatio = per100(unreliableRanked).div(per100(unreliablePrice)).toNumber();
  const equalRatio = per100(equalRanked).div(per100(equalPrice)).toNumber();

  process.stdout.write(`\nOutage of ${outageResult.provider} (every order creation failing for ${OUTAGE_S} s)\n`);
  process.stdout.write(
    renderTable(
      ['orders sent to it during the outage', 'of them refused', 'left out of offers after s', 'back in offers after s'],
      [
        [
          outageResult.ordersToFailed,
          outageResult.refusedDuringOutage,
          outageResult.firstOutOfOffersS === undefined ? 'never' : round(outageResult.firstOutOfOffersS, 1),
          outageResult.recoverySeconds === undefined ? `not within ${RECOVERY_MAX_S}` : round(outageResult.recoverySeconds, 1),
        ],
      ],
    ) + '\n',
  );

  const lat = latency!;
  const p = (values: number[], q: number) => round(percentile(values, q), 2);
  const p50Ratio = percentile(lat.on, 50) / percentile(lat.off, 50);
  const p99Ratio = percentile(lat.on, 99) / percentile(lat.off, 99);
  process.stdout.write(`\nOffers latency, ranking on and off (${LATENCY_REQUESTS} requests each, one at a time, interleaved)\n`);
  process.stdout.write(
    renderTable(
      ['ranking', 'p50 ms', 'p90 ms', 'p99 ms'],
      [
        ['on', p(lat.on, 50), p(lat.on, 90), p(lat.on, 99)],
        ['off', p(lat.off, 50), p(lat.off, 90), p(lat.off, 99)],
        ['on ÷ off', round(p50Ratio, 3), round(percentile(lat.on, 90) / percentile(lat.off, 90), 3), round(p99Ratio, 3)],
      ],
    ) + '\n',
  );

  const figures = {
    seed: SEED,
    checkouts_per_arm: CHECKOUTS,
    concurrency: CONCURRENCY,
    price_spread_pct: round(spread * 100, 2),
    cheapest_provider: cheapest,
    unreliable_cheapest_delivered_ratio: round(unreliableRatio, 3),
    all_equal_delivered_ratio: round(equalRatio, 3),
    outage_provider: outageResult.provider,
    outage_orders_to_failed_provider: outageResult.ordersToFailed,
    outage_left_out_after_seconds: outageResult.firstOutOfOffersS === undefined ? null : round(outageResult.firstOutOfOffersS, 1),
    outage_recovery_seconds: outageResult.recoverySeconds === undefined ? null : round(outageResult.recoverySeconds, 1),
    ranking_offers_p50_ratio: round(p50Ratio, 3),
    ranking_offers_p99_ratio: round(p99Ratio, 3),
    ranking_offers_p50_ms: { on: p(lat.on, 50), off: p(lat.off, 50) },
    ranking_offers_p99_ms: { on: p(lat.on, 99), off: p(lat.off, 99) },
    run_seconds: round((performance.now() - runStarted) / 1000, 0),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

async function stopAll(): Promise<void> {
  for (const stage of [...stages]) await stopStage(stage).catch(() => undefined);
}

if (require.main === module) runBench(main, stopAll, progress);
