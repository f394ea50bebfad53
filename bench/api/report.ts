/** The human-readable report of the API benchmark: every run, the profile, and the figures against their targets. */
import os from 'node:os';
import type { LoadResult } from '../lib/load';
import { renderTable, round } from '../lib/table';
import { slowProvider } from '../providers';
import type { DictFigures } from './dict-runs';
import type { DictProfile } from './dict-profile';
import { cpuText } from './measure';
import type { OffersFigures } from './offers-runs';
import { ALLOC_KB_TARGET, RSS_PEAK_MB_TARGET } from './memory';
import { headlineOffers, offersRatios, type ApiBenchResults } from './results';
import {
  BTC,
  CONNECTIONS,
  DICT_PAIRS,
  DICT_PATH,
  DICT_SECONDS,
  DICT_SETTLE_SECONDS,
  DICT_TARGET,
  GBP,
  METRICS_OVERHEAD_TARGET_PCT,
  MIX_AMOUNTS,
  MIX_USERS,
  OFFERS_AMOUNT,
  OFFERS_FEW_CONNECTIONS,
  OFFERS_P50_TARGET,
  OFFERS_P99_TARGET,
  OFFERS_PAIRS,
  OFFERS_SECONDS,
  OFFERS_SETTLE_SECONDS,
  OFFERS_USERS,
  PROFILE_ROUNDS,
  PROFILE_SECONDS,
  SLOW_WARMUP_RATIO_TARGET,
  PROFILE_WARMUP_SECONDS,
  PROVIDER_DEADLINE_MS,
  PROVIDER_LATENCY_MS,
  SELL_OFFERS_AMOUNT,
} from './settings';

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
    `Profile of ${DICT_PATH}: the same API process with its parts switched off in turn (each a variant built by buildApi with that part's setting off), ${PROFILE_ROUNDS} interleaved rounds ` +
      `of ${PROFILE_SECONDS} s runs (after ${PROFILE_WARMUP_SECONDS} s of warm-up each); cpu = event-loop thread per request (median, and each round); cost = full api minus the variant`,
  );
  out.push(`Parts switched off: ${dict.apiLayers.join(', ')} (bench/lib/api-variants.ts)`);
  const gap = profile.full.us - profile.bareUs;
  out.push(
    renderTable(
      ['server', 'req/s', 'cpu us/req', 'rounds', 'cost us/req', 'share of api-bare gap'],
      [
        ['bare express (first and last run)', round(profile.bareRps, 0), round(profile.bareUs, 0), '', '-', '-'],
        ...[profile.full, ...profile.variants].map((v) => [
          v === profile.full ? 'full api' : `api without ${v.removed.join(', ')}`,
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
  const SLOW_PROVIDER = slowProvider(offers.width);
  const fast = `bench_1..${offers.width}`;
  out.push(`Offers with ${offers.width} providers at ${PROVIDER_LATENCY_MS} ms and ${SLOW_PROVIDER} turning slow`);
  out.push(
    `GET /api/on_ramp/offers (GBP ${GBP.id} -> BTC ${BTC.id}, ${OFFERS_AMOUNT}, GB; external_user_id ${OFFERS_USERS === 'fixed' ? 'bench on every request' : 'one per connection'}): ` +
      `${fast} answer in ${PROVIDER_LATENCY_MS} ms; default configuration (testConfig(): provider deadline ${PROVIDER_DEADLINE_MS} ms). ` +
      `Measured: ${OFFERS_PAIRS} pairs of ${OFFERS_SECONDS} s runs, the broker and the floor (a bare node:http fan-out asking ${fast} ` +
      `for the same quote and answering their ${offers.width} bodies, nothing else) back to back, alternating which goes first, ` +
      'and next to the broker a run of the same broker in a second process with METRICS_ENABLED=false ' +
      '(odd pairs: no metrics, broker, floor; even pairs: floor, broker, no metrics); ' +
      `each run's latencies are those of the requests sent after its first ${OFFERS_SETTLE_SECONDS} s, which opens the connections.`,
  );
  const measured = offers.pairs.flatMap((p, i) => {
    const api = loadRow(`pair ${i + 1}: broker`, p.api);
    const floor = loadRow(`pair ${i + 1}: floor`, p.floor);
    const noMetrics = loadRow(`pair ${i + 1}: broker, metrics off`, p.noMetrics);
    const sell = loadRow(`pair ${i + 1}: broker, sell offers`, p.sell);
    return p.apiFirst ? [noMetrics, api, floor, sell] : [sell, floor, api, noMetrics];
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
        loadRow(`warm-up, metrics off, ${SLOW_PROVIDER} at 100 ms too`, offers.noMetricsAllFast),
        loadRow(`the 10 s after ${SLOW_PROVIDER} turned 10 s`, offers.slowWarmup),
        loadRow(`warm-up, metrics off, ${SLOW_PROVIDER} at 10 s`, offers.noMetricsSlowWarmup),
        loadRow('warm-up, floor', offers.floorWarmup),
        loadRow(`warm-up, sell offers, ${SLOW_PROVIDER} at 10 s`, offers.sellWarmup),
        ...measured,
        loadRow(`${SLOW_PROVIDER} at 10 s, few connections`, offers.few),
        loadRow(`realistic mix: ${MIX_USERS} users, amounts ${MIX_AMOUNTS.map(([a]) => a).join('/')}`, offers.mix.load),
      ],
    ),
  );
  stealWarning(out, 'the measured broker runs', m.stealPct);
  out.push('Per second of each measured run (responses over 1 s in brackets when any): p99 ms / steal %');
  for (const [i, p] of offers.pairs.entries()) {
    for (const [who, run] of [
      ['broker', p.api],
      ['floor', p.floor],
      ['no metrics', p.noMetrics],
      ['sell', p.sell],
    ] as const) {
      const over = run.perSecond.some((b) => b.over1s > 0) ? ` [over 1 s: ${run.perSecond.map((b) => b.over1s).join(' ')}]` : '';
      out.push(`  pair ${i + 1} ${who.padEnd(10)} ${run.perSecond.map((b) => `${b.p99}/${b.stealPct}`).join(' ')}${over}`);
    }
  }
  out.push(
    `Medians of the ${OFFERS_PAIRS} pairs: broker p50 ${m.p50} ms, p99 ${m.p99} ms; floor p50 ${m.floorP50} ms (${round(m.floorP50 / PROVIDER_LATENCY_MS, 3)}), ` +
      `p99 ${m.floorP99} ms (${round(m.floorP99 / PROVIDER_LATENCY_MS, 3)}); the broker over the floor (median of the pairs' ratios): ` +
      `p50 ${round(m.overFloorP50, 3)}, p99 ${round(m.overFloorP99, 3)}. ` +
      `Every response of the ${OFFERS_PAIRS} runs pooled: broker p99 ${round(m.pooledP99, 0)} ms, floor p99 ${round(m.floorPooledP99, 0)} ms.`,
  );
  out.push(
    `Metrics: the broker's event-loop CPU time per request ${round(m.metricsOnCpuUs, 0)} us with metrics, ` +
      `${round(m.metricsOffCpuUs, 0)} us with METRICS_ENABLED=false (medians of the runs); with / without - 1 in each pair: ` +
      `${m.metricsOverheadPcts.map((pct) => `${round(pct, 1)} %`).join(', ')}; median ${round(m.metricsOverheadPct, 1)} % ` +
      `(offers_metrics_cpu_overhead_pct). Without metrics: p50 ${m.noMetricsP50} ms, p99 ${m.noMetricsP99} ms, ${round(m.noMetricsRps, 1)} req/s.`,
  );
  const sell = offers.sellMedians;
  out.push(
    `Sell offers (GET /api/off_ramp/offers, BTC ${BTC.id} -> GBP ${GBP.id}, ${SELL_OFFERS_AMOUNT} BTC in distinct amounts, GB, card payout; ` +
      `the same providers, latencies, connections and run length, each run at the end of an odd pair and the start of an even one): ` +
      `p50 ${sell.p50} ms, p99 ${sell.p99} ms, ${round(sell.rps, 1)} req/s, ${round(sell.apiCpuUs, 0)} us of the broker's event loop per request ` +
      `(medians of the ${OFFERS_PAIRS} runs; pooled p99 ${round(sell.pooledP99, 0)} ms); over the buy offers run of the same pair ` +
      `(median of the pairs' ratios): p50 ${round(sell.p50OverBuy, 3)}, p99 ${round(sell.p99OverBuy, 3)}, req/s ${round(sell.rpsOverBuy, 3)}, ` +
      `CPU per request ${round(sell.cpuOverBuy, 3)}.`,
  );
  out.push(
    `The 10 s after ${SLOW_PROVIDER} turned slow, per second (p99 ms / steal %): ${offers.slowWarmup.perSecond.map((b) => `${b.p99}/${b.stealPct}`).join(' ')}; ` +
      `p99 ${offers.slowWarmup.latency.p99} ms, max ${offers.slowWarmup.latency.max} ms, against the healthy providers' p99 ${m.p99} ms (offers_slow_warmup_p99_ratio).`,
  );
  out.push(
    `Realistic mix (${MIX_USERS} users, amounts ${MIX_AMOUNTS.map(([a, share]) => `${a} ${Math.round(share * 100)} %`).join(', ')}): ` +
      `${offers.mix.offersRequests} offers requests, ${offers.mix.quoteCalls} quote calls sent, ${offers.mix.coalesced} coalesced ` +
      `(${round(offers.mix.quoteCalls / Math.max(offers.mix.offersRequests, 1), 3)} calls per request; ` +
      `${round((offers.mix.quoteCalls + offers.mix.coalesced) / Math.max(offers.mix.offersRequests, 1), 3)} quotes asked per request).`,
  );
  const memory = offers.memory;
  out.push(
    `Memory of the broker API child: its heap allocated ${memory.allocKbRuns.map((kb) => `${round(kb, 1)}`).join(', ')} KB per request ` +
      `in the measured broker runs (median ${round(memory.allocKb, 1)} KB, offers_alloc_kb_per_request), with ` +
      `${memory.gcRuns.join(', ')} collections (${memory.gcMsRuns.map((ms) => round(ms, 0)).join(', ')} ms of pauses); ` +
      `resident set at its highest ${round(memory.rssPeakMb, 1)} MB (api_rss_peak_mb; ${round(memory.noMetricsRssPeakMb, 1)} MB without metrics).`,
  );
  out.push('Sample answers (include_errors=true):');
  out.push(
    renderTable(
      ['when', 'ms', 'offers from', SLOW_PROVIDER],
      offers.samples.map((s) => [s.when, round(s.ms, 0), s.offers.join(',') || '-', s.slow]),
    ),
  );
  out.push('Sample sell offers answers (include_errors=true):');
  out.push(
    renderTable(
      ['when', 'ms', 'sell offers from', SLOW_PROVIDER],
      offers.sellSamples.map((s) => [s.when, round(s.ms, 0), s.offers.join(',') || '-', s.slow]),
    ),
  );
  out.push(`Correct (offers from ${fast} and none from ${SLOW_PROVIDER} while it is slow): ${offers.correct ? 'yes' : 'NO'}`);
  out.push(`Correct sell offers (likewise): ${offers.sellCorrect ? 'yes' : 'NO'}`);
  out.push(
    `At ${CONNECTIONS} connections a closed loop holds mean latency = ${CONNECTIONS} / req/s: ` +
      `${round((CONNECTIONS / (OFFERS_P50_TARGET * PROVIDER_LATENCY_MS)) * 1000, 0)} req/s are needed for a mean of ${round(OFFERS_P50_TARGET * PROVIDER_LATENCY_MS, 0)} ms; ` +
      `measured ${round(m.rps, 1)} req/s, mean ${round(m.meanMs, 0)} ms (medians of the broker runs).`,
  );
  out.push('');
}

function figuresTable(results: ApiBenchResults): string {
  const { dict } = results;
  const rows: (string | number)[][] = [];
  if (dict) {
    rows.push(
      ['dict api req/s (median)', round(dict.dict.apiRps, 0), '', ''],
      ['dict bare req/s (median)', round(dict.dict.bareRps, 0), '', ''],
      ['dict_rps_ratio', round(dict.dict.ratio, 3), `>= ${DICT_TARGET}`, verdict(dict.dict.ratio >= DICT_TARGET)],
    );
  }
  // The headline (widest) fan-out first, then each narrower one beside it, from the same run.
  for (const offers of [...(results.offers ?? [])].reverse()) rows.push(...offersRows(offers, offers === headlineOffers(results)));
  return renderTable(['figure', 'value', 'target', ''], rows);
}

/** One fan-out width's figures; the headline width's under the JSON's own names, the others labelled with their width. */
function offersRows(offers: OffersFigures, headline: boolean): (string | number)[][] {
  const { p50Ratio, p99Ratio, metricsOverheadPct, slowWarmupRatio, callsPerRequest } = offersRatios(offers);
  const at = headline ? ` (${offers.width} providers)` : ` [${offers.width} providers]`;
  const rows: (string | number)[][] = [];
  if (p50Ratio === undefined || p99Ratio === undefined) return rows;
  rows.push(
    [`offers p50 ms (median of ${OFFERS_PAIRS} runs)${at}`, offers.medians.p50, '', ''],
    [`offers p99 ms (median of ${OFFERS_PAIRS} runs)${at}`, offers.medians.p99, '', ''],
    [`offers_p50_ratio${at}`, round(p50Ratio, 3), `<= ${OFFERS_P50_TARGET}`, verdict(p50Ratio <= OFFERS_P50_TARGET)],
    [`offers_p99_ratio${at}`, round(p99Ratio, 3), `<= ${OFFERS_P99_TARGET}`, verdict(p99Ratio <= OFFERS_P99_TARGET)],
    [`offers floor p50 / p99 ms${at}`, `${offers.medians.floorP50} / ${offers.medians.floorP99}`, '', ''],
    [`offers p50 / p99 ms at ${OFFERS_FEW_CONNECTIONS} connections${at}`, `${offers.few.latency.p50} / ${offers.few.latency.p99}`, '', ''],
    [`offers_cpu_us_per_request_metrics_on${at}`, round(offers.medians.metricsOnCpuUs, 0), '', ''],
    [`offers_cpu_us_per_request_metrics_off${at}`, round(offers.medians.metricsOffCpuUs, 0), '', ''],
  );
  const memory = offers.memory;
  rows.push(
    [`offers_alloc_kb_per_request${at}`, round(memory.allocKb, 1), `<= ${ALLOC_KB_TARGET}`, verdict(memory.allocKb <= ALLOC_KB_TARGET)],
    [`api_rss_peak_mb${at}`, round(memory.rssPeakMb, 1), `<= ${RSS_PEAK_MB_TARGET}`, verdict(memory.rssPeakMb <= RSS_PEAK_MB_TARGET)],
  );
  if (metricsOverheadPct !== undefined) {
    rows.push([
      `offers_metrics_cpu_overhead_pct${at}`,
      round(metricsOverheadPct, 1),
      `< ${METRICS_OVERHEAD_TARGET_PCT}`,
      verdict(metricsOverheadPct < METRICS_OVERHEAD_TARGET_PCT),
    ]);
  }
  if (slowWarmupRatio !== undefined) {
    rows.push(
      [`offers p99 ms, the 10 s after ${slowProvider(offers.width)} turned slow${at}`, offers.slowWarmup.latency.p99, '', ''],
      [
        `offers_slow_warmup_p99_ratio${at}`,
        round(slowWarmupRatio, 3),
        `<= ${SLOW_WARMUP_RATIO_TARGET}`,
        verdict(slowWarmupRatio <= SLOW_WARMUP_RATIO_TARGET),
      ],
    );
  }
  if (callsPerRequest !== undefined)
    rows.push([`provider_calls_per_offers_request (realistic mix)${at}`, round(callsPerRequest, 3), '', '']);
  const sell = offers.sellMedians;
  rows.push(
    [`sell offers p50 / p99 ms (median of ${OFFERS_PAIRS} runs)${at}`, `${sell.p50} / ${sell.p99}`, '', ''],
    [`sell_offers_p50_ratio${at}`, round(sell.p50 / PROVIDER_LATENCY_MS, 3), '', ''],
    [`sell_offers_p99_ratio${at}`, round(sell.p99 / PROVIDER_LATENCY_MS, 3), '', ''],
    [`sell offers req/s (median)${at}`, round(sell.rps, 1), '', ''],
    [`sell_offers_cpu_us_per_request${at}`, round(sell.apiCpuUs, 0), '', ''],
    [`sell_over_buy_offers_p50${at}`, round(sell.p50OverBuy, 3), '', ''],
    [`sell_over_buy_offers_p99${at}`, round(sell.p99OverBuy, 3), '', ''],
    [`sell_over_buy_offers_rps${at}`, round(sell.rpsOverBuy, 3), '', ''],
    [`sell_over_buy_offers_cpu${at}`, round(sell.cpuOverBuy, 3), '', ''],
  );
  return rows;
}

/** The report's lines, ending with the total time so far. */
export function renderReport(results: ApiBenchResults): string[] {
  const out: string[] = [];
  out.push(`API benchmark: node ${process.version}, ${os.cpus().length} cores, load average at start ${results.load1.toFixed(2)}`);
  out.push(
    'Load tool: autocannon in the parent process; each server in its own child process. cpu = cores used by each process ' +
      'during the run; us/req and ms/req = CPU time of its event-loop thread per request; steal % = share of the ' +
      "machine's CPU time the hypervisor gave to other guests during the run.",
  );
  out.push('');
  if (results.dict) reportDict(out, results.dict.dict, results.dict.profile);
  for (const offers of results.offers ?? []) reportOffers(out, offers);
  out.push(figuresTable(results));
  out.push(`Total time ${round((Date.now() - results.started) / 1000, 1)} s`);
  return out;
}
