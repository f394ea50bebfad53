/**
 * Replays histories recorded from real runs (scripts/record-histories.ts) against the current
 * workflow code: a change that would break running orders fails here with a determinism error.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from '@temporalio/worker';
import { SCENARIOS, REJECTED_SCENARIO } from '../helpers/scenarios';
import { workflowBundle } from '../helpers/temporal';

const DIR = resolve(__dirname, 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

test('every recorded path has a history', () => {
  const expected = [...SCENARIOS.map((s) => s.name), REJECTED_SCENARIO.name].map((n) => `${n}.json`).sort();
  expect(files).toEqual(expected);
});

test.each(files)('%s replays without a determinism error', async (file) => {
  const history = JSON.parse(readFileSync(resolve(DIR, file), 'utf8')) as unknown;
  await expect(
    Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history),
  ).resolves.toBeUndefined();
});
