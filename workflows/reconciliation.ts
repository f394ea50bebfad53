import { defineSearchAttributeKey, SearchAttributeType, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  ParentClosePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ReconciliationActivities } from '../activities';
import type { Mismatch, MismatchKind } from '../src/domain/reconciliation';
import { PROVIDER_CODE_KEY } from '../src/temporal/order-contract';
import {
  RECONCILED_FROM_KEY,
  RECONCILIATION_MISMATCH_KEY,
  reconciliationReportQuery,
  reconciliationWorkflowId,
  rerunReconciliationSignal,
  type ReconciliationInput,
  type ReconciliationReport,
  type ScheduledReconciliationInput,
} from '../src/temporal/reconciliation-contract';

/**
 * Reading a day of a provider's books is paced to its documented rate: minutes, heartbeating every
 * page. A provider or Temporal out of reach is retried for hours before the run fails (and its
 * failure is in the Web UI and the runs metric).
 */
const { reconcileProviderBooks } = proxyActivities<ReconciliationActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '3 minutes',
  scheduleToCloseTimeout: '12 hours',
  retry: { initialInterval: '30 seconds', backoffCoefficient: 2, maximumInterval: '30 minutes' },
});
const { flagReconciledOrders } = proxyActivities<ReconciliationActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes', maximumAttempts: 20 },
});

/** Set by Temporal on a workflow a schedule started: when the schedule fired. */
const SCHEDULED_START_KEY = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

/** Each order of the mismatches, with every kind found about it. */
function ordersOf(mismatches: readonly Mismatch[]): { orderId: string; kinds: MismatchKind[] }[] {
  const kinds = new Map<string, Set<MismatchKind>>();
  for (const m of mismatches) {
    // A transaction only the provider has names no order of the broker's (its orderId, if any, is the provider's word).
    if (m.orderId === undefined || m.kind === 'missing_here') continue;
    kinds.set(m.orderId, (kinds.get(m.orderId) ?? new Set()).add(m.kind));
  }
  return [...kinds].map(([orderId, found]) => ({ orderId, kinds: [...found].sort() }));
}

/** A report carried into the next run of its workflow (continue-as-new), with when it stops being kept. */
export interface CarriedReport {
  report: ReconciliationReport | null;
  keepUntilMs: number;
  /** A rerun asked for while the run was continuing as new: the next run makes it. */
  rerun?: boolean;
}

/** History events past which a report's workflow continues as new (each rerun adds its report to the history). */
const HISTORY_EVENTS_BEFORE_CONTINUE = 1_000;

const failureText = (err: unknown) => {
  const cause = (err as { cause?: Error }).cause;
  return `${(err as Error).message}${cause ? `: ${cause.message}` : ''}`;
};

/**
 * One provider's window reconciled with its books (src/reconciliation): its workflow id names the
 * provider and the window, so the window has one report. The report is kept in the workflow, open
 * and queryable (reconciliationReportQuery), for `keepReportMs`, so the namespace's retention never
 * deletes it early; its search attributes find it (ProviderCode, ReconciledFrom, and the kinds found
 * as ReconciliationMismatch, `none` when clean). A rerun signal reads both sides again and replaces
 * the report; a rerun that fails keeps the report before it, marked with why. Orders that differ are
 * told (their own ReconciliationMismatch) while their workflow is open; a failure to tell them is
 * noted in the report, never a reason to lose it.
 */
export async function reconciliationWorkflow(input: ReconciliationInput, carried?: CarriedReport): Promise<ReconciliationReport | null> {
  let report: ReconciliationReport | null = carried?.report ?? null;
  let rerun = carried === undefined || carried.rerun === true;
  const keepUntilMs = carried?.keepUntilMs ?? Date.now() + input.timings.keepReportMs;
  setHandler(reconciliationReportQuery, () => report);
  setHandler(rerunReconciliationSignal, () => void (rerun = true));
  upsertSearchAttributes([
    { key: PROVIDER_CODE_KEY, value: input.providerCode },
    { key: RECONCILED_FROM_KEY, value: new Date(input.fromMs) },
  ]);
  for (;;) {
    if (rerun) {
      rerun = false;
      let found: Omit<ReconciliationReport, 'flagged'>;
      try {
        found = await reconcileProviderBooks(input);
      } catch (err) {
        // The first run has nothing to keep: it fails, and shows so. A rerun keeps what it replaced.
        if (report === null) throw err;
        report = { ...report, lastRunError: failureText(err) };
        continue;
      }
      const kinds = Object.keys(found.counts).sort();
      upsertSearchAttributes([{ key: RECONCILIATION_MISMATCH_KEY, value: kinds.length > 0 ? kinds : ['none'] }]);
      // The report replaces the one before once the orders are told (or telling them failed: noted).
      try {
        // The mismatches go along for the reviews: an activity's input is not part of what replay compares.
        const flagged = await flagReconciledOrders({
          reconciliationId: workflowInfo().workflowId,
          orders: ordersOf(found.mismatches),
          providerCode: input.providerCode,
          mismatches: found.mismatches,
        });
        report = { ...found, flagged };
      } catch (err) {
        report = { ...found, flagged: 0, flagError: failureText(err) };
      }
    }
    if (
      workflowInfo().continueAsNewSuggested ||
      workflowInfo().historyLength > (input.timings.historyEventsBeforeContinue ?? HISTORY_EVENTS_BEFORE_CONTINUE)
    ) {
      await condition(allHandlersFinished);
      // Read after the wait: a rerun signalled meanwhile goes to the next run, never lost.
      return continueAsNew<typeof reconciliationWorkflow>(input, { report, keepUntilMs, rerun });
    }
    if (!(await condition(() => rerun, Math.max(keepUntilMs - Date.now(), 1)))) return report;
  }
}

/**
 * What a reconciliation schedule starts: the window (of `windowMs`, aligned to UTC) that ended at
 * least `lagMs` before the schedule fired (TemporalScheduledStartTime, not when the workflow first
 * ran: a run delayed by an outage still reconciles its own day), reconciled by its own workflow. A
 * window already reconciled (an operator ran it) is left as it is.
 */
export async function scheduledReconciliationWorkflow(input: ScheduledReconciliationInput): Promise<string> {
  const firedAtMs = workflowInfo().typedSearchAttributes.get(SCHEDULED_START_KEY)?.getTime() ?? Date.now();
  const toMs = Math.floor((firedAtMs - input.lagMs) / input.windowMs) * input.windowMs;
  const fromMs = toMs - input.windowMs;
  const workflowId = reconciliationWorkflowId(input.providerCode, fromMs, toMs);
  try {
    await startChild(reconciliationWorkflow, {
      workflowId,
      args: [{ providerCode: input.providerCode, fromMs, toMs, timings: input.timings }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return workflowId;
}
