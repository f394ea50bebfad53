import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { AppConfig } from '../config';
import { currencyDictionary } from '../domain/currencies';
import { createProviderRegistry, type ProviderRegistry } from '../providers/registry';

export interface OrderWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  providers: ProviderRegistry;
  /** A prebuilt workflow bundle (tests bundle once per file); otherwise the workflows are bundled now. */
  workflowBundle?: { code: string };
}

export const WORKFLOWS_PATH = require.resolve('../../workflows');

export function createOrderWorker(options: OrderWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities({ providers: options.providers, currencies: currencyDictionary }),
  });
}

export async function connectWorker(config: AppConfig): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await createOrderWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    providers: createProviderRegistry(config),
  });
  return { worker, connection };
}
