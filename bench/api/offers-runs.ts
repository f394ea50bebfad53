/**
 * The offers benchmark: GET /api/on_ramp/offers with N providers at 100 ms and one more at 10 s,
 * against a bare fan-out, and against the same broker with METRICS_ENABLED=false (what metrics cost);
 * and beside it GET /api/off_ramp/offers over the same providers' sell side, in the same pairs.
 */
import { toQuoteParams } from '../../src/providers/sandbox/transformers';
import { startServer, type RunningServer } from '../lib/children';
import { percentile, type LoadOptions, type LoadResult } from '../lib/load';
import { median } from '../lib/table';
import { benchProviderCodes, fastProviderCodes, slowProvider } from '../providers';
import { get, load, log } from './measure';
import { AllocationRecorder, type OffersMemory } from './memory';
import {
  BTC,
  distinctAmount,
  GBP,
  MIX_AMOUNTS,
  MIX_USERS,
  OFFERS_AMOUNT,
  OFFERS_FEW_CONNECTIONS,
  OFFERS_FEW_SECONDS,
  OFFERS_MIX_SECONDS,
  OFFERS_PAIRS,
  OFFERS_PATH,
  OFFERS_SECONDS,
  OFFERS_SETTLE_SECONDS,
  OFFERS_SLOW_SWITCH_SECONDS,
  OFFERS_SLOW_WARMUP_SECONDS,
  OFFERS_USERS,
  OFFERS_WARMUP_SECONDS,
  offersPath,
  PROVIDER_LATENCY_MS,
  SELL_OFFERS_PATH,
  SLOW_LATENCY_MS,
  distinctSellAmount,
  sellOffersPath,
} from './settings';

export interface OffersSample {
  when: string;
  ms: number;
  offers: string[];
  slow: string;
}

/**
 * One broker run, one floor run and one run of the broker without metrics (METRICS_ENABLED=false),
 * back to back under the same load: the broker in the middle, next to each of the others, with the
 * order reversed from one pair to the next (odd: no metrics, broker, floor; even: floor, broker, no metrics);
 * and a run of the broker's sell offers at the end of the odd pairs and the start of the even ones.
 */
export interface OffersPair {
  api: LoadResult;
  floor: LoadResult;
  /** The second broker API child, started with METRICS_ENABLED=false. */
  noMetrics: LoadResult;
  /** The same broker API child, GET /api/off_ramp/offers under the same load. */
  sell: LoadResult;
  apiFirst: boolean;
}

/**
 * The realistic mix: offers requests from many users for a few popular amounts, and the quote calls
 * the broker made for them, from its own metrics (differences over the run).
 */
export interface OffersMix {
  load: LoadResult;
  /** Offers requests the broker answered (onramp_http_requests_total of the offers route). */
  offersRequests: number;
  /** Quote calls it sent to providers (onramp_provider_requests_total, operation quote). */
  quoteCalls: number;
  /** Quote calls it did not send because an identical one was in flight (onramp_provider_quotes_coalesced_total). */
  coalesced: number;
}

export interface OffersFigures {
  /** The healthy providers of the fan-out (bench_1..bench_<width>), besides the slow one. */
  width: number;
  allFast: LoadResult;
  /** bench_<width+1> turned slow 1 s into the run (after the settle second); the requests of the next 10 s. */
  slowWarmup: LoadResult;
  floorWarmup: LoadResult;
  /** The warm-ups of the broker without metrics (the same as the broker's). */
  noMetricsAllFast: LoadResult;
  noMetricsSlowWarmup: LoadResult;
  /**
   * The measured runs: the broker API and the bare fan-out to bench_1..5 (bench/lib/bare-fanout.ts,
   * this machine's floor) in pairs, alternating which goes first.
   */
  pairs: OffersPair[];
  /** The figures of `pairs` (offersMedians). */
  medians: OffersMedians;
  few: LoadResult;
  mix: OffersMix;
  /** The broker API child's allocation per request over the measured runs, and its peak RSS (bench/api/memory.ts). */
  memory: OffersMemory;
  samples: OffersSample[];
  correct: boolean;
  /** The sell offers warm-up: the first 10 s of sell offers with bench_<width+1> already at 10 s. */
  sellWarmup: LoadResult;
  /** The sell offers runs of `pairs`, against the buy offers runs beside them (sellMedians). */
  sellMedians: SellMedians;
  sellSamples: OffersSample[];
  /** Sell offers from every healthy provider, and none from the slow one while it is slow. */
  sellCorrect: boolean;
}

