import type { Logger } from '../logging';
import { connectRedis } from '../redis/connection';
import { RedisSharedValues } from '../providers/shared-values';
import { readFileSync } from 'node:fs';
import { NativeConnection, Worker } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import type { ReconciliationDependencies } from '../../activities/reconciliation';
import { OrderSearch } from '../orders/search';
import { zeroReconciliationCounts } from '../reconciliation/run';
import { keepReconciliationSchedules } from '../reconciliation/schedules';
import type { DataConverter } from '@temporalio/common';
import { createActivities } from '../../activities';
import { ReviewTeller } from '../temporal/reviews';
import { Ranking } from '../ranking/ranking';
import type { OutcomeRecorder } from '../ranking/outcome-recorder';
import { ConfigError, type AppConfig } from '../config';
import { IntegratorDirectory } from '../config/integrators';
import { WebhookDeliverer } from '../webhooks/delivery';
import type { DeliveryLimits } from '../webhooks/delivery-gate';
import { currencyDictionary } from '../domain/currencies';
import { setMetricsRecording } from '../metrics/metrics';
import { createProviderRegistry, type ProviderRegistry } from '../providers/registry';
import { connectionOptions } from '../temporal/connection-options';
import { temporalOrderRecords } from '../temporal/order-records';
import { encryptingDataConverter, FAILURE_CONVERTER_PATH } from '../temporal/codec';
import { orderSinks } from './sinks';
import { tracingWorkerInterceptors, WORKFLOW_INTERCEPTOR_MODULES } from './tracing';

export interface OrderWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  providers: ProviderRegistry;
  integrators: IntegratorDirectory;
  webhooks: WebhookDeliverer;
  /** A prebuilt workflow bundle (tests bundle once per file); otherwise the workflows are bundled now. */
  workflowBundle?: { code: string };
  /** Payload encryption (src/temporal/codec.ts); the SDK's default, in clear, when absent. */
  dataConverter?: DataConverter;
  /** Activities run at once (WORKER_ACTIVITY_SLOTS); the SDK's default (100) when absent. */
  activitySlots?: number;
  /** Ordinary webhook attempts out at once, in all and per integrator (below activitySlots); the activities' defaults when absent. */
  webhookAttempts?: DeliveryLimits;
  /** Where settled orders are recorded for the offers' ranking (src/ranking); none: not recorded. */
  outcomes?: OutcomeRecorder;
  /** The broker's order records and the client that tells orders of mismatches (reconciliation); none: it cannot run. */
  reconciliation?: Omit<ReconciliationDependencies, 'providers'>;
  /** Tells reviews (the operators' queue) what orders and reconciliations found; none: the messages wait for a worker that can. */
  reviews?: ReviewTeller;
}

export const WORKFLOWS_PATH = require.resolve('../../workflows');

/** What every bundle of the order workflow is built from (`npm run build`, the tests, the worker without a prebuilt bundle). */
export const WORKFLOW_BUNDLE_OPTIONS = {
  workflowsPath: WORKFLOWS_PATH,
  workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
  failureConverterPath: FAILURE_CONVERTER_PATH,
};

export function createOrderWorker(options: OrderWorkerOptions): Promise<Worker> {
  zeroReconciliationCounts(options.providers.codes());
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    // The workflow bundle encodes failures this way (WORKFLOW_BUNDLE_OPTIONS): the worker's activities too.
    dataConverter: { failureConverterPath: FAILURE_CONVERTER_PATH, ...options.dataConverter },
    ...(options.activitySlots === undefined ? {} : { maxConcurrentActivityTaskExecutions: options.activitySlots }),
    sinks: orderSinks(),
    // A prebuilt bundle has the workflow interceptors in it (WORKFLOW_BUNDLE_OPTIONS); otherwise they are bundled now.
    ...(options.workflowBundle
      ? { workflowBundle: options.workflowBundle, interceptors: tracingWorkerInterceptors() }
      : { workflowsPath: WORKFLOWS_PATH, interceptors: { ...tracingWorkerInterceptors(), workflowModules: WORKFLOW_INTERCEPTOR_MODULES } }),
    activities: createActivities({
      providers: options.providers,
      currencies: currencyDictionary,
      integrators: options.integrators,
      webhooks: options.webhooks,
      ...(options.webhookAttempts ? { deliveryLimits: options.webhookAttempts } : {}),
      orderRecords: temporalOrderRecords(options.connection, options.namespace),
      outcomes: options.outcomes,
      ...(options.reconciliation ? { reconciliation: options.reconciliation } : {}),
      ...(options.reviews ? { reviews: { teller: options.reviews } } : {}),
    }),
  });
}

/**
 * The production worker: its Temporal connection and, with REDIS_URL, the Redis connection through
 * which it shares provider state with the API processes. `close` ends both.
 */
export async function connectWorker(config: AppConfig, logger: Logger): Promise<{ worker: Worker; close: () => Promise<void> }> {
  // Process-wide (METRICS_ENABLED): the workflow sink's counts, provider calls, webhook deliveries.
  setMetricsRecording(config.metrics.enabled);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  const connection = await NativeConnection.connect(connectionOptions(config.temporal));
  const dataConverter = encryptingDataConverter(config.encryption.keys, config.encryption);
  // The worker's own client, on its connection: the reconciliation reads order records and signals orders with it.
  const client = new Client({ connection, namespace: config.temporal.namespace, dataConverter });
  const providers = createProviderRegistry(config, redis ? new RedisSharedValues(redis.client) : undefined);
  const worker = await createOrderWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    providers,
    integrators: new IntegratorDirectory(config.integrators),
    webhooks: new WebhookDeliverer(config.webhooks),
    dataConverter,
    reconciliation: { search: new OrderSearch({ client, hashKeys: config.encryption.keys, logger }), client },
    reviews: new ReviewTeller({ client, taskQueue: config.temporal.taskQueue, keepMs: config.reviews.keepMs }),
    activitySlots: config.worker.activitySlots,
    webhookAttempts: config.worker.webhookAttempts,
    // Only into Redis, which the API reads: a worker's own memory would hold statistics no API
    // ranks with, and customers no deletion request reaches.
    ...(redis ? { outcomes: new Ranking(config, { redis: redis.client, logger }).recorder } : {}),
    ...(config.temporal.workflowBundlePath ? { workflowBundle: readBundle(config.temporal.workflowBundlePath) } : {}),
  });
  if (config.reconciliation.schedules) await keepReconciliationSchedules(client, providers.codes(), config, logger);
  return {
    worker,
    close: async () => {
      await connection.close();
      await redis?.close();
    },
  };
}

function readBundle(path: string): { code: string } {
  try {
    return { code: readFileSync(path, 'utf8') };
  } catch (err) {
    throw new ConfigError([`WORKFLOW_BUNDLE_PATH: cannot read ${path}: ${(err as Error).message}`]);
  }
}
