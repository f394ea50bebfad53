/**
 * Replays histories recorded from real runs (scripts/record-histories.ts) against the current
 * workflow code: a change that would break running orders fails here with a determinism error.
 * Each folder of histories/ is one release's generation (test/replay/generations.ts), kept while
 * orders started under it may still be open; CURRENT_GENERATION is this code's own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from '@temporalio/worker';
import { SCENARIOS, REJECTED_SCENARIO, SELL_SCENARIOS } from '../helpers/scenarios';
import { workflowBundle } from '../helpers/temporal';
import { orderSinks } from '../../src/worker/sinks';
import { CURRENT_GENERATION, HISTORIES_DIR as DIR } from './generations';

const generations = readdirSync(DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const files = generations.flatMap((g) =>
  readdirSync(resolve(DIR, g))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => `${g}/${f}`),
);

test(`the ${CURRENT_GENERATION} generation has every recorded path, and continue-as-new spans two runs`, () => {
  const prefix = `${CURRENT_GENERATION}/`;
  const current = files.filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length).replace(/(\.run\d+)?\.json$/, ''));
  expect([...new Set(current)].sort()).toEqual(
    [...SCENARIOS.map((s) => s.name), ...SELL_SCENARIOS.map((s) => s.name), REJECTED_SCENARIO.name].sort(),
  );
  expect(files).toEqual(expect.arrayContaining([`${prefix}continue-as-new.run1.json`, `${prefix}continue-as-new.run2.json`]));
  // One folder per release (major.minor), the current one among them.
  expect(generations).toContain(CURRENT_GENERATION);
  for (const generation of generations) expect(generation).toMatch(/^\d+\.\d+$/);
});

test.each(files)('%s replays without a determinism error', async (file) => {
  const history = JSON.parse(readFileSync(resolve(DIR, file), 'utf8')) as unknown;
  await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle(), sinks: orderSinks() }, history)).resolves.toBeUndefined();
});

test('the recorded histories hold local first attempts, and one the worker deferred to an ordinary attempt', () => {
  type Event = {
    eventType: string;
    markerRecordedEventAttributes?: { markerName?: string; details?: { data?: { payloads?: { data?: string }[] } } };
    activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
  };
  const steps = (file: string) =>
    (JSON.parse(readFileSync(resolve(DIR, CURRENT_GENERATION, file), 'utf8')) as { events: Event[] }).events.map((e) => {
      const marker = e.markerRecordedEventAttributes;
      if (marker?.markerName === 'core_local_activity') {
        const data = marker.details?.data?.payloads?.[0]?.data ?? '';
        return `local ${(JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { activity_type: string }).activity_type}`;
      }
      const scheduled = e.activityTaskScheduledEventAttributes?.activityType?.name;
      return scheduled === undefined ? e.eventType : `ordinary ${scheduled}`;
    });
  const deferred = steps('local-attempt-deferred.json');
  const at = deferred.indexOf('local attemptIntegratorWebhookInWorker');
  expect(deferred[at + 1]).toBe('ordinary attemptIntegratorWebhook');
  expect(steps('complete.json').filter((s) => s === 'local attemptIntegratorWebhookInWorker')).toHaveLength(3);
});
