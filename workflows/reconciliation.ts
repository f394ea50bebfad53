import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  ParentClosePolicy,
  condition,
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

/**
 * One provider's window reconciled with its books (src/reconciliation): its workflow id names the
 * provider and the window, so the window has one report. The report is kept in the workflow, open
 * and queryable (reconciliationReportQuery), for `keepReportMs`, so the namespace's retention never
 * deletes it early; its search attributes find it (ProviderCode, ReconciledFrom, and the kinds found
 * as ReconciliationMismatch, `none` when clean). A rerun signal reads both sides again and replaces
 * the report. Orders that differ are told (their own ReconciliationMismatch) while their workflow is open.
 */
export async function reconciliationWorkflow(input: ReconciliationInput): Promise<ReconciliationReport | null> {
  let report: ReconciliationReport | null = null;
  let rerun = true;
  setHandler(reconciliationReportQuery, () => report);
  setHandler(rerunReconciliationSignal, () => void (rerun = true));
  upsertSearchAttributes([
    { key: PROVIDER_CODE_KEY, value: input.providerCode },
    { key: RECONCILED_FROM_KEY, value: new Date(input.fromMs) },
  ]);
  const keepUntil = Date.now() + input.timings.keepReportMs;
  while (rerun) {
    rerun = false;
    const found = await reconcileProviderBooks(input);
    const flagged = await flagReconciledOrders({ reconciliationId: workflowInfo().workflowId, orders: ordersOf(found.mismatches) });
    report = { ...found, flagged };
    const kinds = Object.keys(found.counts).sort();
    upsertSearchAttributes([{ key: RECONCILIATION_MISMATCH_KEY, value: kinds.length > 0 ? kinds : ['none'] }]);
    await condition(() => rerun, Math.max(keepUntil - Date.now(), 1));
  }
  return report;
}

/**
 * What a reconciliation schedule starts: the window (of `windowMs`, aligned to UTC) that ended at
 * least `lagMs` ago, reconciled by its own workflow. A window already reconciled (the schedule caught
 * up after an outage, or an operator ran it) is left as it is.
 */
export async function scheduledReconciliationWorkflow(input: ScheduledReconciliationInput): Promise<string> {
  const toMs = Math.floor((Date.now() - input.lagMs) / input.windowMs) * input.windowMs;
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
