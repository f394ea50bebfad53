/** The JSON line of the API benchmark: the headline ratios first, then every figure behind them. */
import os from 'node:os';
import type { LoadResult } from '../lib/load';
import { round } from '../lib/table';
import type { DictFigures } from './dict-runs';
import type { DictProfile, Variant } from './dict-profile';
import type { OffersFigures } from './offers-runs';
import { headlineOffers, headlineRatios, offersRatios, type ApiBenchResults } from './results';
import {
  CONNECTIONS,
  OFFERS_FEW_CONNECTIONS,
  OFFERS_WIDTHS,
  OFFERS_PAIRS,
  OFFERS_SECONDS,
  OFFERS_USERS,
  PROVIDER_LATENCY_MS,
} from './settings';

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
    offers_cpu_us_per_request_metrics_on: round(m.metricsOnCpuUs, 0),
    offers_cpu_us_per_request_metrics_off: round(m.metricsOffCpuUs, 0),
    offers_metrics_cpu_overhead_runs_pct: m.metricsOverheadPcts.map((pct) => round(pct, 1)).join(','),
    offers_metrics_on_cpu_us_runs: apiRuns.map((r) => round(r.cpuPerRequestUs.api ?? NaN, 0)).join(','),
    offers_metrics_off_cpu_us_runs: offers.pairs.map((p) => round(p.noMetrics.cpuPerRequestUs.api ?? NaN, 0)).join(','),
    offers_metrics_off_p50_ms: m.noMetricsP50,
    offers_metrics_off_p99_ms: m.noMetricsP99,
    offers_metrics_off_rps: round(m.noMetricsRps, 1),
    offers_metrics_off_steal_pct: round(m.noMetricsStealPct, 1),
    offers_sim_cpu_ms_per_req: round(m.simCpuUs / 1000, 2),
    offers_steal_pct: round(m.stealPct, 1),
    offers_runs_steal_pct: each(apiRuns, (r) => r.stealPct),
    offers_users: OFFERS_USERS,
    offers_all_fast_p50_ms: offers.allFast.latency.p50,
    offers_all_fast_p99_ms: offers.allFast.latency.p99,
    offers_all_fast_rps: round(offers.allFast.rps, 1),
    offers_slow_warmup_p99_ms: offers.slowWarmup.latency.p99,
    offers_slow_warmup_p50_ms: offers.slowWarmup.latency.p50,
    offers_slow_warmup_max_ms: offers.slowWarmup.latency.max,
    offers_slow_warmup_runs_p99_ms: offers.slowWarmup.perSecond.map((s) => s.p99).join(','),
    offers_mix_requests: offers.mix.offersRequests,
    offers_mix_quote_calls: offers.mix.quoteCalls,
    offers_mix_quotes_coalesced: offers.mix.coalesced,
    provider_quotes_asked_per_offers_request: round(
      (offers.mix.quoteCalls + offers.mix.coalesced) / Math.max(offers.mix.offersRequests, 1),
      3,
    ),
    offers_mix_p50_ms: offers.mix.load.latency.p50,
    offers_mix_p99_ms: offers.mix.load.latency.p99,
    offers_mix_rps: round(offers.mix.load.rps, 1),
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
    // The broker API child's memory (bench/api/memory.ts): its heap's allocation per request over the
    // measured broker runs (median, and each run), and its resident set at the highest.
    offers_alloc_kb_per_request: round(offers.memory.allocKb, 1),
    offers_alloc_kb_runs: offers.memory.allocKbRuns.map((kb) => round(kb, 1)).join(','),
    offers_gc_runs: offers.memory.gcRuns.join(','),
    api_rss_peak_mb: round(offers.memory.rssPeakMb, 1),
    api_rss_peak_mb_metrics_off: round(offers.memory.noMetricsRssPeakMb, 1),
    ...sellSummary(offers),
    offers_widths: OFFERS_WIDTHS.join(','),
    offers_pairs: OFFERS_PAIRS,
    offers_run_seconds: OFFERS_SECONDS,
  };
}

