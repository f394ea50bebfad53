/**
 * Prebuilds the workflow bundle (`npm run build` runs it): a worker started with
 * WORKFLOW_BUNDLE_PATH=dist/workflow-bundle.js loads it instead of bundling at start-up.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_OPTIONS } from '../src/worker/build';

const OUT = resolve(__dirname, '..', process.argv[2] ?? 'dist/workflow-bundle.js');

bundleWorkflowCode(WORKFLOW_BUNDLE_OPTIONS).then(
  ({ code }) => {
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, code);
    process.stdout.write(`workflow bundle: ${OUT} (${Math.round(code.length / 1024)} KiB)\n`);
  },
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
