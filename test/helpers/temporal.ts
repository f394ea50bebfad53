import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { ORDER_SEARCH_ATTRIBUTES } from '../../src/temporal/order-contract';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../src/worker/build';

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

type DevServerOptions = NonNullable<NonNullable<Parameters<typeof TestWorkflowEnvironment.createLocal>[0]>['server']>;

const STARTUP_ATTEMPTS = 3;

/**
 * A real Temporal dev server (the temporal CLI) with the broker's search attributes; fresh and in
 * memory unless `server` says otherwise (a port, a database file).
 *
 * The SDK gives the server a fixed 5 s to accept connections and kills it when it has not; on a
 * loaded 2-core machine (the whole test suite running, a database file to migrate) it has once
 * needed longer. Such a start is tried again, up to three times in all.
 */
export async function startTemporal(
  server: Omit<DevServerOptions, 'executable' | 'searchAttributes'> = {},
): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  for (let attempt = 1; ; attempt++) {
    try {
      return await TestWorkflowEnvironment.createLocal({
        server: { ...server, executable: { type: 'existing-path', path: cliPath() }, searchAttributes: [...ORDER_SEARCH_ATTRIBUTES] },
      });
    } catch (err) {
      if (attempt >= STARTUP_ATTEMPTS || !/did not start within/.test((err as Error).message)) throw err;
    }
  }
}

let bundle: Promise<{ code: string }> | undefined;

/** The production workflow code, bundled once per test file. */
export function workflowBundle(): Promise<{ code: string }> {
  quietRuntime();
  bundle ??= bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: new DefaultLogger('ERROR') });
  return bundle;
}
