/**
 * API benchmark: `npm run bench:api`.
 *
 * Prints a human-readable report and, as the last line of stdout, one JSON object with
 *   dict_rps_ratio    req/s of GET /api/dict/currencies over req/s of a bare Express handler that
 *                     answers the same bytes and content type (same run, same load tool, same
 *                     connections; after 3 s of warm-up each, eight pairs of short runs, one run of
 *                     each server back to back, alternating which goes first; median of the pairs' ratios)
 *   offers_p50_ratio  p50 latency of GET /api/on_ramp/offers over 100 ms, with five simulated
 *   offers_p99_ratio  providers answering in 100 ms and a sixth in 10 s, at 50 connections (p99
 *                     likewise); the median of three 10 s runs, each paired with a run of the floor
 * Progress goes to stderr.
 *
 * Processes: this process runs only the orchestration and the load tool (autocannon, in-process).
 * Every server runs in its own forked child (bench/servers.ts): the broker API of the dictionary
 * runs (also profiled, by leaving middleware out in turn), the bare Express app, the simulator host
 * of the six providers, and the broker API of the offers runs. So the load tool, the API and the
 * simulators never share an event loop. They do share the machine's cores: the report gives, per
 * run, each process's CPU use (cores) and its event-loop thread's CPU time per request.
 * Everything binds 127.0.0.1, every load run is bounded in time, and every child is stopped before exit.
 *
 * Offers phases: one request while every provider (bench_6 included) answers in 100 ms, which loads
 * the six catalogues (catalogue calls get the simulated latency too, and a 10 s catalogue would never
 * load); a warm-up at 100 ms everywhere; bench_6 turned to 10 s; a warm-up in that state (whatever
 * the offers service does when a provider turns slow happens here, and is reported); a warm-up of
 * the floor (a bare fan-out to bench_1..5); then the measured pairs, one run of the broker and one
 * of the floor back to back, alternating which goes first; then a short run at 5 connections, which
 * shows the service's latency without the CPU saturation that 50 connections bring on a small machine.
 *
 * Environment (all optional): BENCH_DICT_SECONDS (2.5), BENCH_DICT_PAIRS (8), BENCH_OFFERS_SECONDS (10),
 * BENCH_OFFERS_PAIRS (3), BENCH_CONNECTIONS (50),
 * BENCH_PROFILE = auto (profile the dictionary route's middleware when its ratio is below 0.8) | 1 | 0,
 * BENCH_PROFILE_ROUNDS (3) = interleaved rounds of the profile (more rounds, steadier medians),
 * BENCH_OFFERS_USERS = fixed (every request external_user_id=bench) | per-connection (bench_<n>),
 * BENCH_ONLY = all | dict | offers (the JSON then has null for the ratios not measured),
 * BENCH_CHILD_NODE_ARGS = extra node flags for the server children (e.g. --cpu-prof --cpu-prof-dir=DIR).
 */
import os from 'node:os';
import { toQuoteParams } from '../src/providers/sandbox/transformers';
import { TEST_API_KEY, testConfig } from '../test/helpers/config';
import { cryptoOf, fiatOf } from '../test/helpers/currencies';
import { startServer, stopAll, type RunningServer } from './lib/children';
import { percentile, runLoad, type LoadOptions, type LoadResult } from './lib/load';
import { median, renderTable, round } from './lib/table';
import { BENCH_PROVIDER_CODES, SLOW_PROVIDER } from './providers';

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

function choiceFromEnv<T extends string>(name: string, choices: readonly T[]): T {
  const raw = (process.env[name] ?? '').trim() || choices[0]!;
  if (!choices.includes(raw as T)) throw new Error(`${name} must be one of ${choices.join(', ')}`);
  return raw as T;
}

const CONNECTIONS = numberFromEnv('BENCH_CONNECTIONS', 50);
const DICT_SECONDS = numberFromEnv('BENCH_DICT_SECONDS', 2.5);
const DICT_PAIRS = Math.round(numberFromEnv('BENCH_DICT_PAIRS', 8));
// Each dictionary run's first half-second opens the connections and is left out of its req/s.
const DICT_SETTLE_SECONDS = 0.5;
// Long enough for the JIT to settle on the API's larger code: the runs measure the steady state.
const DICT_WARMUP_SECONDS = 3;
const OFFERS_SECONDS = numberFromEnv('BENCH_OFFERS_SECONDS', 10);
const OFFERS_PAIRS = Math.round(numberFromEnv('BENCH_OFFERS_PAIRS', 3));
// Each measured offers run's first second opens the connections and sends every connection's first
// request at once; its requests are left out of the run's latencies (the per-second lines show it).
const OFFERS_SETTLE_SECONDS = 1;
const OFFERS_WARMUP_SECONDS = 3;
// After bench_6 turns slow: the provider deadline (default configuration) and 2 s more, so that
// whatever the service does once a provider has timed out is in place before the measured run.
const PROVIDER_DEADLINE_MS = testConfig().offersProviderTimeoutMs;
const OFFERS_SLOW_WARMUP_SECONDS = Math.ceil(PROVIDER_DEADLINE_MS / 1000) + 2;
const OFFERS_FEW_CONNECTIONS = 5;
const OFFERS_FEW_SECONDS = 6;
const PROFILE_SECONDS = 1.2;
const PROFILE_WARMUP_SECONDS = 0.4;
const PROFILE_ROUNDS = numberFromEnv('BENCH_PROFILE_ROUNDS', 3);
const PROFILE = choiceFromEnv('BENCH_PROFILE', ['auto', '1', '0']);
const OFFERS_USERS = choiceFromEnv('BENCH_OFFERS_USERS', ['fixed', 'per-connection']);
const ONLY = choiceFromEnv('BENCH_ONLY', ['all', 'dict', 'offers']);

