import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { ORDER_SEARCH_ATTRIBUTES } from '../../src/temporal/shared';
import { WORKFLOWS_PATH } from '../../src/worker/build';

let runtimeInstalled = false;

/** Keeps the SDK's native logs to errors (replays of broken histories warn on every task). */
function quietRuntime(): void {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    runtimeInstalled = true;
  }
}

function cliPath(): string {
  const path = process.env.TEMPORAL_CLI_PATH;
  if (!path) throw new Error('TEMPORAL_CLI_PATH is not set: run the tests through jest (test/global-setup.ts)');
  return path;
}

/** A real Temporal dev server (the temporal CLI), fresh and in memory, with the broker's search attributes. */
export async function startTemporal(): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cliPath() },
      searchAttributes: [...ORDER_SEARCH_ATTRIBUTES],
    },
  });
}

let bundle: Promise<{ code: string }> | undefined;

/** The production workflow code, bundled once per test file. */
export function workflowBundle(): Promise<{ code: string }> {
  quietRuntime();
  bundle ??= bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('ERROR') });
  return bundle;
}