/** The sell offers runs of the same pairs, and each figure over the buy offers run beside it (median of the pairs). */
function sellSummary(offers: OffersFigures) {
  const sell = offers.sellMedians;
  const runs = offers.pairs.map((p) => p.sell);
  return {
    sell_offers_p50_ms: sell.p50,
    sell_offers_p99_ms: sell.p99,
    sell_offers_p50_ratio: round(sell.p50 / PROVIDER_LATENCY_MS, 3),
    sell_offers_p99_ratio: round(sell.p99 / PROVIDER_LATENCY_MS, 3),
    sell_offers_runs_p99_ms: runs.map((r) => r.latency.p99).join(','),
    sell_offers_pooled_p99_ms: round(sell.pooledP99, 0),
    sell_offers_rps: round(sell.rps, 1),
    sell_offers_requests: runs.reduce((total, r) => total + r.requests, 0),
    sell_offers_non2xx: runs.reduce((total, r) => total + r.non2xx + r.errors, 0),
    sell_offers_cpu_us_per_request: round(sell.apiCpuUs, 0),
    sell_offers_steal_pct: round(sell.stealPct, 1),
    sell_offers_warmup_p99_ms: offers.sellWarmup.latency.p99,
    sell_offers_correct: offers.sellCorrect,
    sell_over_buy_offers_p50: round(sell.p50OverBuy, 3),
    sell_over_buy_offers_p99: round(sell.p99OverBuy, 3),
    sell_over_buy_offers_rps: round(sell.rpsOverBuy, 3),
    sell_over_buy_offers_cpu: round(sell.cpuOverBuy, 3),
  };
}

function narrowerSummary(offers: OffersFigures) {
  const { p50Ratio, p99Ratio, metricsOverheadPct, slowWarmupRatio, callsPerRequest } = offersRatios(offers);
  return {
    offers_p50_ratio: round(p50Ratio ?? NaN, 3),
    offers_p99_ratio: round(p99Ratio ?? NaN, 3),
    offers_p50_ms: offers.medians.p50,
    offers_p99_ms: offers.medians.p99,
    offers_runs_p99_ms: offers.pairs.map((p) => p.api.latency.p99).join(','),
    offers_floor_p50_ms: offers.medians.floorP50,
    offers_floor_p99_ms: offers.medians.floorP99,
    offers_api_cpu_ms_per_req: round(offers.medians.apiCpuUs / 1000, 2),
    offers_metrics_cpu_overhead_pct: round(metricsOverheadPct ?? NaN, 1),
    offers_slow_warmup_p99_ratio: round(slowWarmupRatio ?? NaN, 3),
    provider_calls_per_offers_request: round(callsPerRequest ?? NaN, 3),
    offers_alloc_kb_per_request: round(offers.memory.allocKb, 1),
    api_rss_peak_mb: round(offers.memory.rssPeakMb, 1),
    offers_correct: offers.correct,
    sell_offers_p50_ms: offers.sellMedians.p50,
    sell_offers_p99_ms: offers.sellMedians.p99,
    sell_over_buy_offers_p50: round(offers.sellMedians.p50OverBuy, 3),
    sell_over_buy_offers_p99: round(offers.sellMedians.p99OverBuy, 3),
    sell_over_buy_offers_rps: round(offers.sellMedians.rpsOverBuy, 3),
    sell_offers_correct: offers.sellCorrect,
  };
}

export function summarize(results: ApiBenchResults) {
  const headline = headlineOffers(results);
  const { dictRatio, p50Ratio, p99Ratio, metricsOverheadPct, slowWarmupRatio, callsPerRequest } = headlineRatios(results);
  return {
    dict_rps_ratio: dictRatio === undefined ? null : round(dictRatio, 3),
    offers_p50_ratio: p50Ratio === undefined ? null : round(p50Ratio, 3),
    offers_p99_ratio: p99Ratio === undefined ? null : round(p99Ratio, 3),
    offers_metrics_cpu_overhead_pct: metricsOverheadPct === undefined ? null : round(metricsOverheadPct, 1),
    offers_slow_warmup_p99_ratio: slowWarmupRatio === undefined ? null : round(slowWarmupRatio, 3),
    provider_calls_per_offers_request: callsPerRequest === undefined ? null : round(callsPerRequest, 3),
    ...(results.dict ? dictSummary(results.dict.dict, results.dict.profile) : {}),
    ...(headline ? offersSummary(headline) : {}),
    offers_providers: headline?.width ?? null,
    // Each narrower fan-out of the same run, beside the headline: its figures that have targets.
    ...Object.fromEntries(
      (results.offers ?? [])
        .filter((offers) => offers !== headline)
        .map((offers) => [`offers_${offers.width}_providers`, narrowerSummary(offers)]),
    ),
    connections: CONNECTIONS,
    cores: os.cpus().length,
    load_avg_start: round(results.load1, 2),
    seconds: round((Date.now() - results.started) / 1000, 1),
  };
}
