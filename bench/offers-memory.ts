/**
 * What one offers request costs the broker API in memory: `npx tsx bench/offers-memory.ts`.
 *
 * The same set-up as the offers runs of `npm run bench:api` (bench/api/offers-runs.ts), smaller: a
 * simulator host with bench_1..N+1 at 100 ms (N = MEM_WIDTH, 5 by default), the broker API in its own child with the production node
 * flags (bench/servers.ts), a warm-up, bench_6 turned to 10 s and a second warm-up, then one load run
 * of GET /api/on_ramp/offers at 50 connections. It prints the bytes the API's JS heap allocated per
 * request over that run (bench/lib/memory.ts), its collections, and its resident set size (now and
 * at its highest), and as the last line of stdout one JSON object.
 *
 * MEM_PROFILE=1 adds a second run under V8's sampling heap profiler (objects already collected
 * included) and prints where the bytes were allocated: by function, then by file.
 *
 * MEM_AMOUNTS=distinct gives every request an amount of its own, as bench:api's latency runs do
 * (distinctAmount, bench/api/settings.ts), so that no two requests in flight ask a provider the same
 * quote and none is shared (identical quote calls in flight are coalesced): every request then costs
 * one call per provider.
 *
 * Environment: MEM_SECONDS (10) length of each run; MEM_CONNECTIONS (50); MEM_PROFILE (0); MEM_AMOUNTS (same);
 * MEM_WIDTH (5) the healthy providers of the fan-out, bench_<N+1> the one turned slow;
 * BENCH_CHILD_NODE_ARGS extra node flags for the API child (after the production ones, so a flag
 * given again there wins, e.g. --max-semi-space-size=16).
 */
import { startServer, stopAll, type RunningServer } from './lib/children';
import type { LoadOptions } from './lib/load';
import { rssOf, type AllocationSite } from './lib/memory';
import { renderTable, round } from './lib/table';
import { get, load, log } from './api/measure';
import { distinctAmount, OFFERS_PATH, offersPath, PROVIDER_DEADLINE_MS, PROVIDER_LATENCY_MS, SLOW_LATENCY_MS } from './api/settings';
import { benchProviderCodes, DEFAULT_WIDTH, slowProvider } from './providers';
import { runBench } from './lib/run-bench';

const SECONDS = Number(process.env.MEM_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.MEM_CONNECTIONS ?? 50);
const PROFILE = process.env.MEM_PROFILE === '1';
const DISTINCT = process.env.MEM_AMOUNTS === 'distinct';
const WIDTH = Number(process.env.MEM_WIDTH ?? DEFAULT_WIDTH);
const SLOW_PROVIDER = slowProvider(WIDTH);

