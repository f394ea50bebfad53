/** What every run of the API benchmark measures with: a timed GET, and a load run logged to stderr. */
import { runLoad, type LoadOptions, type LoadResult } from '../lib/load';
import { round } from '../lib/table';
import { CONNECTIONS, HEADERS } from './settings';

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export async function get(url: string, headers: Record<string, string> = HEADERS) {
  const started = performance.now();
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body, ms: performance.now() - started };
}

export async function load(
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

export function cpuText(result: LoadResult): string {
  const entries = Object.entries(result.cpu).filter(([, v]) => Number.isFinite(v));
  return entries.length === 0 ? '-' : entries.map(([name, cores]) => `${name} ${Math.round(cores * 100)}%`).join(', ');
}
