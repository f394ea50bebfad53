/**
 * The settings of the API benchmark (bench/api.ts): fixed durations and targets, and what the
 * environment may change.
 *
 * Environment (all optional): BENCH_DICT_SECONDS (20), BENCH_DICT_PAIRS (4), BENCH_OFFERS_SECONDS (10),
 * BENCH_OFFERS_PAIRS (3), BENCH_OFFERS_WIDTHS (5,10: the healthy providers of each offers fan-out), BENCH_CONNECTIONS (50),
 * BENCH_PROFILE = auto (profile the dictionary route's parts when its ratio is below 0.9) | 1 | 0,
 * BENCH_PROFILE_ROUNDS (3) = interleaved rounds of the profile (more rounds, steadier medians),
 * BENCH_OFFERS_USERS = fixed (every request external_user_id=bench) | per-connection (bench_<n>),
 * BENCH_ONLY = all | dict | offers (the JSON then has null for the ratios not measured),
 * BENCH_CHILD_NODE_ARGS = extra node flags for the server children (e.g. --cpu-prof --cpu-prof-dir=DIR).
 */
import { TEST_API_KEY, testConfig } from '../../test/helpers/config';
import { cryptoOf, fiatOf } from '../../test/helpers/currencies';

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

function widthsFromEnv(name: string, fallback: number[]): number[] {
  const raw = (process.env[name] ?? '').trim();
  if (raw === '') return fallback;
  const widths = raw.split(',').map((part) => Number(part.trim()));
  if (!widths.every((w) => Number.isInteger(w) && w >= 1 && w <= 50))
    throw new Error(`${name} must be comma-separated widths from 1 to 50`);
  return [...new Set(widths)].sort((a, b) => a - b);
}

function choiceFromEnv<T extends string>(name: string, choices: readonly T[]): T {
  const raw = (process.env[name] ?? '').trim() || choices[0]!;
  if (!choices.includes(raw as T)) throw new Error(`${name} must be one of ${choices.join(', ')}`);
  return raw as T;
}

export const CONNECTIONS = numberFromEnv('BENCH_CONNECTIONS', 50);
export const DICT_SECONDS = numberFromEnv('BENCH_DICT_SECONDS', 20);
export const DICT_PAIRS = Math.round(numberFromEnv('BENCH_DICT_PAIRS', 4));
// Each dictionary run's first half-second opens the connections and is left out of its req/s.
export const DICT_SETTLE_SECONDS = 0.5;
// Long enough for the JIT to settle on the API's larger code: the runs measure the steady state.
export const DICT_WARMUP_SECONDS = 3;
export const OFFERS_SECONDS = numberFromEnv('BENCH_OFFERS_SECONDS', 10);
export const OFFERS_PAIRS = Math.round(numberFromEnv('BENCH_OFFERS_PAIRS', 3));
/**
 * The fan-out widths of the offers runs, each run in full with its own servers: 5 healthy providers
 * (the benchmark's historical set) and 10 (the broker's ten providers). The widest gives the headline.
 */
export const OFFERS_WIDTHS = widthsFromEnv('BENCH_OFFERS_WIDTHS', [5, 10]);
// Each measured offers run's first second opens the connections and sends every connection's first
// request at once; its requests are left out of the run's latencies (the per-second lines show it).
export const OFFERS_SETTLE_SECONDS = 1;
export const OFFERS_WARMUP_SECONDS = 3;
// The provider deadline's maximum (default configuration), which a provider with no recent answers gets.
export const PROVIDER_DEADLINE_MS = testConfig().offersProviderTimeoutMs;
// The slow warm-up: the slow provider turns slow two seconds into the run, once the settle second (which opens
// the connections and sends every connection's first request at once) has passed and a second of
// steady traffic has followed it, so that the providers' recent latencies are those of steady
// traffic; the p99 of the requests sent in the next 10 s is offers_slow_warmup_p99_ms.
export const OFFERS_SLOW_SWITCH_SECONDS = OFFERS_SETTLE_SECONDS + 1;
export const OFFERS_SLOW_WARMUP_SECONDS = 10;
/** offers_slow_warmup_p99_ratio: that p99 over the healthy providers' p99 (offers_p99_ms). */
export const SLOW_WARMUP_RATIO_TARGET = 2;
// The realistic mix (provider_calls_per_offers_request): many users, a few popular amounts, their
// shares, and the length of the run.
export const MIX_USERS = 5000;
export const MIX_AMOUNTS: readonly (readonly [amount: string, share: number])[] = [
  ['100', 0.4],
  ['50', 0.25],
  ['250', 0.2],
  ['500', 0.1],
  ['1000', 0.05],
];
export const OFFERS_MIX_SECONDS = 6;
export const OFFERS_FEW_CONNECTIONS = 5;
export const OFFERS_FEW_SECONDS = 6;
export const PROFILE_SECONDS = 3;
export const PROFILE_WARMUP_SECONDS = 0.4;
export const PROFILE_ROUNDS = numberFromEnv('BENCH_PROFILE_ROUNDS', 3);
export const PROFILE = choiceFromEnv('BENCH_PROFILE', ['auto', '1', '0']);
export const OFFERS_USERS = choiceFromEnv('BENCH_OFFERS_USERS', ['fixed', 'per-connection']);
export const ONLY = choiceFromEnv('BENCH_ONLY', ['all', 'dict', 'offers']);

export const DICT_TARGET = 0.9;
export const OFFERS_P50_TARGET = 1.15;
export const OFFERS_P99_TARGET = 1.5;
/** What metrics may add to the broker's CPU time per offers request, in per cent (below). */
export const METRICS_OVERHEAD_TARGET_PCT = 5;

export const PROVIDER_LATENCY_MS = 100;
export const SLOW_LATENCY_MS = 10_000;

export const HEADERS = { 'x-api-key': TEST_API_KEY };
export const DICT_PATH = '/api/dict/currencies';

export const GBP = fiatOf('GBP');
export const BTC = cryptoOf('BTC', 'bitcoin');
export const OFFERS_AMOUNT = '100';
export const offersPath = (user: string, amount = OFFERS_AMOUNT) =>
  `/api/on_ramp/offers?external_user_id=${user}&currency_from=${GBP.id}&currency_to=${BTC.id}&amount_from=${amount}&country=GB`;
export const OFFERS_PATH = offersPath('bench');
/**
 * The amounts of the latency runs: 100.00, 100.01, ... 199.99 in turn, so that no two requests in
 * flight are alike and none is coalesced: every request costs one quote per provider, as a fan-out
 * of distinct requests does (the realistic mix measures coalescing on its own).
 */
export const distinctAmount = (n: number) => (100 + (n % 10_000) / 100).toFixed(2);

/**
 * The sell offers runs: GET /api/off_ramp/offers selling BTC for GBP in GB, over the same benchmark
 * providers (each buys BTC there, paying out by card: one sell quote per provider per request).
 */
export const SELL_OFFERS_AMOUNT = '0.01';
export const sellOffersPath = (user: string, amount = SELL_OFFERS_AMOUNT) =>
  `/api/off_ramp/offers?external_user_id=${user}&currency_from=${BTC.id}&currency_to=${GBP.id}&amount_from=${amount}&country=GB`;
export const SELL_OFFERS_PATH = sellOffersPath('bench');
/** As distinctAmount: 0.010000, 0.010001, ... 0.019999 BTC in turn, none coalesced. */
export const distinctSellAmount = (n: number) => (0.01 + (n % 10_000) / 1_000_000).toFixed(6);
