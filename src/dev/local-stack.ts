import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { buildApi } from '../api/server';
import { DEV_SANDBOX_API_KEY, DEV_SANDBOX_WEBHOOK_SECRET, type AppConfig } from '../config';
import type { Logger } from '../logging';
import { createProviderRegistry } from '../providers/registry';
import { createSimulatorHost, type SimulatorHost } from '../simulators';
import type { SimulatorFaults } from '../simulators/kit/faults';
import type { SandboxSimulator } from '../simulators/sandbox/server';
import { SANDBOX_PROVIDER_CODES } from '../providers/sandbox';
import { IntegratorDirectory } from '../config/integrators';
import { WebhookDeliverer } from '../webhooks/delivery';
import { createOrderWorker } from '../worker/build';

export interface LocalStackOptions {
  config: AppConfig;
  client: Client;
  connection: NativeConnection;
  logger: Logger;
  host?: string;
  apiPort?: number;
  simulatorPort?: number;
  settleDelayMs?: number;
  faults?: Partial<SimulatorFaults>;
  workflowBundle?: { code: string };
  /** Start an order worker in this process (default true). */
  worker?: boolean;
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
 * The API, the sandbox provider simulator and an order worker in one process, wired to each other
 * over real HTTP on loopback: what `npm run dev` runs and what the end-to-end tests start.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const host = options.host ?? '127.0.0.1';
  const apiServer = createServer();
  const simulatorServer = createServer();
  const apiUrl = await listen(apiServer, host, options.apiPort ?? 0);
  const simulatorUrl = await listen(simulatorServer, host, options.simulatorPort ?? 0);

  const sandbox = options.config.sandbox ?? {
    baseUrl: simulatorUrl,
    apiKey: DEV_SANDBOX_API_KEY,
    webhookSecret: DEV_SANDBOX_WEBHOOK_SECRET,
    providers: [...SANDBOX_PROVIDER_CODES],
  };
  const config: AppConfig = { ...options.config, publicBaseUrl: apiUrl, sandbox: { ...sandbox, baseUrl: simulatorUrl } };
  const simulators = createSimulatorHost({
    sandbox: { apiKey: sandbox.apiKey, webhookSecret: sandbox.webhookSecret },
    brokerUrl: apiUrl,
    publicUrl: simulatorUrl,
    settleDelayMs: options.settleDelayMs,
    faults: options.faults,
    log: (message) => options.logger.debug({ component: 'simulator' }, message),
  });
  simulatorServer.on('request', simulators.app);
  apiServer.on('request', buildApi(config, options.client, options.logger));

  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  const webhooks = new WebhookDeliverer(config.webhooks);
  if (options.worker !== false) {
    worker = await createOrderWorker({
      connection: options.connection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      providers: createProviderRegistry(config),
      integrators: new IntegratorDirectory(config.integrators),
      webhooks,
      workflowBundle: options.workflowBundle,
    });
    running = worker.run();
  }

  return {
    apiUrl,
    simulatorUrl,
    config,
    simulator: simulators.get('sandbox'),
    simulators,
    worker,
    async stop() {
      if (worker && worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      simulators.stop();
      await Promise.all([close(apiServer), close(simulatorServer), webhooks.close()]);
    },
  };
}
