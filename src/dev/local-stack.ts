import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { ApiServer } from '../api/http-server';
import { buildApi } from '../api/server';
import { Ranking } from '../ranking/ranking';
import { sandboxCredentials, withEndpoints, type AppConfig } from '../config';
import type { Logger } from '../logging';
import { createProviderRegistry } from '../providers/registry';
import { createSimulatorHost, type SimulatorHost } from '../simulators';
import type { SimulatorFaults } from '../simulators/kit/faults';
import type { SandboxSimulator } from '../simulators/sandbox/server';
import { ReviewTeller } from '../temporal/reviews';
import { IntegratorDirectory } from '../config/integrators';
import { WebhookDeliverer } from '../webhooks/delivery';
import { createOrderWorker } from '../worker/build';
import { OrderSearch } from '../orders/search';
import { keepReconciliationSchedules } from '../reconciliation/schedules';
import { encryptingDataConverter } from '../temporal/codec';
import { tracingClientInterceptors } from '../temporal/tracing';

export interface LocalStackOptions {
  config: AppConfig;
  client: Client;
  connection: NativeConnection;
  logger: Logger;
  host?: string;
  apiPort?: number;
  simulatorPort?: number;
  settleDelayMs?: number;
  /** How long a sandbox sell order waits for its deposit (src/simulators/index.ts; 30 minutes when absent). */
  depositWindowMs?: number;
  faults?: Partial<SimulatorFaults>;
  /** Each simulator's source of chance, by provider code (src/simulators/index.ts); Math.random when absent. */
  simulatorRandom?: (code: string) => () => number;
  workflowBundle?: { code: string };
  /** Start an order worker in this process (default true). */
  worker?: boolean;
  /** The operator API's clock (BuildApiOverrides.operatorClock): tests summarize today as if it had ended. */
  operatorClock?: () => number;
}

export interface LocalStack {
  apiUrl: string;
  simulatorUrl: string;
  config: AppConfig;
  /** The `sandbox` provider's simulator. */
  simulator: SandboxSimulator;
  /** Every simulated provider. */
  simulators: SimulatorHost;
  worker?: Worker;
  /** The offers' ranking, shared by the API and the worker. */
  ranking: Ranking;
  /** The API's Temporal client (with this stack's payload encryption). */
  client: Client;
  stop(): Promise<void>;
}

async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return `http://${host}:${address.port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The API, the provider simulators and an order worker in one process, wired to each other
 * over real HTTP on loopback: what `npm run dev` runs and what the end-to-end tests start.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const host = options.host ?? '127.0.0.1';
  const api = new ApiServer();
  const apiServer = api.server;
  const simulatorServer = createServer();
  const apiUrl = await listen(apiServer, host, options.apiPort ?? 0);
  const simulatorUrl = await listen(simulatorServer, host, options.simulatorPort ?? 0);

  // Providers without credentials run against this stack's own simulator host.
  const config = withEndpoints(options.config, { publicBaseUrl: apiUrl, simulatorUrl });
  const simulators = createSimulatorHost({
    sandbox: sandboxCredentials(config.providerEnv),
    secret: config.providerEnv.SIMULATOR_SECRET,
    brokerUrl: apiUrl,
    publicUrl: simulatorUrl,
    settleDelayMs: options.settleDelayMs,
    depositWindowMs: options.depositWindowMs,
    faults: options.faults,
    random: options.simulatorRandom,
    log: (message) => options.logger.debug({ component: 'simulator' }, message),
  });
  simulatorServer.on('request', simulators.app);
  // One set of adapters for the API and the worker, as one process shares them: provider sessions
  // (Transak's access token, which each new one revokes) and cached lists are not fetched twice.
  const providers = createProviderRegistry(config);
  // The API and the worker encrypt with this configuration's keys, whatever the given client does.
  const dataConverter = encryptingDataConverter(config.encryption.keys, config.encryption);
  const client = new Client({
    connection: options.client.connection,
    namespace: config.temporal.namespace,
    dataConverter,
    interceptors: tracingClientInterceptors(),
  });
  // One ranking for the API and the worker: in memory, the worker's records are what the API ranks by.
  const ranking = new Ranking(config, { logger: options.logger });
  api.serve(buildApi(config, client, options.logger, { providers, ranking, operatorClock: options.operatorClock }));

  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  const webhooks = new WebhookDeliverer(config.webhooks);
  if (options.worker !== false) {
    worker = await createOrderWorker({
      connection: options.connection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      providers,
      integrators: new IntegratorDirectory(config.integrators),
      webhooks,
      workflowBundle: options.workflowBundle,
      dataConverter,
      activitySlots: config.worker.activitySlots,
      webhookAttempts: config.worker.webhookAttempts,
      outcomes: ranking.recorder,
      reconciliation: { search: new OrderSearch({ client, hashKeys: config.encryption.keys, logger: options.logger }), client },
      reviews: new ReviewTeller({ client, taskQueue: config.temporal.taskQueue, keepMs: config.reviews.keepMs }),
    });
    running = worker.run();
    if (config.reconciliation.schedules) await keepReconciliationSchedules(client, providers.codes(), config, options.logger);
  }

  return {
    apiUrl,
    simulatorUrl,
    config,
    simulator: simulators.get('sandbox'),
    simulators,
    worker,
    ranking,
    client,
    async stop() {
      if (worker && worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      simulators.stop();
      await Promise.all([close(apiServer), close(simulatorServer), webhooks.close(), ranking.stop()]);
    },
  };
}
