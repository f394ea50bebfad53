import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ensureTemporalCli } from '../../scripts/lib/temporal-cli';
import { devServerDynamicConfigArgs } from '../../scripts/lib/temporal-dynamic-config';
import { ORDER_SEARCH_ATTRIBUTES } from '../../src/temporal/order-contract';
import { childPidsMatching, killAll } from './order-children';

export interface BenchDevServerOptions {
  /** The run's time limit: past it every child and the dev server are killed and the process exits 1. */
  timeoutS: number;
  /** The variable that sets the limit, named when it strikes. */
  timeoutVariable: string;
  progress: (line: string) => void;
}

/**
 * The Temporal dev server a benchmark runs against: the broker's search attributes, the production
 * topology's dynamic configuration (eager activity dispatch among it), its pids (it does not say
 * them; the benchmarks read its CPU), and a watchdog that ends the whole run at its time limit.
 */
export async function startBenchDevServer(
  options: BenchDevServerOptions,
): Promise<{ env: TestWorkflowEnvironment; temporalPids: number[] }> {
  const cli = process.env.TEMPORAL_CLI_PATH ?? ensureTemporalCli();
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cli },
      searchAttributes: [...ORDER_SEARCH_ATTRIBUTES],
      extraArgs: devServerDynamicConfigArgs(),
    },
  });
  const temporalPids = childPidsMatching('start-dev');
  setTimeout(() => {
    options.progress(`the run took over ${options.timeoutS} s (${options.timeoutVariable}): stopping`);
    killAll();
    for (const pid of temporalPids) process.kill(pid, 'SIGKILL');
    process.exit(1);
  }, options.timeoutS * 1000).unref();
  return { env, temporalPids };
}