const DICT_TARGET = 0.8;
const OFFERS_P50_TARGET = 1.15;
const OFFERS_P99_TARGET = 1.5;

const PROVIDER_LATENCY_MS = 100;
const SLOW_LATENCY_MS = 10_000;

const HEADERS = { 'x-api-key': TEST_API_KEY };
const DICT_PATH = '/api/dict/currencies';

const GBP = fiatOf('GBP');
const BTC = cryptoOf('BTC', 'bitcoin');
const OFFERS_AMOUNT = '100';
const offersPath = (user: string) =>
  `/api/on_ramp/offers?external_user_id=${user}&currency_from=${GBP.id}&currency_to=${BTC.id}&amount_from=${OFFERS_AMOUNT}&country=GB`;
const OFFERS_PATH = offersPath('bench');

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function get(url: string, headers: Record<string, string> = HEADERS) {
  const started = performance.now();
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body, ms: performance.now() - started };
}

async function load(
  label: string,
  url: string,
  durationSec: number,
  watch: Record<string, number>,
  extra: Partial<LoadOptions> = {},
): Promise<LoadResult> {
  const connections = extra.connections ?? CONNECTIONS;
  log(`${label}: ${connections} connections, ${durationSec} s`);
  const result = await runLoad({
    url,
    connections,
    durationSec,
    headers: HEADERS,
    ...extra,
    watch: { ...watch, 'load tool': process.pid },
  });
  log(
    `${label}: ${round(result.rps, 0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `non-2xx ${result.non2xx}, errors ${result.errors}, cpu ${cpuText(result)}, steal ${round(result.stealPct, 1)} %`,
  );
  return result;
}

function cpuText(result: LoadResult): string {
  const entries = Object.entries(result.cpu).filter(([, v]) => Number.isFinite(v));
  return entries.length === 0 ? '-' : entries.map(([name, cores]) => `${name} ${Math.round(cores * 100)}%`).join(', ');
}

// ---------------------------------------------------------------------------------------------
// 1. /api/dict/currencies against a bare Express handler

interface DictFigures {
  bytes: number;
  contentType: string;
  /** Medians of each server's runs. */
  apiRps: number;
  bareRps: number;
  /** dict_rps_ratio: the median of the pairs' api/bare req/s ratios. */
  ratio: number;
  /** The median api req/s over the median bare req/s: the same figure worked out across pairs. */
  ratioOfMedians: number;
  /** CPU time per request of each server (median of its runs), and bare over api (median of the pairs'). */
  apiUs: number;
  bareUs: number;
  cpuRatio: number;
  non2xx: number;
  /** Median over the runs of the CPU time the hypervisor stole, in percent. */
  stealPct: number;
  pairs: { rpsRatio: number; cpuRatio: number }[];
  runs: { target: 'api' | 'bare'; result: LoadResult }[];
  apiLayers: string[];
}

async function benchDict(api: RunningServer, bare: RunningServer, apiBody: Buffer, contentType: string): Promise<DictFigures> {
  const check = await get(bare.url + DICT_PATH);
  if (check.status !== 200 || !check.body.equals(apiBody) || check.contentType !== contentType) {
    throw new Error('the bare handler does not answer the same bytes and content type as the API');
  }
  await load('dict warm-up, bare', bare.url + DICT_PATH, DICT_WARMUP_SECONDS, { bare: bare.pid });
  await load('dict warm-up, api', api.url + DICT_PATH, DICT_WARMUP_SECONDS, { api: api.pid });
  // Short runs in pairs, one of each server, back to back and alternating which goes first
  // (bare api, api bare, ...): the two runs of a pair see the same machine, so each pair's ratio is
  // little disturbed by the machine's speed drifting, which over a minute can move either server's
  // req/s by a quarter.
  const pairs: DictFigures['pairs'] = [];
  const runs: DictFigures['runs'] = [];
  for (let i = 0; i < DICT_PAIRS; i++) {
    const order: ('bare' | 'api')[] = i % 2 === 0 ? ['bare', 'api'] : ['api', 'bare'];
    const pair: Partial<Record<'api' | 'bare', LoadResult>> = {};
    for (const target of order) {
      const server = target === 'api' ? api : bare;
      const label = `dict pair ${i + 1}/${DICT_PAIRS}, ${target}`;
      const result = await load(
        label,
        server.url + DICT_PATH,
        DICT_SETTLE_SECONDS + DICT_SECONDS,
        { [target]: server.pid },
        { settleSec: DICT_SETTLE_SECONDS },
      );
      pair[target] = result;
      runs.push({ target, result });
    }
    const { api: a, bare: b } = pair as Record<'api' | 'bare', LoadResult>;
    pairs.push({ rpsRatio: a.rps / b.rps, cpuRatio: (b.cpuPerRequestUs.bare ?? NaN) / (a.cpuPerRequestUs.api ?? NaN) });
  }
  const of = (target: 'api' | 'bare') => runs.filter((r) => r.target === target).map((r) => r.result);
  const apiRps = median(of('api').map((r) => r.rps));
  const bareRps = median(of('bare').map((r) => r.rps));
  const apiUs = median(of('api').map((r) => r.cpuPerRequestUs.api ?? NaN));
  const bareUs = median(of('bare').map((r) => r.cpuPerRequestUs.bare ?? NaN));
  return {
    bytes: apiBody.length,
    contentType,
    apiRps,
    bareRps,
    ratio: median(pairs.map((p) => p.rpsRatio)),
    ratioOfMedians: apiRps / bareRps,
    apiUs,
    bareUs,
    cpuRatio: median(pairs.map((p) => p.cpuRatio)),
    non2xx: runs.reduce((n, r) => n + r.result.non2xx + r.result.errors, 0),
    stealPct: median(runs.map((r) => r.result.stealPct)),
    pairs,
    runs,
    apiLayers: api.layers ?? [],
  };
}

// ---------------------------------------------------------------------------------------------
// 1b. Profile: the dictionary route with some middleware removed (only the benchmark's copy of the app)

interface Variant {
  name: string;
  removed: string[];
  /** Medians over the rounds. */
  rps: number;
  /** CPU time of the API's event-loop thread per request, in microseconds. */
  us: number;
  /** Each round's CPU time per request. */
  usRuns: number[];
}

interface DictProfile {
  bareRps: number;
  bareUs: number;
  full: Variant;
  variants: Variant[];
}

/**
 * The dictionary API of the runs above (warm), with some middleware left out in turn.
 * CPU time of the event-loop thread per request is the measure (far less disturbed by the rest of
 * a busy machine than req/s): what a middleware costs is the full API's time per request minus that
 * of the API without it. Short runs, interleaved over several rounds, median of each.
 */
async function profileDict(api: RunningServer, bare: RunningServer): Promise<DictProfile> {
  const layers = api.strippable ?? [];
  const singles = ['request-log', 'security-headers', 'auth', 'rate-limit'].filter((name) => layers.includes(name));
  const all = [...new Set(layers.filter((name) => [...singles, 'openapi', 'webhooks'].includes(name)))];
  const plan = [[], ...singles.map((name) => [name]), all];
  const url = (s: RunningServer) => s.url + DICT_PATH;
  const runs = plan.map(() => ({ removed: [] as string[], rps: [] as number[], us: [] as number[] }));
  try {
    const bareRuns = [await load('profile, bare', url(bare), PROFILE_SECONDS, { bare: bare.pid })];
    for (let round = 1; round <= PROFILE_ROUNDS; round++) {
      for (const [i, strip] of plan.entries()) {
        const label = `profile ${round}/${PROFILE_ROUNDS}, api${strip.length === 0 ? '' : ` without ${strip.join(', ')}`}`;
        runs[i]!.removed = await api.strip(strip);
        const result = await load(
          label,
          url(api),
          PROFILE_WARMUP_SECONDS + PROFILE_SECONDS,
          { api: api.pid },
          { settleSec: PROFILE_WARMUP_SECONDS },
        );
        runs[i]!.rps.push(result.rps);
        runs[i]!.us.push(result.cpuPerRequestUs.api ?? NaN);
      }
    }
    bareRuns.push(await load('profile, bare', url(bare), PROFILE_SECONDS, { bare: bare.pid }));
    const [full, ...variants] = runs.map((r) => ({
      name: r.removed.length === 0 ? 'full api' : `api without ${r.removed.join(', ')}`,
      removed: r.removed,
      rps: median(r.rps),
      us: median(r.us),
      usRuns: r.us,
    }));
    return {
      bareRps: median(bareRuns.map((r) => r.rps)),
      bareUs: median(bareRuns.map((r) => r.cpuPerRequestUs.bare ?? NaN)),
      full: full!,
      variants,
    };
  } finally {
    await api.strip([]);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. /api/on_ramp/offers: five providers at 100 ms, a sixth at 10 s

interface OffersSample {
  when: string;
  ms: number;
  offers: string[];
  slow: string;
}

/** One broker run and one floor run, back to back under the same load. */
interface OffersPair {
  api: LoadResult;
  floor: LoadResult;
  apiFirst: boolean;
}

interface OffersFigures {
  allFast: LoadResult;
  slowWarmup: LoadResult;
  floorWarmup: LoadResult;
  /**
   * The measured runs: the broker API and the bare fan-out to bench_1..5 (bench/lib/bare-fanout.ts,
   * this machine's floor) in pairs, alternating which goes first.
   */
  pairs: OffersPair[];
  /** The figures of `pairs` (offersMedians). */
  medians: OffersMedians;
  few: LoadResult;
  samples: OffersSample[];
  correct: boolean;
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

async function sample(api: RunningServer, when: string): Promise<OffersSample> {
  const answer = await get(`${api.url}${OFFERS_PATH}&include_errors=true`);
  if (answer.status !== 200) throw new Error(`offers sample (${when}): HTTP ${answer.status}: ${answer.body.toString()}`);
  const json = JSON.parse(answer.body.toString()) as Record<string, { error?: { code: string } }>;
  const offers = Object.keys(json)
    .filter((code) => !json[code]?.error)
    .sort();
  const slowEntry = json[SLOW_PROVIDER];
  const slow = slowEntry === undefined ? 'absent' : slowEntry.error ? `error ${slowEntry.error.code}` : 'offer';
  return { when, ms: answer.ms, offers, slow };
}

/** The quote every offers request asks each provider for, worded by the sandbox adapter's own transformer. */
const FLOOR_QUOTE_QUERY = new URLSearchParams(
  toQuoteParams({ fiat: GBP, crypto: BTC, fiatAmount: OFFERS_AMOUNT, paymentMethod: 'card', country: 'GB', externalUserId: 'bench' }),
).toString();

async function startFloor(sim: RunningServer): Promise<RunningServer> {
  log('starting the bare fan-out (floor)');
  const fast = BENCH_PROVIDER_CODES.filter((c) => c !== SLOW_PROVIDER);
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

async function benchOffers(api: RunningServer, floor: RunningServer, sim: RunningServer): Promise<OffersFigures> {
  const url = api.url + OFFERS_PATH;
  const watch = { api: api.pid, simulators: sim.pid };
  const floorWatch = { fanout: floor.pid, simulators: sim.pid };
  let users = 0;
  const extra: Partial<LoadOptions> = {
    timeoutSec: 30,
    ...(OFFERS_USERS === 'per-connection'
      ? {
          pathFor: (connection: Record<string, unknown>) => {
            if (typeof connection.user !== 'string') connection.user = `bench_${++users}`;
            return offersPath(connection.user as string);
          },
        }
      : {}),
  };

  const samples = [await sample(api, 'catalogues loading, all six at 100 ms')];
  if (samples[0]!.offers.length !== BENCH_PROVIDER_CODES.length) {
    throw new Error(`expected offers from all six providers while warming, got ${samples[0]!.offers.join(', ')}`);
  }
  const allFast = await load('offers warm-up, all six at 100 ms', url, OFFERS_WARMUP_SECONDS, watch, extra);

  await setLatency(sim, SLOW_PROVIDER, SLOW_LATENCY_MS);
  const slowWarmup = await load(`offers warm-up, ${SLOW_PROVIDER} at 10 s`, url, OFFERS_SLOW_WARMUP_SECONDS, watch, extra);
  const floorWarmup = await load('floor warm-up (bare fan-out)', floor.url + '/', OFFERS_WARMUP_SECONDS, floorWatch);

  const runApi = async (pair: number) => {
    const label = `offers ${pair}/${OFFERS_PAIRS}, ${SLOW_PROVIDER} at 10 s`;
    const measured = { ...extra, settleSec: OFFERS_SETTLE_SECONDS };
    if (pair > 1) return load(label, url, OFFERS_SETTLE_SECONDS + OFFERS_SECONDS, watch, measured);
    const running = load(label, url, OFFERS_SETTLE_SECONDS + OFFERS_SECONDS, watch, measured);
    await new Promise((resolve) => setTimeout(resolve, (OFFERS_SETTLE_SECONDS + OFFERS_SECONDS / 2) * 1000));
    samples.push(await sample(api, `${SLOW_PROVIDER} at 10 s, under load`));
    return running;
  };
  const runFloor = (pair: number) =>
    load(`floor ${pair}/${OFFERS_PAIRS} (bare fan-out)`, floor.url + '/', OFFERS_SETTLE_SECONDS + OFFERS_SECONDS, floorWatch, {
      settleSec: OFFERS_SETTLE_SECONDS,
    });
  const pairs: OffersPair[] = [];
  for (let pair = 1; pair <= OFFERS_PAIRS; pair++) {
    const apiFirst = pair % 2 === 1;
    if (apiFirst) {
      const apiRun = await runApi(pair);
      pairs.push({ api: apiRun, floor: await runFloor(pair), apiFirst });
    } else {
      const floorRun = await runFloor(pair);
      pairs.push({ api: await runApi(pair), floor: floorRun, apiFirst });
    }
  }

  const few = await load(`offers, ${SLOW_PROVIDER} at 10 s, few connections`, url, OFFERS_FEW_SECONDS, watch, {
    ...extra,
    connections: OFFERS_FEW_CONNECTIONS,
  });
  samples.push(await sample(api, `${SLOW_PROVIDER} at 10 s, unloaded`));

  const expected = BENCH_PROVIDER_CODES.filter((c) => c !== SLOW_PROVIDER).join(',');
  const correct = samples.slice(1).every((s) => s.offers.join(',') === expected);
  return { allFast, slowWarmup, floorWarmup, pairs, medians: offersMedians(pairs), few, samples, correct };
}

/** The figures of the measured runs: medians over the pairs, and every response of a side pooled. */
type OffersMedians = ReturnType<typeof offersMedians>;

function offersMedians(pairs: OffersPair[]) {
  const pooledP99 = (runs: LoadResult[]) =>
    percentile(
      runs.flatMap((r) => r.latenciesMs).sort((a, b) => a - b),
      99,
    );
  const apiRuns = pairs.map((p) => p.api);
  const floorRuns = pairs.map((p) => p.floor);
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
    apiCpuUs: median(apiRuns.map((r) => r.cpuPerRequestUs.api ?? NaN)),
    simCpuUs: median(apiRuns.map((r) => r.cpuPerRequestUs.simulators ?? NaN)),
    floorCpuUs: median(floorRuns.map((r) => r.cpuPerRequestUs.fanout ?? NaN)),
    stealPct: median(apiRuns.map((r) => r.stealPct)),
    floorStealPct: median(floorRuns.map((r) => r.stealPct)),
  };
}

// ---------------------------------------------------------------------------------------------

function loadRow(label: string, r: LoadResult): (string | number)[] {
  return [
    label,
    r.connections,
    round(r.durationSec, 1),
    round(r.rps, 1),
    r.requests,
    r.latency.p50,
    r.latency.p90,
    r.latency.p99,
    r.latency.max,
    r.non2xx,
    r.errors,
    cpuText(r),
    Object.entries(r.cpuPerRequestUs)
      .filter(([name]) => name !== 'load tool')
      .map(([name, us]) => `${name} ${round(us / 1000, 1)}`)
      .join(', '),
    round(r.stealPct, 1),
  ];
}

const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

/** Above this share of stolen CPU time, a run measured a machine slowed by its neighbours. */
const STEAL_WARNING_PCT = 5;

function stealWarning(out: string[], what: string, stealPct: number): void {
  if (stealPct > STEAL_WARNING_PCT) {
    out.push(
      `WARNING: during ${what} the hypervisor gave ${round(stealPct, 1)} % of this machine's CPU time to other guests: ` +
        'the figures describe a slower machine than usual; compare them with a run that had little steal.',
    );
  }
}

