import { TestWorkflowEnvironment } from '@temporalio/testing';
import { buildConfig, parseEnv } from '../../src/config';
import { startLocalStack } from '../../src/dev/local-stack';
import { createLogger } from '../../src/logging';
import { ORDER_SEARCH_ATTRIBUTES } from '../../src/temporal/order-contract';
import type { FaultTarget } from './fault-schedule';
import type { Cluster, StartClusterOptions } from '../../scripts/cluster/types';
import { workflowBundle } from '../helpers/temporal';

/** What the fault run needs of a cluster. */
export type RunCluster = Pick<Cluster, 'addresses' | 'processes' | 'stop'> & Partial<FaultTarget>;

/**
 * The fault run's stand-in for the cluster (`--local`): a Temporal dev server and the local stack
 * (API, simulators and a worker in this process). Nothing can be killed: only the providers' faults play.
 */
export async function startLocalCluster(options: Pick<StartClusterOptions, 'integratorsFile' | 'brokerEnv'>): Promise<RunCluster> {
  // First: it installs the quiet Temporal runtime, which must come before the dev server's.
  const bundle = await workflowBundle();
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: process.env.TEMPORAL_CLI_PATH ?? '.tools/bin/temporal' },
      searchAttributes: [...ORDER_SEARCH_ATTRIBUTES],
    },
  });
  const config = buildConfig(
    parseEnv({ NODE_ENV: 'development', LOG_LEVEL: 'silent', ONRAMP_INTEGRATORS_FILE: options.integratorsFile, ...options.brokerEnv }),
  );
  const stack = await startLocalStack({
    config,
    client: env.client,
    connection: env.nativeConnection,
    logger: createLogger('silent', 'fault-run'),
    workflowBundle: bundle,
  });
  const unknown = 'in-process';
  return {
    addresses: {
      api: stack.apiUrl,
      apis: [stack.apiUrl],
      simulators: stack.simulatorUrl,
      temporal: unknown,
      ui: unknown,
      redis: unknown,
      postgresql: unknown,
    },
    processes: () => [],
    async stop() {
      await stack.stop();
      await env.teardown();
    },
  };
}
