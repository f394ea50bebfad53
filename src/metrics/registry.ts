import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The registry every metric of the broker is in (./metrics.ts), one per process. The API and the
 * worker each serve it (src/api/routes/metrics.ts, ./server.ts); in `npm run dev`, where both run in
 * one process, one endpoint shows both.
 */
export const registry = new Registry();

let processMetrics = false;

/** Adds the Node.js process metrics (CPU, memory, event loop lag, GC: `process_*`, `nodejs_*`) once, when something serves the registry. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

const hooks: (() => void)[] = [];

/** Runs `hook` before each scrape, for a gauge computed from state kept elsewhere. */
export function beforeScrape(hook: () => void): void {
  hooks.push(hook);
}

/** The registry in Prometheus's text format, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  for (const hook of hooks) hook();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