async function setLatency(sim: RunningServer, code: string, latencyMs: number): Promise<void> {
  const response = await fetch(`${sim.url}/${code}/_simulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latencyMs }),
    signal: AbortSignal.timeout(5000),
  });
  const faults = (await response.json()) as { latencyMs?: number };
  if (faults.latencyMs !== latencyMs) throw new Error(`could not set ${code}'s latency`);
}

async function sample(api: RunningServer, when: string, slowCode: string, path = OFFERS_PATH): Promise<OffersSample> {
  const answer = await get(`${api.url}${path}&include_errors=true`);
  if (answer.status !== 200) throw new Error(`offers sample (${when}): HTTP ${answer.status}: ${answer.body.toString()}`);
  const json = JSON.parse(answer.body.toString()) as Record<string, { error?: { code: string } }>;
  const offers = Object.keys(json)
    .filter((code) => !json[code]?.error)
    .sort();
  const slowEntry = json[slowCode];
  const slow = slowEntry === undefined ? 'absent' : slowEntry.error ? `error ${slowEntry.error.code}` : 'offer';
  return { when, ms: answer.ms, offers, slow };
}

/** The quote every offers request asks each provider for, worded by the sandbox adapter's own transformer. */
const FLOOR_QUOTE_QUERY = new URLSearchParams(
  toQuoteParams({ fiat: GBP, crypto: BTC, fiatAmount: OFFERS_AMOUNT, paymentMethod: 'card', country: 'GB', externalUserId: 'bench' }),
).toString();

/** The second broker API child, METRICS_ENABLED=false: its /metrics is a 404 where the broker's answers. */
async function startNoMetrics(sim: RunningServer, api: RunningServer, width: number): Promise<RunningServer> {
  log('starting the offers API without metrics (METRICS_ENABLED=false)');
  const noMetrics = await startServer({ role: 'api', simUrl: sim.url, width }, 'api-offers-no-metrics', { METRICS_ENABLED: 'false' });
  const [on, off] = await Promise.all([get(`${api.url}/metrics`, {}), get(`${noMetrics.url}/metrics`, {})]);
  if (on.status !== 200 || off.status !== 404) {
    await noMetrics.stop();
    throw new Error(`GET /metrics: HTTP ${on.status} with metrics on (200 expected), ${off.status} with them off (404 expected)`);
  }
  return noMetrics;
}

async function startFloor(sim: RunningServer, width: number): Promise<RunningServer> {
  log('starting the bare fan-out (floor)');
  const fast = fastProviderCodes(width);
  const floor = await startServer({ role: 'fanout', simUrl: sim.url, codes: [...fast], query: FLOOR_QUOTE_QUERY }, 'fanout');
  const check = await get(floor.url + '/');
  const answers = JSON.parse(check.body.toString()) as Record<string, { crypto_amount?: unknown }>;
  const quoted = Object.keys(answers).filter((code) => typeof answers[code]?.crypto_amount === 'string');
  if (check.status !== 200 || quoted.join(',') !== fast.join(',')) {
    await floor.stop();
    throw new Error(`bare fan-out: HTTP ${check.status}: ${check.body.toString().slice(0, 300)}`);
  }
  return floor;
}

async function benchOffers(
  width: number,
  api: RunningServer,
  noMetrics: RunningServer,
  floor: RunningServer,
  sim: RunningServer,
): Promise<OffersFigures> {
  const SLOW_PROVIDER = slowProvider(width);
  const all = width + 1;
  const url = api.url + OFFERS_PATH;
  const noMetricsUrl = noMetrics.url + OFFERS_PATH;
  const watch = { api: api.pid, simulators: sim.pid };
  // Under the same name, so that each run's CPU per request is cpuPerRequestUs.api.
  const noMetricsWatch = { api: noMetrics.pid, simulators: sim.pid };
  const floorWatch = { fanout: floor.pid, simulators: sim.pid };
  let users = 0;
  let sent = 0;
  // Every request a different amount (distinctAmount): none is coalesced with another.
  const extra: Partial<LoadOptions> = {
    timeoutSec: 30,
    pathFor: (connection: Record<string, unknown>) => {
      if (OFFERS_USERS === 'per-connection' && typeof connection.user !== 'string') connection.user = `bench_${++users}`;
      return offersPath(typeof connection.user === 'string' ? connection.user : 'bench', distinctAmount(sent++));
    },
  };

  const samples = [await sample(api, `catalogues loading, all ${all} at 100 ms`, SLOW_PROVIDER)];
  const noMetricsLoading = await sample(noMetrics, `metrics off: catalogues loading, all ${all} at 100 ms`, SLOW_PROVIDER);
  // The sell catalogues load now too, while every provider answers in 100 ms.
  const sellSamples = [await sample(api, `sell: catalogues loading, all ${all} at 100 ms`, SLOW_PROVIDER, SELL_OFFERS_PATH)];
  for (const loading of [samples[0]!, noMetricsLoading, sellSamples[0]!]) {
    if (loading.offers.length !== all) {
      throw new Error(`expected offers from all ${all} providers while warming (${loading.when}), got ${loading.offers.join(', ')}`);
    }
  }
  const allFast = await load(`offers warm-up, all ${all} at 100 ms`, url, OFFERS_WARMUP_SECONDS, watch, extra);
  const noMetricsAllFast = await load(
    `metrics off: offers warm-up, all ${all} at 100 ms`,
    noMetricsUrl,
    OFFERS_WARMUP_SECONDS,
    noMetricsWatch,
    extra,
  );

  // The slow provider turns slow after the settle second and a second of steady traffic; the next 10 s are measured.
  const turnSlow = setTimeout(() => void setLatency(sim, SLOW_PROVIDER, SLOW_LATENCY_MS), OFFERS_SLOW_SWITCH_SECONDS * 1000);
  const slowWarmup = await load(
    `offers, ${SLOW_PROVIDER} turning 10 s after ${OFFERS_SLOW_SWITCH_SECONDS} s`,
    url,
    OFFERS_SLOW_SWITCH_SECONDS + OFFERS_SLOW_WARMUP_SECONDS,
    watch,
    { ...extra, settleSec: OFFERS_SLOW_SWITCH_SECONDS },
  ).finally(() => clearTimeout(turnSlow));
  await setLatency(sim, SLOW_PROVIDER, SLOW_LATENCY_MS);
  const noMetricsSlowWarmup = await load(
    `metrics off: offers warm-up, ${SLOW_PROVIDER} at 10 s`,
    noMetricsUrl,
    OFFERS_SLOW_WARMUP_SECONDS,
    noMetricsWatch,
    extra,
  );
  const floorWarmup = await load('floor warm-up (bare fan-out)', floor.url + '/', OFFERS_WARMUP_SECONDS, floorWatch);
  // The sell side keeps its own deadlines and slow providers: its first 10 s with the slow provider at 10 s.
  let sold = 0;
  const sellExtra: Partial<LoadOptions> = {
    timeoutSec: 30,
    pathFor: (connection: Record<string, unknown>) => {
      if (OFFERS_USERS === 'per-connection' && typeof connection.user !== 'string') connection.user = `bench_${++users}`;
      return sellOffersPath(typeof connection.user === 'string' ? connection.user : 'bench', distinctSellAmount(sold++));
    },
  };
  const sellUrl = api.url + SELL_OFFERS_PATH;
  const sellWarmup = await load(`sell offers warm-up, ${SLOW_PROVIDER} at 10 s`, sellUrl, OFFERS_SLOW_WARMUP_SECONDS, watch, sellExtra);

  // Each measured broker run with the bytes the broker API allocated over it.
  const allocation = new AllocationRecorder(api);
  const runApi = (pair: number) =>
    allocation.run(async () => {
      const label = `offers ${pair}/${OFFERS_PAIRS}, ${SLOW_PROVIDER} at 10 s`;
      const measured = { ...extra, settleSec: OFFERS_SETTLE_SECONDS };
      if (pair > 1) return load(label, url, OFFERS_SETTLE_SECONDS + OFFERS_SECONDS, watch, measured);
      const running = load(label, url, OFFERS_SETTLE_SECONDS + OFFERS_SECONDS, watch, measured);
      await new Promise((resolve) => setTimeout(resolve, (OFFERS_SETTLE_SECONDS + OFFERS_SECONDS / 2) * 1000));
      samples.push(await sample(api, `${SLOW_PROVIDER} at 10 s, under load`, SLOW_PROVIDER));
      return running;
    });
  const runNoMetrics = (pair: number) =>
    load(
      `metrics off ${pair}/${OFFERS_PAIRS}, ${SLOW_PROVIDER} at 10 s`,
      noMetricsUrl,
      OFFERS_SETTLE_SECONDS + OFFERS_SECONDS,
      noMetricsWatch,
      {
        ...extra,
        settleSec: OFFERS_SETTLE_SECONDS,
      },
    );
  const runSell = (pair: number) =>
    load(`sell offers ${pair}/${OFFERS_PAIRS}, ${SLOW_PROVIDER} at 10 s`, sellUrl, OFFERS_SETTLE_SECONDS + OFFERS_SECONDS, watch, {
      ...sellExtra,
      settleSec: OFFERS_SETTLE_SECONDS,
    });
  const runFloor = (pair: number) =>
    load(`floor ${pair}/${OFFERS_PAIRS} (bare fan-out)`, floor.url + '/', OFFERS_SETTLE_SECONDS + OFFERS_SECONDS, floorWatch, {
      settleSec: OFFERS_SETTLE_SECONDS,
    });
  const pairs: OffersPair[] = [];
  for (let pair = 1; pair <= OFFERS_PAIRS; pair++) {
    const apiFirst = pair % 2 === 1;
    if (apiFirst) {
      const noMetricsRun = await runNoMetrics(pair);
      const apiRun = await runApi(pair);
      const floorRun = await runFloor(pair);
      pairs.push({ api: apiRun, floor: floorRun, noMetrics: noMetricsRun, sell: await runSell(pair), apiFirst });
    } else {
      const sellRun = await runSell(pair);
      const floorRun = await runFloor(pair);
      const apiRun = await runApi(pair);
      pairs.push({ api: apiRun, floor: floorRun, noMetrics: await runNoMetrics(pair), sell: sellRun, apiFirst });
    }
  }

  const few = await load(`offers, ${SLOW_PROVIDER} at 10 s, few connections`, url, OFFERS_FEW_SECONDS, watch, {
    ...extra,
    connections: OFFERS_FEW_CONNECTIONS,
  });
  const mix = await runMix(api, watch);
  samples.push(await sample(api, `${SLOW_PROVIDER} at 10 s, unloaded`, SLOW_PROVIDER));
  samples.push(await sample(noMetrics, `metrics off: ${SLOW_PROVIDER} at 10 s, unloaded`, SLOW_PROVIDER));
  sellSamples.push(await sample(api, `sell: ${SLOW_PROVIDER} at 10 s, unloaded`, SLOW_PROVIDER, SELL_OFFERS_PATH));

  const expected = fastProviderCodes(width).sort().join(',');
  const correct = samples.slice(1).every((s) => s.offers.join(',') === expected);
  const sellCorrect = sellSamples.slice(1).every((s) => s.offers.join(',') === expected);
  return {
    width,
    allFast,
    slowWarmup,
    floorWarmup,
    noMetricsAllFast,
    noMetricsSlowWarmup,
    pairs,
    medians: offersMedians(pairs),
    few,
    mix,
    memory: allocation.figures(noMetrics),
    samples: [samples[0]!, noMetricsLoading, ...samples.slice(1)],
    correct,
    sellWarmup,
    sellMedians: sellMedians(pairs),
    sellSamples,
    sellCorrect,
  };
}

/** The sum of a counter's series in a Prometheus text exposition whose labels include every one of `labels`. */
function counterSum(metricsText: string, name: string, labels: string[] = []): number {
  let sum = 0;
  for (const line of metricsText.split('\n')) {
    if (!line.startsWith(`${name}{`) || !labels.every((label) => line.includes(label))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

async function brokerCounts(api: RunningServer) {
  const answer = await get(`${api.url}/metrics`, {});
  if (answer.status !== 200) throw new Error(`GET /metrics: HTTP ${answer.status}`);
  const text = answer.body.toString();
  return {
    offersRequests: counterSum(text, 'onramp_http_requests_total', ['route="/api/on_ramp/offers"']),
    quoteCalls: counterSum(text, 'onramp_provider_requests_total', ['operation="quote"']),
    coalesced: counterSum(text, 'onramp_provider_quotes_coalesced_total'),
  };
}

/**
 * The realistic mix: each request from one of MIX_USERS users for one of the popular amounts
 * (MIX_AMOUNTS, by their shares; a fixed pseudo-random sequence), at the same connections. The broker's
 * own counters, read before and after, give the quote calls it made per offers request.
 */
async function runMix(api: RunningServer, watch: Record<string, number>): Promise<OffersMix> {
  let seed = 20;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const amountAt = (r: number) => {
    let total = 0;
    for (const [amount, share] of MIX_AMOUNTS) if (r < (total += share)) return amount;
    return MIX_AMOUNTS[0]![0];
  };
  const before = await brokerCounts(api);
  const run = await load(
    `offers, realistic mix (${MIX_USERS} users, ${MIX_AMOUNTS.length} amounts)`,
    api.url + OFFERS_PATH,
    OFFERS_MIX_SECONDS,
    watch,
    {
      timeoutSec: 30,
      pathFor: () => offersPath(`user_${1 + Math.floor(random() * MIX_USERS)}`, amountAt(random())),
    },
  );
  // Let the requests still in flight when the load tool stopped finish, so that calls and requests match.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await brokerCounts(api);
  return {
    load: run,
    offersRequests: after.offersRequests - before.offersRequests,
    quoteCalls: after.quoteCalls - before.quoteCalls,
    coalesced: after.coalesced - before.coalesced,
  };
}

/** The figures of the measured runs: medians over the pairs, and every response of a side pooled. */
export type OffersMedians = ReturnType<typeof offersMedians>;

export function offersMedians(pairs: OffersPair[]) {
  const pooledP99 = (runs: LoadResult[]) =>
    percentile(
      runs.flatMap((r) => r.latenciesMs).sort((a, b) => a - b),
      99,
    );
  const apiRuns = pairs.map((p) => p.api);
  const floorRuns = pairs.map((p) => p.floor);
  const noMetricsRuns = pairs.map((p) => p.noMetrics);
  const cpuUs = (r: LoadResult) => r.cpuPerRequestUs.api ?? NaN;
  // What metrics add to the broker's CPU time per request in each pair: (with / without - 1), in per cent.
  const metricsOverheadPcts = pairs.map((p) => (cpuUs(p.api) / cpuUs(p.noMetrics) - 1) * 100);
  return {
    p50: median(apiRuns.map((r) => r.latency.p50)),
    p99: median(apiRuns.map((r) => r.latency.p99)),
    floorP50: median(floorRuns.map((r) => r.latency.p50)),
    floorP99: median(floorRuns.map((r) => r.latency.p99)),
    overFloorP50: median(pairs.map((p) => p.api.latency.p50 / p.floor.latency.p50)),
    overFloorP99: median(pairs.map((p) => p.api.latency.p99 / p.floor.latency.p99)),
    pooledP99: pooledP99(apiRuns),
    floorPooledP99: pooledP99(floorRuns),
    rps: median(apiRuns.map((r) => r.rps)),
    floorRps: median(floorRuns.map((r) => r.rps)),
    meanMs: median(apiRuns.map((r) => r.latency.mean)),
    apiCpuUs: median(apiRuns.map(cpuUs)),
    simCpuUs: median(apiRuns.map((r) => r.cpuPerRequestUs.simulators ?? NaN)),
    floorCpuUs: median(floorRuns.map((r) => r.cpuPerRequestUs.fanout ?? NaN)),
    stealPct: median(apiRuns.map((r) => r.stealPct)),
    floorStealPct: median(floorRuns.map((r) => r.stealPct)),
    // The broker with metrics (the runs above) and without (METRICS_ENABLED=false).
    metricsOnCpuUs: median(apiRuns.map(cpuUs)),
    metricsOffCpuUs: median(noMetricsRuns.map(cpuUs)),
    metricsOverheadPct: median(metricsOverheadPcts),
    metricsOverheadPcts,
    noMetricsP50: median(noMetricsRuns.map((r) => r.latency.p50)),
    noMetricsP99: median(noMetricsRuns.map((r) => r.latency.p99)),
    noMetricsRps: median(noMetricsRuns.map((r) => r.rps)),
    noMetricsStealPct: median(noMetricsRuns.map((r) => r.stealPct)),
  };
}

/** The sell offers figures: medians of the sell runs, and of each pair's sell over buy (the broker's runs). */
export type SellMedians = ReturnType<typeof sellMedians>;

export function sellMedians(pairs: OffersPair[]) {
  const runs = pairs.map((p) => p.sell);
  const cpuUs = (r: LoadResult) => r.cpuPerRequestUs.api ?? NaN;
  const overBuy = (figure: (r: LoadResult) => number) => median(pairs.map((p) => figure(p.sell) / figure(p.api)));
  return {
    p50: median(runs.map((r) => r.latency.p50)),
    p99: median(runs.map((r) => r.latency.p99)),
    pooledP99: percentile(
      runs.flatMap((r) => r.latenciesMs).sort((a, b) => a - b),
      99,
    ),
    rps: median(runs.map((r) => r.rps)),
    meanMs: median(runs.map((r) => r.latency.mean)),
    apiCpuUs: median(runs.map(cpuUs)),
    stealPct: median(runs.map((r) => r.stealPct)),
    /** Each pair's sell run over its buy run (the broker with metrics), median of the pairs. */
    p50OverBuy: overBuy((r) => r.latency.p50),
    p99OverBuy: overBuy((r) => r.latency.p99),
    rpsOverBuy: overBuy((r) => r.rps),
    cpuOverBuy: overBuy(cpuUs),
  };
}

/** The offers runs with a fan-out to `width` healthy providers and one that turns slow, each server started afresh. */
export async function runOffers(width: number): Promise<OffersFigures> {
  log(`offers with ${width} providers at 100 ms and ${slowProvider(width)} turning slow: starting the simulator host and the offers API`);
  const latencies = Object.fromEntries(benchProviderCodes(width).map((code) => [code, PROVIDER_LATENCY_MS]));
  const sim = await startServer({ role: 'sim', latencyMs: latencies, width }, 'simulators');
  try {
    const api = await startServer({ role: 'api', simUrl: sim.url, width }, 'api-offers', { METRICS_ENABLED: 'true' });
    try {
      const noMetrics = await startNoMetrics(sim, api, width);
      try {
        const floor = await startFloor(sim, width);
        try {
          return await benchOffers(width, api, noMetrics, floor, sim);
        } finally {
          await floor.stop();
        }
      } finally {
        await noMetrics.stop();
      }
    } finally {
      await api.stop();
    }
  } finally {
    await sim.stop();
  }
}
