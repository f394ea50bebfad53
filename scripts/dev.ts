/**
 * `npm run dev`: everything a newcomer needs on embedded defaults. Starts the Temporal dev server
 * (SQLite file in .data/, Web UI on :8233) unless TEMPORAL_ADDRESS is set, registers the broker's
 * search attributes, then runs the provider simulators, an order worker and the API.
 * Ctrl-C stops all of it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { ConfigError, DEFAULT_SANDBOX_PORT, loadConfig, type ProviderResolutions } from '../src/config';
import { DEFAULT_DEV_API_KEY } from '../src/config/env';
import { startLocalStack } from '../src/dev/local-stack';
import { createLogger } from '../src/logging';
import { ensureSearchAttributes } from '../src/temporal/search-attributes';
import { startMetricsServer } from '../src/metrics/server';
import { startTracing, stopTracing } from '../src/tracing';
import { installTemporalSdkRuntime, sdkLogger } from '../src/worker/telemetry';
import { ensureTemporalCli } from './lib/temporal-cli';
import { devServerDynamicConfigArgs } from './lib/temporal-dynamic-config';

const TEMPORAL_PORT = 7233;
const TEMPORAL_UI_PORT = 8233;
const log = (message: string) => process.stdout.write(`[dev] ${message}\n`);

async function waitForTemporal(address: string, timeoutMs: number, child?: ChildProcess): Promise<Connection> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`the Temporal dev server exited with code ${child.exitCode}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.getSystemInfo({});
      return connection;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`Temporal at ${address} did not answer within ${timeoutMs / 1000}s: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** One banner line per provider: where it runs, or why it does not. */
function providerLines(providers: ProviderResolutions, simulatorUrl: string): string[] {
  return Object.entries(providers).map(([code, resolution]) => {
    const where =
      resolution.mode === 'disabled'
        ? `disabled: ${resolution.reason}`
        : resolution.mode === 'live'
          ? 'live'
          : `simulated at ${simulatorUrl}/${code}`;
    return `    ${code.padEnd(17)} ${where}`;
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const externalTemporal = process.env.TEMPORAL_ADDRESS;
  const config = loadConfig({ NODE_ENV: 'development', ...process.env });
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'broker');
  // Before any client or server: they look for tracing once (OTEL_*; off when unset).
  const tracing = startTracing({ serviceName: 'onramp-dev' });
  const { metrics } = config;
  const sdkMetricsUrl = installTemporalSdkRuntime({
    logger: sdkLogger(logger),
    ...(metrics.temporalSdkPort ? { metrics: { host: metrics.host, port: metrics.temporalSdkPort } } : {}),
  });

  let temporalProcess: ChildProcess | undefined;
  if (!externalTemporal) {
    const cli = ensureTemporalCli();
    const dataDir = resolve(__dirname, '..', '.data');
    mkdirSync(dataDir, { recursive: true });
    log(`starting the Temporal dev server (${cli}); state in .data/temporal.db`);
    temporalProcess = spawn(
      cli,
      [
        'server',
        'start-dev',
        '--db-filename',
        resolve(dataDir, 'temporal.db'),
        '--ip',
        '127.0.0.1',
        '--port',
        String(TEMPORAL_PORT),
        '--ui-port',
        String(TEMPORAL_UI_PORT),
        '--log-level',
        'error',
        ...devServerDynamicConfigArgs(),
        // The UI decodes the encrypted payloads through the API's codec endpoint (docs/operations.md).
        ...(config.encryption.codecEndpoint ? ['--ui-codec-endpoint', `http://localhost:${config.port}/codec`] : []),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } else {
    log(`using the Temporal server at ${externalTemporal}`);
  }

  const stopTemporal = async () => {
    if (!temporalProcess || temporalProcess.exitCode !== null) return;
    const exited = new Promise((r) => temporalProcess.once('exit', r));
    temporalProcess.kill('SIGTERM');
    const timer = setTimeout(() => temporalProcess.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const connection = await waitForTemporal(config.temporal.address, 60_000, temporalProcess);
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const added = await ensureSearchAttributes(client, config.temporal.namespace);
    if (added.length > 0) log(`registered search attributes: ${added.join(', ')}`);
    const workerConnection = await NativeConnection.connect({ address: config.temporal.address });

    const stack = await startLocalStack({
      config,
      client,
      connection: workerConnection,
      logger,
      host: config.host,
      apiPort: config.port,
      simulatorPort: DEFAULT_SANDBOX_PORT,
    });

    // One process: one registry holds the API's and the worker's metrics, served on the API's port
    // unless API_METRICS_PORT (or WORKER_METRICS_PORT) names a port of its own.
    const metricsPort = metrics.apiPort ?? metrics.workerPort;
    const metricsServer = metricsPort
      ? await startMetricsServer({ host: metrics.host, port: metricsPort, token: metrics.token })
      : undefined;
    const metricsUrl = metricsServer ? `${metricsServer.url}/metrics` : metrics.onApiPort ? `${stack.apiUrl}/metrics` : undefined;
    const apiKey = process.env.ONRAMP_API_KEY ?? DEFAULT_DEV_API_KEY;
    const lines = [
      '',
      `  On-ramp broker is running (ready in ${((Date.now() - started) / 1000).toFixed(1)}s)`,
      '',
      `  API                 ${stack.apiUrl}/api`,
      `  Development API key ${apiKey}`,
      `  Temporal Web UI     ${externalTemporal ? "(your server's UI)" : `http://localhost:${TEMPORAL_UI_PORT}`}`,
      `  Temporal frontend   ${config.temporal.address}`,
      `  Provider simulators ${stack.simulatorUrl}`,
      `  Metrics             ${metricsUrl ?? 'not served'}${metricsUrl && metrics.token ? ' (Authorization: Bearer $METRICS_TOKEN)' : ''}`,
      `  SDK metrics         ${sdkMetricsUrl ?? 'off (TEMPORAL_SDK_METRICS_PORT)'}`,
      `  Traces              ${tracing ? `on (${process.env.OTEL_TRACES_EXPORTER ?? 'otlp'}, OTEL_*)` : 'off (OTEL_EXPORTER_OTLP_ENDPOINT)'}`,
      '  Providers',
      ...providerLines(stack.config.providers, stack.simulatorUrl),
      '',
      `  Try: curl -H 'X-Api-Key: ${apiKey}' ${stack.apiUrl}/api/dict/currencies`,
      '  Ctrl-C stops everything.',
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);

    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log(`${signal}: stopping`);
      await stack.stop();
      await metricsServer?.close();
      await stopTracing();
      await workerConnection.close();
      await connection.close();
      await stopTemporal();
      log('stopped');
      process.exit(0);
    };
    process.once('SIGINT', (s) => void shutdown(s));
    process.once('SIGTERM', (s) => void shutdown(s));
    temporalProcess?.once('exit', (code) => {
      if (!stopping) {
        log(`the Temporal dev server exited (code ${code}); stopping`);
        void shutdown('temporal-exit');
      }
    });
  } catch (err) {
    await stopTemporal();
    throw err;
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[dev] ${err instanceof ConfigError ? err.message : ((err as Error).stack ?? String(err))}\n`);
  process.exit(1);
});
