/**
 * `npm run cluster`: the production topology of docker-compose.yml on this machine, without Docker
 * (docs/operations.md, "Production"). State in .data/cluster; a second start reuses it. Ctrl-C stops
 * everything.
 */
import { resolve } from 'node:path';
import { startCluster } from './cluster';

const DEMO_API_KEY = 'obk_live_demo_3cad321183cdeeddebabd2518ba7d612';

async function main(): Promise<void> {
  const started = Date.now();
  const cluster = await startCluster({ dataDir: resolve(__dirname, '..', '..', '.data', 'cluster') });
  const { addresses } = cluster;
  const pids = cluster
    .processes()
    .map((p) => `    ${p.name.padEnd(14)} pid ${p.pid}`)
    .join('\n');
  process.stdout.write(
    [
      '',
      `  Cluster is running (ready in ${((Date.now() - started) / 1000).toFixed(1)}s); logs in .data/cluster/logs`,
      '',
      `  API (load balancer)  ${addresses.api}/api`,
      ...addresses.apis.map((url, i) => `  API process ${i + 1}        ${url}`),
      `  Demo API key         ${DEMO_API_KEY} (deploy/integrators.example.json)`,
      `  Temporal Web UI      ${addresses.ui}`,
      `  Temporal frontend    ${addresses.temporal}`,
      `  Provider simulators  ${addresses.simulators}`,
      `  Redis                ${addresses.redis}`,
      `  PostgreSQL           ${addresses.postgresql} (user temporal)`,
      '  Processes',
      pids,
      '',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n') + '\n',
  );
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`[cluster] ${signal}: stopping\n`);
    await cluster.stop();
    process.stdout.write('[cluster] stopped\n');
    process.exit(0);
  };
  // `on`, not `once`: Ctrl-C reaches both npm's tsx and this process, and tsx forwards it again; a
  // second SIGINT must not kill the supervisor half-way through stopping its processes.
  process.on('SIGINT', (s) => void shutdown(s));
  process.on('SIGTERM', (s) => void shutdown(s));
}

main().catch((err: unknown) => {
  process.stderr.write(`[cluster] ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
