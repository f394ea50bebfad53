import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../src/dev/local-stack';
import { createLogger, type Logger } from '../../src/logging';
import type { AppConfig } from '../../src/config';
import { testConfig } from './config';
import { startTemporal, workflowBundle } from './temporal';

export interface TestStackOptions extends Partial<
  Pick<LocalStackOptions, 'settleDelayMs' | 'depositWindowMs' | 'faults' | 'worker' | 'simulatorPort' | 'apiPort' | 'operatorClock'>
> {
  config?: Partial<AppConfig>;
  /** Environment variables the configuration is built from (e.g. ONRAMP_WEBHOOK_URL). */
  env?: NodeJS.ProcessEnv;
  /** The API's and worker's logger (default: silent). */
  logger?: Logger;
}

/** API + simulator + worker against a test Temporal server, on its own task queue. */
export async function startTestStack(env: TestWorkflowEnvironment, options: TestStackOptions = {}): Promise<LocalStack> {
  const base = testConfig(options.config, options.env);
  // Each stack gets its own task queue unless the test shares one between stacks on purpose.
  const config: AppConfig = options.config?.temporal
    ? base
    : { ...base, temporal: { ...base.temporal, taskQueue: `test-${randomUUID()}` } };
  return startLocalStack({
    config,
    client: env.client,
    connection: env.nativeConnection,
    logger: options.logger ?? createLogger('silent', 'test'),
    settleDelayMs: options.settleDelayMs ?? 50,
    depositWindowMs: options.depositWindowMs,
    faults: options.faults,
    worker: options.worker,
    simulatorPort: options.simulatorPort,
    apiPort: options.apiPort,
    operatorClock: options.operatorClock,
    workflowBundle: await workflowBundle(),
  });
}

/**
 * A Temporal dev server and one stack for the tests of a file: started before them, stopped after.
 * The fields are set once `beforeAll` has run.
 */
export function useTestStack(options: TestStackOptions = {}): { env: TestWorkflowEnvironment; stack: LocalStack } {
  const started = {} as { env: TestWorkflowEnvironment; stack: LocalStack };
  beforeAll(async () => {
    started.env = await startTemporal();
    started.stack = await startTestStack(started.env, options);
  });
  afterAll(async () => {
    await started.stack?.stop();
    await started.env?.teardown();
  });
  return started;
}
