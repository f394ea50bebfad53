import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './ports';

let binaryPath: string | undefined;

/** The prometheus binary: $PROMETHEUS_PATH (set by jest's global setup), else found or installed by the script. */
export function prometheusPath(): string {
  binaryPath ??=
    process.env.PROMETHEUS_PATH ||
    execFileSync('bash', [join(__dirname, '../../scripts/ensure-prometheus.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  return binaryPath;
}

/** The promtool beside the prometheus binary (Debian's package ships both). */
export function promtoolPath(): string {
  return join(dirname(prometheusPath()), 'promtool');
}

export interface ScrapeTarget {
  job: string;
  /** `host:port`. */
  target: string;
  bearerToken?: string;
}

export interface PrometheusServer {
  url: string;
  /** An instant query through the HTTP API (/api/v1/query): each series' labels and value. */
  query(expr: string): Promise<{ labels: Record<string, string>; value: number }[]>;
  stop(): Promise<void>;
}

/** Stops Prometheus when it is sent SIGTERM, and by itself within 0.2 s of the test process being gone (jest's forceExit). */
const WATCHDOG = `
"$@" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 0' TERM INT HUP
while kill -0 "$WATCH_PID" 2>/dev/null && kill -0 "$child" 2>/dev/null; do
  sleep 0.2 & wait $!
done
kill -TERM "$child" 2>/dev/null
wait "$child"
`;

/**
 * A throwaway Prometheus on a free loopback port, scraping `targets` every `scrapeIntervalSeconds`,
 * its data in a temporary directory removed on stop. Resolves once it is ready.
 */
export async function startPrometheus(targets: ScrapeTarget[], scrapeIntervalSeconds = 1): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'onramp-prometheus-'));
  const jobs = targets.map(({ job, target, bearerToken }) =>
    [
      `  - job_name: ${JSON.stringify(job)}`,
      `    static_configs: [{ targets: [${JSON.stringify(target)}] }]`,
      ...(bearerToken ? [`    authorization: { type: Bearer, credentials: ${JSON.stringify(bearerToken)} }`] : []),
    ].join('\n'),
  );
  const config = `global:\n  scrape_interval: ${scrapeIntervalSeconds}s\n  scrape_timeout: ${scrapeIntervalSeconds}s\nscrape_configs:\n${jobs.join('\n')}\n`;
  writeFileSync(join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const args = [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ];
  const child: ChildProcess = spawn('bash', ['-c', WATCHDOG, 'prometheus-watchdog', prometheusPath(), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WATCH_PID: String(process.pid) },
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(killer);
      }
      rmSync(dir, { recursive: true, force: true });
    })());

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}): ${output}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus not ready within 20 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    stop,
    async query(expr) {
      const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expr }).toString()}`);
      const body = (await res.json()) as {
        status: string;
        error?: string;
        data: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== 'success') throw new Error(`query ${expr} failed: ${body.error}`);
      return body.data.result.map((r) => ({ labels: r.metric, value: Number(r.value[1]) }));
    },
  };
}