function reportDict(out: string[], dict: DictFigures, profile: DictProfile | undefined): void {
  out.push(
    `GET ${DICT_PATH} (${dict.bytes} bytes, ${dict.contentType}), ${CONNECTIONS} connections, ${DICT_PAIRS} pairs of ` +
      `${DICT_SECONDS} s runs (after ${DICT_SETTLE_SECONDS} s each that is not counted)`,
  );
  out.push(
    renderTable(
      ['pair', 'target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'server cpu us/req', 'cpu', 'steal %', 'api/bare req/s', 'bare/api cpu'],
      dict.runs.map((r, i) => {
        const pair = dict.pairs[Math.floor(i / 2)]!;
        const last = i % 2 === 1;
        return [
          Math.floor(i / 2) + 1,
          r.target,
          round(r.result.rps, 0),
          r.result.latency.p50,
          r.result.latency.p99,
          r.result.non2xx,
          round(r.result.cpuPerRequestUs[r.target] ?? NaN, 0),
          cpuText(r.result),
          round(r.result.stealPct, 1),
          last ? round(pair.rpsRatio, 3) : '',
          last ? round(pair.cpuRatio, 3) : '',
        ];
      }),
    ),
  );
  if (dict.non2xx > 0)
    out.push(`WARNING: the dictionary runs had ${dict.non2xx} non-2xx answers or errors (rate limit?): the ratio is not valid.`);
  stealWarning(out, 'the dictionary runs', dict.stealPct);
  out.push(
    `dict_rps_ratio = median of the pairs' api/bare req/s = ${round(dict.ratio, 3)} ` +
      `(median api req/s over median bare req/s: ${round(dict.ratioOfMedians, 3)}).`,
  );
  out.push(
    `CPU per request: api ${round(dict.apiUs, 0)} us, bare ${round(dict.bareUs, 0)} us (medians); bare/api = ${round(dict.cpuRatio, 3)} ` +
      "(median of the pairs': the same comparison by CPU time, less disturbed by the rest of the machine)",
  );
  out.push('');
  if (!profile) return;
  out.push(
    `Profile of ${DICT_PATH}: the same API process with middleware left out in turn, ${PROFILE_ROUNDS} interleaved rounds ` +
      `of ${PROFILE_SECONDS} s runs (after ${PROFILE_WARMUP_SECONDS} s of warm-up each); cpu = event-loop thread per request (median, and each round); cost = full api minus the variant`,
  );
  out.push(`Layers of the app, in order: ${dict.apiLayers.join(' > ')}`);
  const gap = profile.full.us - profile.bareUs;
  out.push(
    renderTable(
      ['server', 'req/s', 'cpu us/req', 'rounds', 'cost us/req', 'share of api-bare gap'],
      [
        ['bare express (first and last run)', round(profile.bareRps, 0), round(profile.bareUs, 0), '', '-', '-'],
        ...[profile.full, ...profile.variants].map((v) => [
          v.name,
          round(v.rps, 0),
          round(v.us, 0),
          v.usRuns.map((u) => round(u, 0)).join(' '),
          v === profile.full ? '-' : round(profile.full.us - v.us, 0),
          v === profile.full ? '-' : `${round(((profile.full.us - v.us) / gap) * 100, 0)} %`,
        ]),
      ],
    ),
  );
  out.push('');
}

function reportOffers(out: string[], offers: OffersFigures): void {
  const m = offers.medians;
  out.push(
    `GET /api/on_ramp/offers (GBP ${GBP.id} -> BTC ${BTC.id}, ${OFFERS_AMOUNT}, GB; external_user_id ${OFFERS_USERS === 'fixed' ? 'bench on every request' : 'one per connection'}): ` +
      `bench_1..5 answer in ${PROVIDER_LATENCY_MS} ms; default configuration (testConfig(): provider deadline ${PROVIDER_DEADLINE_MS} ms). ` +
      `Measured: ${OFFERS_PAIRS} pairs of ${OFFERS_SECONDS} s runs, the broker and the floor (a bare node:http fan-out asking bench_1..5 ` +
      'for the same quote and answering their five bodies, nothing else) back to back, alternating which goes first; ' +
      `each run's latencies are those of the requests sent after its first ${OFFERS_SETTLE_SECONDS} s, which opens the connections.`,
  );
  const measured = offers.pairs.flatMap((p, i) => {
    const api = loadRow(`pair ${i + 1}: broker`, p.api);
    const floor = loadRow(`pair ${i + 1}: floor`, p.floor);
    return p.apiFirst ? [api, floor] : [floor, api];
  });
  out.push(
    renderTable(
      [
        'run',
        'conns',
        's',
        'req/s',
        'requests',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'max ms',
        'non-2xx',
        'errors',
        'cpu',
        'cpu ms/req',
        'steal %',
      ],
      [
        loadRow(`warm-up, ${SLOW_PROVIDER} at 100 ms too`, offers.allFast),
        loadRow(`warm-up, ${SLOW_PROVIDER} just turned 10 s`, offers.slowWarmup),
        loadRow('warm-up, floor', offers.floorWarmup),
        ...measured,
        loadRow(`${SLOW_PROVIDER} at 10 s, few connections`, offers.few),
      ],
    ),
  );
  stealWarning(out, 'the measured broker runs', m.stealPct);
  out.push('Per second of each measured run (responses over 1 s in brackets when any): p99 ms / steal %');
  for (const [i, p] of offers.pairs.entries()) {
    for (const [who, run] of [
      ['broker', p.api],
      ['floor', p.floor],
    ] as const) {
      const over = run.perSecond.some((b) => b.over1s > 0) ? ` [over 1 s: ${run.perSecond.map((b) => b.over1s).join(' ')}]` : '';
      out.push(`  pair ${i + 1} ${who.padEnd(6)} ${run.perSecond.map((b) => `${b.p99}/${b.stealPct}`).join(' ')}${over}`);
    }
  }
  out.push(
    `Medians of the ${OFFERS_PAIRS} pairs: broker p50 ${m.p50} ms, p99 ${m.p99} ms; floor p50 ${m.floorP50} ms (${round(m.floorP50 / PROVIDER_LATENCY_MS, 3)}), ` +
      `p99 ${m.floorP99} ms (${round(m.floorP99 / PROVIDER_LATENCY_MS, 3)}); the broker over the floor (median of the pairs' ratios): ` +
      `p50 ${round(m.overFloorP50, 3)}, p99 ${round(m.overFloorP99, 3)}. ` +
      `Every response of the ${OFFERS_PAIRS} runs pooled: broker p99 ${round(m.pooledP99, 0)} ms, floor p99 ${round(m.floorPooledP99, 0)} ms.`,
  );
  out.push('Sample answers (include_errors=true):');
  out.push(
    renderTable(
      ['when', 'ms', 'offers from', SLOW_PROVIDER],
      offers.samples.map((s) => [s.when, round(s.ms, 0), s.offers.join(',') || '-', s.slow]),
    ),
  );
  out.push(`Correct (offers from bench_1..5 and none from ${SLOW_PROVIDER} while it is slow): ${offers.correct ? 'yes' : 'NO'}`);
  out.push(
    `At ${CONNECTIONS} connections a closed loop holds mean latency = ${CONNECTIONS} / req/s: ` +
      `${round((CONNECTIONS / (OFFERS_P50_TARGET * PROVIDER_LATENCY_MS)) * 1000, 0)} req/s are needed for a mean of ${round(OFFERS_P50_TARGET * PROVIDER_LATENCY_MS, 0)} ms; ` +
      `measured ${round(m.rps, 1)} req/s, mean ${round(m.meanMs, 0)} ms (medians of the broker runs).`,
  );
  out.push('');
}

/** without_<layer>, or without_all for the variant without every middleware. */
const variantKey = (v: Variant) => `without_${v.removed.length > 1 ? 'all' : (v.removed[0] ?? 'nothing')}`;

function dictSummary(dict: DictFigures, profile: DictProfile | undefined) {
  return {
    dict_api_rps: round(dict.apiRps, 0),
    dict_bare_rps: round(dict.bareRps, 0),
    dict_rps_ratio_of_medians: round(dict.ratioOfMedians, 3),
    dict_pair_ratios: dict.pairs.map((p) => round(p.rpsRatio, 2)).join(','),
    dict_runs_rps: dict.runs.map((r) => `${r.target}:${round(r.result.rps, 0)}`).join(','),
    dict_api_us_per_req: round(dict.apiUs, 0),
    dict_bare_us_per_req: round(dict.bareUs, 0),
    dict_cpu_ratio: round(dict.cpuRatio, 3),
    dict_non2xx: dict.non2xx,
    dict_steal_pct: round(dict.stealPct, 1),
    dict_bytes: dict.bytes,
    ...(profile
      ? {
          dict_profile_us_per_req: {
            bare: round(profile.bareUs, 0),
            full: round(profile.full.us, 0),
            ...Object.fromEntries(profile.variants.map((v) => [variantKey(v), round(v.us, 0)])),
          },
          dict_profile_rps: {
            bare: round(profile.bareRps, 0),
            full: round(profile.full.rps, 0),
            ...Object.fromEntries(profile.variants.map((v) => [variantKey(v), round(v.rps, 0)])),
          },
        }
      : {}),
  };
}

function offersSummary(offers: OffersFigures) {
  const m = offers.medians;
  const apiRuns = offers.pairs.map((p) => p.api);
  const each = (runs: LoadResult[], figure: (r: LoadResult) => number) => runs.map((r) => round(figure(r), 1)).join(',');
  const sum = (figure: (r: LoadResult) => number) => apiRuns.reduce((total, r) => total + figure(r), 0);
  return {
    offers_p50_ms: m.p50,
    offers_p99_ms: m.p99,
    offers_runs_p50_ms: each(apiRuns, (r) => r.latency.p50),
    offers_runs_p99_ms: each(apiRuns, (r) => r.latency.p99),
    offers_pooled_p99_ms: round(m.pooledP99, 0),
    offers_max_ms: Math.max(...apiRuns.map((r) => r.latency.max)),
    offers_mean_ms: round(m.meanMs, 1),
    offers_rps: round(m.rps, 1),
    offers_requests: sum((r) => r.requests),
    offers_non2xx: sum((r) => r.non2xx),
    offers_errors: sum((r) => r.errors),
    offers_correct: offers.correct,
    offers_api_cpu_ms_per_req: round(m.apiCpuUs / 1000, 2),
    offers_sim_cpu_ms_per_req: round(m.simCpuUs / 1000, 2),
    offers_steal_pct: round(m.stealPct, 1),
    offers_runs_steal_pct: each(apiRuns, (r) => r.stealPct),
    offers_users: OFFERS_USERS,
    offers_all_fast_p50_ms: offers.allFast.latency.p50,
    offers_all_fast_p99_ms: offers.allFast.latency.p99,
    offers_all_fast_rps: round(offers.allFast.rps, 1),
    offers_slow_warmup_p99_ms: offers.slowWarmup.latency.p99,
    [`offers_c${OFFERS_FEW_CONNECTIONS}_p50_ms`]: offers.few.latency.p50,
    [`offers_c${OFFERS_FEW_CONNECTIONS}_p99_ms`]: offers.few.latency.p99,
    [`offers_c${OFFERS_FEW_CONNECTIONS}_rps`]: round(offers.few.rps, 1),
    offers_floor_p50_ratio: round(m.floorP50 / PROVIDER_LATENCY_MS, 3),
    offers_floor_p99_ratio: round(m.floorP99 / PROVIDER_LATENCY_MS, 3),
    offers_floor_runs_p99_ms: each(
      offers.pairs.map((p) => p.floor),
      (r) => r.latency.p99,
    ),
    offers_floor_pooled_p99_ms: round(m.floorPooledP99, 0),
    offers_floor_rps: round(m.floorRps, 1),
    offers_floor_cpu_ms_per_req: round(m.floorCpuUs / 1000, 2),
    offers_floor_steal_pct: round(m.floorStealPct, 1),
    offers_over_floor_p50: round(m.overFloorP50, 3),
    offers_over_floor_p99: round(m.overFloorP99, 3),
    offers_pairs: OFFERS_PAIRS,
    offers_run_seconds: OFFERS_SECONDS,
  };
}

async function runDict(): Promise<{ dict: DictFigures; profile?: DictProfile }> {
  log('starting the dictionary API');
  const api = await startServer({ role: 'api' }, 'api-dict');
  try {
    const reference = await get(api.url + DICT_PATH);
    if (reference.status !== 200) throw new Error(`GET ${DICT_PATH}: HTTP ${reference.status}`);
    log('starting the bare Express app');
    const bare = await startServer(
      { role: 'bare', path: DICT_PATH, body: reference.body.toString('utf8'), contentType: reference.contentType },
      'bare',
    );
    try {
      const dict = await benchDict(api, bare, reference.body, reference.contentType);
      const runProfile = PROFILE === '1' || (PROFILE === 'auto' && dict.ratio < DICT_TARGET);
      return { dict, profile: runProfile ? await profileDict(api, bare) : undefined };
    } finally {
      await bare.stop();
    }
  } finally {
    await api.stop();
  }
}

async function runOffers(): Promise<OffersFigures> {
  log('starting the simulator host and the offers API');
  const latencies = Object.fromEntries(BENCH_PROVIDER_CODES.map((code) => [code, PROVIDER_LATENCY_MS]));
  const sim = await startServer({ role: 'sim', latencyMs: latencies }, 'simulators');
  try {
    const api = await startServer({ role: 'api', simUrl: sim.url }, 'api-offers');
    try {
      const floor = await startFloor(sim);
      try {
        return await benchOffers(api, floor, sim);
      } finally {
        await floor.stop();
      }
    } finally {
      await api.stop();
    }
  } finally {
    await sim.stop();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const load1 = os.loadavg()[0] ?? 0;
  log(`node ${process.version}, ${os.cpus().length} cores, load average ${load1.toFixed(2)}`);

  const dictPart = ONLY === 'offers' ? undefined : await runDict();
  const offers = ONLY === 'dict' ? undefined : await runOffers();

  const out: string[] = [];
  out.push(`API benchmark: node ${process.version}, ${os.cpus().length} cores, load average at start ${load1.toFixed(2)}`);
  out.push(
    'Load tool: autocannon in the parent process; each server in its own child process. cpu = cores used by each process ' +
      'during the run; us/req and ms/req = CPU time of its event-loop thread per request; steal % = share of the ' +
      "machine's CPU time the hypervisor gave to other guests during the run.",
  );
  out.push('');
  if (dictPart) reportDict(out, dictPart.dict, dictPart.profile);
  if (offers) reportOffers(out, offers);

  const ratio = dictPart?.dict.ratio;
  const medians = offers?.medians;
  const p50Ratio = medians ? medians.p50 / PROVIDER_LATENCY_MS : undefined;
  const p99Ratio = medians ? medians.p99 / PROVIDER_LATENCY_MS : undefined;
  const rows: (string | number)[][] = [];
  if (dictPart && ratio !== undefined) {
    rows.push(
      ['dict api req/s (median)', round(dictPart.dict.apiRps, 0), '', ''],
      ['dict bare req/s (median)', round(dictPart.dict.bareRps, 0), '', ''],
      ['dict_rps_ratio', round(ratio, 3), `>= ${DICT_TARGET}`, verdict(ratio >= DICT_TARGET)],
    );
  }
  if (offers && medians && p50Ratio !== undefined && p99Ratio !== undefined) {
    rows.push(
      [`offers p50 ms (median of ${OFFERS_PAIRS} runs)`, medians.p50, '', ''],
      [`offers p99 ms (median of ${OFFERS_PAIRS} runs)`, medians.p99, '', ''],
      ['offers_p50_ratio', round(p50Ratio, 3), `<= ${OFFERS_P50_TARGET}`, verdict(p50Ratio <= OFFERS_P50_TARGET)],
      ['offers_p99_ratio', round(p99Ratio, 3), `<= ${OFFERS_P99_TARGET}`, verdict(p99Ratio <= OFFERS_P99_TARGET)],
      [`offers p50 / p99 ms at ${OFFERS_FEW_CONNECTIONS} connections`, `${offers.few.latency.p50} / ${offers.few.latency.p99}`, '', ''],
    );
  }
  out.push(renderTable(['figure', 'value', 'target', ''], rows));
  out.push(`Total time ${round((Date.now() - started) / 1000, 1)} s`);

  const summary = {
    dict_rps_ratio: ratio === undefined ? null : round(ratio, 3),
    offers_p50_ratio: p50Ratio === undefined ? null : round(p50Ratio, 3),
    offers_p99_ratio: p99Ratio === undefined ? null : round(p99Ratio, 3),
    ...(dictPart ? dictSummary(dictPart.dict, dictPart.profile) : {}),
    ...(offers ? offersSummary(offers) : {}),
    connections: CONNECTIONS,
    cores: os.cpus().length,
    load_avg_start: round(load1, 2),
    seconds: round((Date.now() - started) / 1000, 1),
  };
  process.stdout.write(`${out.join('\n')}\n${JSON.stringify(summary)}\n`);
}

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  log('interrupted: stopping the servers');
  void stopAll().then(() => process.exit(130));
});

main()
  .then(() => stopAll())
  .then(() => process.exit(0))
  .catch(async (err: unknown) => {
    log(`failed: ${(err as Error).stack ?? String(err)}`);
    await stopAll();
    process.exit(1);
  });