async function setLatency(sim: RunningServer, code: string, latencyMs: number): Promise<void> {
  await fetch(`${sim.url}/${code}/_simulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latencyMs }),
    signal: AbortSignal.timeout(5000),
  });
}

const mb = (bytes: number) => round(bytes / 2 ** 20, 1);

function sitesTable(sites: AllocationSite[], requests: number, rows: number): string {
  const total = sites.reduce((sum, s) => sum + s.bytes, 0);
  return renderTable(
    ['bytes/request', 'share', 'where'],
    sites.slice(0, rows).map((s) => [round(s.bytes / requests, 0), `${round((100 * s.bytes) / total, 1)} %`, s.site]),
  );
}

async function main(): Promise<void> {
  if (!Number.isInteger(WIDTH) || WIDTH < 1) throw new Error('MEM_WIDTH must be a positive integer');
  const latencies = Object.fromEntries(benchProviderCodes(WIDTH).map((code) => [code, PROVIDER_LATENCY_MS]));
  const sim = await startServer({ role: 'sim', latencyMs: latencies, width: WIDTH }, 'simulators');
  const api = await startServer({ role: 'api', simUrl: sim.url, width: WIDTH }, 'api-offers', { METRICS_ENABLED: 'true' });
  const url = api.url + OFFERS_PATH;
  const watch = { api: api.pid, simulators: sim.pid };
  let sent = 0;
  const distinct: Partial<LoadOptions> = DISTINCT ? { pathFor: () => offersPath('bench', distinctAmount(sent++)) } : {};
  const first = await get(url);
  if (first.status !== 200) throw new Error(`offers: HTTP ${first.status}: ${first.body.toString()}`);
  const idle = { rss: rssOf(api.pid), memory: await api.memory() };
  log(
    `after the first request: RSS ${mb(idle.rss.rssBytes)} MB, heap ${mb(idle.memory.heapBytes)} MB (${mb(idle.memory.heapUsedBytes)} MB in use)`,
  );
  await load(`warm-up, all ${WIDTH + 1} at 100 ms`, url, 3, watch, { ...distinct, connections: CONNECTIONS });
  await setLatency(sim, SLOW_PROVIDER, SLOW_LATENCY_MS);
  await load(`warm-up, ${SLOW_PROVIDER} at 10 s`, url, Math.ceil(PROVIDER_DEADLINE_MS / 1000) + 2, watch, {
    ...distinct,
    connections: CONNECTIONS,
  });

  const before = await api.memory();
  const run = await load('measured run', url, SECONDS, watch, { ...distinct, connections: CONNECTIONS, timeoutSec: 30 });
  const after = await api.memory();
  const rss = rssOf(api.pid);
  const perRequest = (after.allocatedBytes - before.allocatedBytes) / run.requests;
  const gcs = after.gcs - before.gcs;
  const out: string[] = [];
  out.push(
    `${run.requests} offers requests (${round(run.rps, 0)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, non-2xx ${run.non2xx}): ` +
      `${round(perRequest / 1024, 1)} KB allocated per request; ${gcs} collections, ${round(after.gcMs - before.gcMs, 0)} ms of pauses; ` +
      `RSS ${mb(rss.rssBytes)} MB now, ${mb(rss.peakBytes)} MB at the highest (VmHWM, since the child started); ` +
      `heap ${mb(after.heapBytes)} MB (${mb(after.heapUsedBytes)} MB in use, new space ${mb(after.newSpaceBytes)} MB; ` +
      `live after the last full collection ${mb(after.liveAfterMajorBytes)} MB, at most ${mb(after.maxLiveAfterMajorBytes)} MB).`,
  );

  let sites: { byFunction: AllocationSite[]; byFile: AllocationSite[]; requests: number } | undefined;
  if (PROFILE) {
    await api.heapSampling('start');
    const profiled = await load('profiled run', url, SECONDS, watch, { ...distinct, connections: CONNECTIONS, timeoutSec: 30 });
    const byFunction = await api.heapSampling('stop');
    // A second short run for the same profile by file.
    await api.heapSampling('start');
    const byFileRun = await load('profiled run (by file)', url, SECONDS / 2, watch, {
      ...distinct,
      connections: CONNECTIONS,
      timeoutSec: 30,
    });
    const byFile = await api.heapSampling('stop', true);
    sites = { byFunction, byFile, requests: profiled.requests };
    out.push('', `Sampling heap profile (${profiled.requests} requests), by function:`, sitesTable(byFunction, profiled.requests, 40));
    out.push('', `By file (${byFileRun.requests} requests):`, sitesTable(byFile, byFileRun.requests, 25));
  }
  process.stdout.write(
    `${out.join('\n')}\n${JSON.stringify({
      offers_alloc_kb_per_request: round(perRequest / 1024, 1),
      api_rss_idle_mb: mb(idle.rss.rssBytes),
      api_rss_mb: mb(rss.rssBytes),
      api_rss_peak_mb: mb(rss.peakBytes),
      requests: run.requests,
      rps: round(run.rps, 1),
      p50_ms: run.latency.p50,
      p99_ms: run.latency.p99,
      heap_mb: mb(after.heapBytes),
      heap_used_mb: mb(after.heapUsedBytes),
      live_after_major_mb: mb(after.maxLiveAfterMajorBytes),
      gcs,
      gc_ms: round(after.gcMs - before.gcMs, 0),
      amounts: DISTINCT ? 'distinct' : 'same',
      node_args: process.env.BENCH_CHILD_NODE_ARGS ?? '',
      profiled: sites !== undefined,
    })}\n`,
  );
}

runBench(main, stopAll, log);
