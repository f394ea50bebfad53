/**
 * API benchmark: `npm run bench:api`.
 *
 * Prints a human-readable report and, as the last line of stdout, one JSON object with
 *   dict_rps_ratio    req/s of GET /api/dict/currencies over req/s of a bare Express handler that
 *                     answers the same bytes and content type (same run, same load tool, same
 *                     connections; after 3 s of warm-up each, eight pairs of short runs, one run of
 *                     each server back to back, alternating which goes first; median of the pairs' ratios)
 *   offers_p50_ratio  p50 latency of GET /api/on_ramp/offers over 100 ms, with ten simulated
 *   offers_p99_ratio  providers answering in 100 ms and an eleventh in 10 s, at 50 connections (p99
 *                     likewise); the median of three 10 s runs, each paired with a run of the floor;
 *                     the same with five and a sixth beside them (offers_5_providers), from the same run
 *   offers_metrics_cpu_overhead_pct  what metrics add to the broker's CPU time per offers request:
 *                     each pair also has a run of a second broker API child with
 *                     METRICS_ENABLED=false; the median of the pairs' (on / off - 1) x 100
 * Progress goes to stderr.
 *
 * Processes: this process runs only the orchestration and the load tool (autocannon, in-process).
 * Every server runs in its own forked child (bench/servers.ts): the broker API of the dictionary
 * runs (also profiled, by leaving middleware out in turn), the bare Express app, the simulator host
 * of the benchmark providers, and the two broker APIs of the offers runs (metrics on, and off). So the
 * load tool, the API and the simulators never share an event loop. They do share the machine's cores: the report gives, per
 * run, each process's CPU use (cores) and its event-loop thread's CPU time per request.
 * Everything binds 127.0.0.1, every load run is bounded in time, and every child is stopped before exit.
 *
 * Offers phases, for each fan-out width N (BENCH_OFFERS_WIDTHS, 5 and 10), each with servers of its
 * own: one request while every provider (bench_<N+1> included) answers in 100 ms, which loads
 * the catalogues (catalogue calls get the simulated latency too, and a 10 s catalogue would never
 * load); a warm-up at 100 ms everywhere; bench_<N+1> turned to 10 s; a warm-up in that state (whatever
 * the offers service does when a provider turns slow happens here, and is reported); a warm-up of
 * the floor (a bare fan-out to bench_1..N); then the measured pairs, one run of the broker and one
 * of the floor back to back, alternating which goes first; then a short run at 5 connections, which
 * shows the service's latency without the CPU saturation that 50 connections bring on a small machine.
 *
 * Settings (durations, connections, which parts run): bench/api/settings.ts, from the environment.
 */
import os from 'node:os';
import { stopAll } from './lib/children';
import { runDict } from './api/dict-runs';
import { log } from './api/measure';
import { runOffers } from './api/offers-runs';
import { renderReport } from './api/report';
import type { ApiBenchResults } from './api/results';
import { OFFERS_WIDTHS, ONLY } from './api/settings';
import { summarize } from './api/summary';
import { runBench } from './lib/run-bench';

async function main(): Promise<void> {
  const started = Date.now();
  const load1 = os.loadavg()[0] ?? 0;
  log(`node ${process.version}, ${os.cpus().length} cores, load average ${load1.toFixed(2)}`);

  const dict = ONLY === 'offers' ? undefined : await runDict();
  let offers: ApiBenchResults['offers'];
  if (ONLY !== 'dict') {
    offers = [];
    for (const width of OFFERS_WIDTHS) offers.push(await runOffers(width));
  }

  const results: ApiBenchResults = { started, load1, dict, offers };
  const out = renderReport(results);
  process.stdout.write(`${out.join('\n')}\n${JSON.stringify(summarize(results))}\n`);
}

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  log('interrupted: stopping the servers');
  void stopAll().then(() => process.exit(130));
});

runBench(main, stopAll, log);
