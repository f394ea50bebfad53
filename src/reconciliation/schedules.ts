import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import type { Logger } from '../logging';
import {
  reconciliationScheduleId,
  SCHEDULED_RECONCILIATION_WORKFLOW_TYPE,
  type ReconciliationTimings,
  type ScheduledReconciliationInput,
} from '../temporal/reconciliation-contract';

const DAY_MS = 86_400_000;

export interface ReconciliationScheduleOptions {
  taskQueue: string;
  /** When the daily runs fire, UTC. */
  at: { hour: number; minute: number };
  timings: ReconciliationTimings;
}

/** The schedule of one provider's daily reconciliation: the day that ended the margin and the settle window ago. */
export function reconciliationSchedule(providerCode: string, options: ReconciliationScheduleOptions): ScheduleOptions {
  const input: ScheduledReconciliationInput = {
    providerCode,
    windowMs: DAY_MS,
    lagMs: options.timings.marginMs + options.timings.settleMs,
    timings: options.timings,
  };
  return {
    scheduleId: reconciliationScheduleId(providerCode),
    spec: { calendars: [{ hour: options.at.hour, minute: options.at.minute }] },
    action: {
      type: 'startWorkflow',
      workflowType: SCHEDULED_RECONCILIATION_WORKFLOW_TYPE,
      workflowId: `onramp-reconcile-run-${providerCode}`,
      taskQueue: options.taskQueue,
      args: [input],
    },
    // A run missed while the cluster was down is made when it is back, within a day; two never overlap.
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
  };
}

/**
 * A daily reconciliation schedule for each provider, made where missing and brought up to the
 * configuration where it differs (every worker does this at start; the first one makes them).
 * Returns the providers whose schedule was made.
 */
export async function ensureReconciliationSchedules(
  client: Client,
  providerCodes: readonly string[],
  options: ReconciliationScheduleOptions,
): Promise<string[]> {
  const made: string[] = [];
  for (const code of providerCodes) {
    const schedule = reconciliationSchedule(code, options);
    try {
      await client.schedule.create(schedule);
      made.push(code);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await client.schedule.getHandle(schedule.scheduleId).update((previous) => ({
        ...previous,
        spec: schedule.spec,
        action: schedule.action,
        policies: { ...previous.policies, ...schedule.policies },
      }));
    }
  }
  return made;
}

/**
 * The configured daily schedules of these providers (RECONCILIATION_SCHEDULES, RECONCILIATION_AT);
 * a failure is logged, never fatal: the next worker start tries again.
 */
export async function keepReconciliationSchedules(
  client: Client,
  providerCodes: readonly string[],
  config: { temporal: { taskQueue: string }; reconciliation: { at: { hour: number; minute: number }; timings: ReconciliationTimings } },
  logger: Logger,
): Promise<void> {
  try {
    const made = await ensureReconciliationSchedules(client, providerCodes, {
      taskQueue: config.temporal.taskQueue,
      at: config.reconciliation.at,
      timings: config.reconciliation.timings,
    });
    if (made.length > 0) logger.info({ providers: made }, 'reconciliation schedules made');
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'reconciliation schedules could not be kept; the next worker start tries again');
  }
}
