/** One bounded autocannon run (in this process; the servers under load run in child processes). */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSec: number;
  headers?: Record<string, string>;
  /** Per-request timeout of the load tool. */
  timeoutSec?: number;
  /** The path of each request, from the connection's own context (e.g. one user per connection). */
  pathFor?: (connection: Record<string, unknown>) => string;
  /** Processes whose CPU time is measured over the run (Linux /proc; absent elsewhere). */
  watch?: Record<string, number>;
  /**
   * The first seconds only warm up (opening the connections, and the burst of every connection's
   * first request at once): req/s, the CPU figures and the latencies cover the rest of the run,
   * the latencies those of the requests sent after it.
   */
  settleSec?: number;
}

export interface LoadResult {
  url: string;
  connections: number;
  durationSec: number;
  /** Mean of autocannon's per-second request counts. */
  rps: number;
  requests: number;
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /**
   * Share of the machine's CPU time that the hypervisor gave to other guests during the run
   * (Linux /proc/stat "steal"), in percent; NaN where that cannot be read. A run with much steal
   * measured a slower machine than its neighbours.
   */
  stealPct: number;
  /** CPU used by each watched process over the run, in cores (1 = one core busy all the time). */
  cpu: Record<string, number>;
  /** CPU time of each watched process's main thread (event loop) per completed request, in microseconds. */
  cpuPerRequestUs: Record<string, number>;
  /**
   * Per second of the run: responses completed, how many of them took over 1 s, their p99, and the
   * steal of that second (NaN where /proc/stat cannot be read), so a tail can be set against the
   * hypervisor's bursts.
   */
  perSecond: { responses: number; over1s: number; p99: number; stealPct: number }[];
  /** The latency of every request sent after `settleSec`, ascending, so that runs can be pooled. */
  latenciesMs: number[];
}

/** The nearest-rank percentile of ascending values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) used so far by a process (all its threads: JIT compiler and GC helpers
 * too) or, with `mainThread`, by its main thread alone: the event loop, which bounds a Node server's
 * throughput. NaN when /proc cannot tell (not Linux).
 */
export function cpuSeconds(pid: number, mainThread = false): number {
  try {
    const stat = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** The machine's CPU time so far, all cores, in clock ticks: in total and stolen by the hypervisor. */
export function machineTicks(): { total: number; steal: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? NaN };
  } catch {
    return { total: NaN, steal: NaN };
  }
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const watch = Object.entries(options.watch ?? {});
  const snapshot = (responsesSoFar: number) => ({
    at: performance.now(),
    responses: responsesSoFar,
    cpu: watch.map(([, pid]) => cpuSeconds(pid)),
    loop: watch.map(([, pid]) => cpuSeconds(pid, true)),
    machine: machineTicks(),
  });
  let base = snapshot(0);
  const startedAt = base.at;
  const { pathFor, settleSec } = options;
  const responses: { at: number; ms: number }[] = [];
  const settle = settleSec ? setTimeout(() => (base = snapshot(responses.length)), settleSec * 1000) : undefined;
  const ticks = [machineTicks()];
  const sampler = setInterval(() => ticks.push(machineTicks()), 1000);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationSec,
        headers: options.headers,
        timeout: options.timeoutSec ?? 10,
        ...(pathFor
          ? {
              requests: [
                {
                  setupRequest: (request: autocannon.Request, context: object) => ({
                    ...request,
                    path: pathFor(context as Record<string, unknown>),
                  }),
                },
              ],
            }
          : {}),
      },
      (err: unknown, result: autocannon.Result) => {
        clearTimeout(guard);
        clearTimeout(settle);
        clearInterval(sampler);
        if (err) return reject(err instanceof Error ? err : new Error(JSON.stringify(err)));
        const end = snapshot(responses.length);
        const wall = (end.at - base.at) / 1000;
        const counted = Math.max(end.responses - base.responses, 1);
        const used = watch.map((_, i) => end.cpu[i]! - base.cpu[i]!);
        const loopUsed = watch.map((_, i) => end.loop[i]! - base.loop[i]!);
        const settleMs = (settleSec ?? 0) * 1000;
        const kept = responses
          .filter((r) => r.at - r.ms >= settleMs)
          .map((r) => r.ms)
          .sort((a, b) => a - b);
        const seconds = Array.from({ length: Math.ceil(options.durationSec) }, () => [] as number[]);
        for (const r of responses) seconds[Math.min(seconds.length - 1, Math.floor(r.at / 1000))]!.push(r.ms);
        const perSecond = seconds.map((ms, i) => {
          const [from, to] = [ticks[i], ticks[i + 1]];
          return {
            responses: ms.length,
            over1s: ms.filter((v) => v > 1000).length,
            p99: Math.round(
              percentile(
                ms.sort((a, b) => a - b),
                99,
              ),
            ),
            stealPct: from && to ? Math.round((100 * (to.steal - from.steal)) / (to.total - from.total)) : NaN,
          };
        });
        resolve({
          url: options.url,
          connections: options.connections,
          durationSec: result.duration,
          rps: settleSec ? counted / wall : result.requests.average,
          requests: result.requests.total,
          latency: settleSec
            ? {
                mean: kept.reduce((sum, ms) => sum + ms, 0) / Math.max(kept.length, 1),
                p50: Math.round(percentile(kept, 50)),
                p90: Math.round(percentile(kept, 90)),
                p99: Math.round(percentile(kept, 99)),
                max: Math.round(kept.at(-1) ?? NaN),
              }
            : {
                mean: result.latency.average,
                p50: result.latency.p50,
                p90: result.latency.p90,
                p99: result.latency.p99,
                max: result.latency.max,
              },
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          stealPct: (100 * (end.machine.steal - base.machine.steal)) / (end.machine.total - base.machine.total),
          cpu: Object.fromEntries(watch.map(([name], i) => [name, used[i]! / wall])),
          cpuPerRequestUs: Object.fromEntries(watch.map(([name], i) => [name, (loopUsed[i]! / counted) * 1e6])),
          perSecond,
          latenciesMs: kept,
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      responses.push({ at: performance.now() - startedAt, ms: responseTime });
    });
    // autocannon stops by itself after `duration`; this guard only bounds a run that would not.
    const guard = setTimeout(() => instance.stop(), (options.durationSec + (options.timeoutSec ?? 10) + 15) * 1000);
  });
}
