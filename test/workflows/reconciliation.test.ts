/**
 * The reconciliation workflows on a real Temporal dev server, with activities a test controls: a
 * report is never lost (a failed rerun keeps the one before, a failure to tell the orders is noted),
 * a long-lived report moves to a new run with its history, and a schedule's run reconciles the day
 * its schedule fired for, however late the run starts.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ScheduleOverlapPolicy } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import type { ReconciliationActivities } from '../../activities/reconciliation';
import {
  reconciliationReportQuery,
  reconciliationWorkflowId,
  rerunReconciliationSignal,
  type ReconciliationInput,
  type ReconciliationReport,
} from '../../src/temporal/reconciliation-contract';
import { eventually } from '../helpers/http';
import { startTemporal, workflowBundle } from '../helpers/temporal';

jest.setTimeout(120_000);

let env: TestWorkflowEnvironment;
const taskQueue = `reconciliation-${randomUUID()}`;
/** What the next reconcileProviderBooks and flagReconciledOrders calls do. */
const script = { books: [] as (() => Promise<Omit<ReconciliationReport, 'flagged'>>)[], flag: (): Promise<number> => Promise.resolve(0) };
let worker: Worker;
let running: Promise<void>;

const found = (matched: number): Omit<ReconciliationReport, 'flagged'> => ({
  providerCode: 'moonpay',
  fromMs: 0,
  toMs: 1,
  ranAtMs: Date.now(),
  source: 'list',
  orders: matched,
  transactions: matched,
  matched,
  unreadable: 0,
  unsettled: 0,
  counts: { missing_at_provider: 1 },
  mismatches: [{ kind: 'missing_at_provider', orderId: randomUUID(), integratorId: 'acme', status: { here: 'complete' } }],
  truncated: 0,
});

beforeAll(async () => {
  env = await startTemporal();
  const activities: Pick<ReconciliationActivities, 'reconcileProviderBooks' | 'flagReconciledOrders'> = {
    reconcileProviderBooks: () => {
      const next = script.books.shift();
      if (!next) throw new Error('no run scripted');
      return next();
    },
    flagReconciledOrders: () => script.flag(),
  };
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

function start(fromMs: number, historyEventsBeforeContinue?: number) {
  const input: ReconciliationInput = {
    providerCode: 'moonpay',
    fromMs,
    toMs: fromMs + 1000,
    timings: { marginMs: 0, settleMs: 0, keepReportMs: 3_600_000, ...(historyEventsBeforeContinue ? { historyEventsBeforeContinue } : {}) },
  };
  return env.client.workflow.start('reconciliationWorkflow', {
    workflowId: reconciliationWorkflowId('moonpay', input.fromMs, input.toMs),
    taskQueue,
    args: [input],
  });
}

const reportOf = (handle: Awaited<ReturnType<typeof start>>, matched: number) =>
  eventually(async () => {
    const report = await handle.query(reconciliationReportQuery);
    return report && report.matched === matched ? report : undefined;
  }, `a report of ${matched} matched`);

test('a rerun that fails keeps the report before it, marked; a failure to tell the orders keeps the report', async () => {
  script.books.push(() => Promise.resolve(found(1)));
  script.flag = () => Promise.reject(ApplicationFailure.nonRetryable('Temporal out of reach'));
  const handle = await start(Date.UTC(2026, 0, 1));
  const first = await reportOf(handle, 1);
  expect(first.flagError).toMatch(/Temporal out of reach/);
  expect(first.mismatches).toHaveLength(1);

  script.books.push(() => Promise.reject(ApplicationFailure.nonRetryable('the list goes round', 'books_unreadable')));
  await handle.signal(rerunReconciliationSignal);
  const kept = await eventually(async () => {
    const report = await handle.query(reconciliationReportQuery);
    return report?.lastRunError ? report : undefined;
  }, 'the failed rerun noted');
  expect(kept).toMatchObject({ matched: 1, ranAtMs: first.ranAtMs, lastRunError: expect.stringMatching(/the list goes round/) });
  expect((await handle.describe()).status.name).toBe('RUNNING');

  // The next rerun that works replaces it, the mark gone.
  script.flag = () => Promise.resolve(1);
  script.books.push(() => Promise.resolve(found(4)));
  await handle.signal(rerunReconciliationSignal);
  const replaced = await reportOf(handle, 4);
  expect(replaced.lastRunError).toBeUndefined();
  expect(replaced.flagged).toBe(1);
  await handle.terminate('test over');
});

test("a schedule's run reconciles the day before its firing less the lag, however late it runs", async () => {
  const scheduleId = `reconcile-test-${randomUUID()}`;
  const schedule = await env.client.schedule.create({
    scheduleId,
    spec: { calendars: [{ hour: 2, minute: 30 }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'scheduledReconciliationWorkflow',
      taskQueue,
      args: [
        {
          providerCode: 'moonpay',
          windowMs: 86_400_000,
          lagMs: 25 * 3_600_000,
          timings: { marginMs: 0, settleMs: 0, keepReportMs: 60_000 },
        },
      ],
    },
    state: { paused: true },
  });
  script.books.push(() => Promise.resolve(found(5)));
  // Fired (as a backfill plays it) on 10 January at 02:30: the day of 8 January, whenever the run starts.
  await schedule.backfill({
    start: new Date('2026-01-10T02:29:00Z'),
    end: new Date('2026-01-10T02:31:00Z'),
    overlap: ScheduleOverlapPolicy.ALLOW_ALL,
  });
  const child = env.client.workflow.getHandle(reconciliationWorkflowId('moonpay', Date.UTC(2026, 0, 8), Date.UTC(2026, 0, 9)));
  await eventually(async () => ((await child.query(reconciliationReportQuery))?.matched === 5 ? true : undefined), 'the 8 January report');
  await child.terminate('test over');
  await schedule.delete();
});

test('a report kept long moves to a new run with its history, still queryable', async () => {
  script.flag = () => Promise.resolve(0);
  script.books.push(() => Promise.resolve(found(2)));
  const handle = await start(Date.UTC(2026, 0, 2), 40);
  await reportOf(handle, 2);
  const firstRun = (await handle.describe()).runId;
  // Each rerun adds its events; past the bound the workflow continues as new, carrying the report.
  for (let i = 0; i < 6 && (await handle.describe()).runId === firstRun; i++) {
    script.books.push(() => Promise.resolve(found(10 + i)));
    await handle.signal(rerunReconciliationSignal);
    await reportOf(handle, 10 + i);
  }
  const latest = await handle.describe();
  expect(latest.runId).not.toBe(firstRun);
  expect(latest.status.name).toBe('RUNNING');
  const carried = await handle.query(reconciliationReportQuery);
  expect(carried?.matched).toBeGreaterThanOrEqual(10);
  // The new run reruns as the first did.
  script.books.push(() => Promise.resolve(found(99)));
  await handle.signal(rerunReconciliationSignal);
  await reportOf(handle, 99);
  await handle.terminate('test over');
});
