import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities, type OrderActivities } from '../../activities';
import { ReviewTeller } from '../../src/temporal/reviews';
import { IntegratorDirectory } from '../../src/config/integrators';
import type { Integrator } from '../../src/config/integrators';
import { currencyDictionary } from '../../src/domain/currencies';
import { createSandboxAdapter, SANDBOX_INFO } from '../../src/providers/sandbox';
import { ProviderRegistry } from '../../src/providers/registry';
import { SimulatorHost } from '../../src/simulators/kit/host';
import { SandboxSimulator } from '../../src/simulators/sandbox/server';
import { addSearchAttributes } from '../../src/temporal/search-attributes';
import { WebhookDeliverer } from '../../src/webhooks/delivery';
import { orderSinks } from '../../src/worker/sinks';
import { workflowBundle } from './temporal';

const API_KEY = 'sk_sandbox_time_skipping';

export interface TimeSkippingOptions {
  taskQueue: string;
  /** The integrators the worker's activities know (default: one without a webhook endpoint). */
  integrators?: Integrator[];
  /** How long the sandbox simulator takes from payment to completion (its default otherwise). */
  settleDelayMs?: number;
  /** Wraps the real activities, e.g. to record when each was scheduled. */
  activities?: (real: OrderActivities) => OrderActivities;
}

export interface TimeSkippingStack {
  env: TestWorkflowEnvironment;
  simulator: SandboxSimulator;
  stop(): Promise<void>;
}

/**
 * Temporal's time-skipping test server with an order worker whose activities are the real ones,
 * talking HTTP to the sandbox simulator; the simulator's webhooks go nowhere, so the worker learns
 * an order's progress by polling.
 */
export async function startTimeSkipping(options: TimeSkippingOptions): Promise<TimeSkippingStack> {
  // Bundling first also installs the quiet SDK runtime, which must precede any server or worker.
  const bundle = await workflowBundle();
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: process.env.TEMPORAL_TEST_SERVER_PATH! } },
  });
  // The time-skipping server has no option for them; its operator API adds them (it cannot list them).
  await addSearchAttributes(env.client, 'default');
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const simulator = new SandboxSimulator({
    apiKey: API_KEY,
    webhookSecret: 'unused',
    webhookUrl: 'http://127.0.0.1:1',
    publicUrl: `${url}/sandbox`,
    ...(options.settleDelayMs === undefined ? {} : { settleDelayMs: options.settleDelayMs }),
  });
  server.on('request', new SimulatorHost([simulator]).app);
  const webhooks = new WebhookDeliverer({ allowPrivateNetworks: true, timeoutMs: 2000 });
  const activities = createActivities({
    providers: new ProviderRegistry([
      createSandboxAdapter({ baseUrl: url, apiKey: API_KEY, webhookSecret: 'unused' }, SANDBOX_INFO, currencyDictionary),
    ]),
    currencies: currencyDictionary,
    integrators: new IntegratorDirectory(options.integrators ?? [{ id: 'dev', name: 'Dev', api_key_sha256: ['0'.repeat(64)] }]),
    webhooks,
    // The orders' reviews run on the same worker (the bundle has their workflow).
    reviews: { teller: new ReviewTeller({ client: env.client, taskQueue: options.taskQueue, keepMs: 400 * 86_400_000 }) },
  });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: options.taskQueue,
    workflowBundle: bundle,
    activities: options.activities ? options.activities(activities) : activities,
    sinks: orderSinks(),
  });
  const running = worker.run();
  return {
    env,
    simulator,
    async stop() {
      worker.shutdown();
      await running;
      simulator.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await webhooks.close();
      await env.teardown();
    },
  };
}
