import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What Prometheus scrapes, by job: host:port targets. */
export interface ScrapeTargets {
  /** The API processes' metrics ports (API_METRICS_PORT). */
  'onramp-api': string[];
  /** The workers' broker metrics (WORKER_METRICS_PORT). */
  'onramp-worker': string[];
  /** The workers' Temporal SDK exporters (TEMPORAL_SDK_METRICS_PORT). */
  'temporal-sdk': string[];
  /** The Temporal server's own metrics. */
  'temporal-server': string[];
}

/** The scrape jobs, in the order both configurations list them (docker-compose's is deploy/prometheus/prometheus.yml). */
export const SCRAPE_JOBS = [
  'onramp-api',
  'onramp-worker',
  'temporal-sdk',
  'temporal-server',
] as const satisfies readonly (keyof ScrapeTargets)[];

/** Prometheus's configuration for a cluster: its targets, the broker's alert rules. */
export function prometheusConfig(targets: ScrapeTargets, rulesFile: string, scrapeIntervalSeconds: number): string {
  const jobs = SCRAPE_JOBS.map(
    (job) => `  - job_name: ${job}
    static_configs:
      - targets: [${targets[job].map((t) => `'${t}'`).join(', ')}]`,
  );
  return `# Written by scripts/cluster/prometheus.ts on every start of the cluster.
global:
  scrape_interval: ${scrapeIntervalSeconds}s
  evaluation_interval: ${scrapeIntervalSeconds}s

rule_files:
  - ${rulesFile}

scrape_configs:
${jobs.join('\n')}
`;
}

export function writePrometheusConfig(dir: string, config: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'prometheus.yml');
  writeFileSync(file, config);
  return file;
}
