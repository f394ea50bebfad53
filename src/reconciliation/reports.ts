import type { Client } from '@temporalio/client';
import {
  RECONCILED_FROM_KEY,
  RECONCILIATION_MISMATCH_KEY,
  RECONCILIATION_WORKFLOW_TYPE,
  reconciliationReportQuery,
  reconciliationWorkflowId,
  rerunReconciliationSignal,
  type ReconciliationInput,
  type ReconciliationReport,
} from '../temporal/reconciliation-contract';
import { PROVIDER_CODE_KEY } from '../temporal/order-contract';
import { ProviderInfoSchema } from '../providers/types';

/** What the broker's provider codes look like (ProviderInfoSchema): nothing else reaches a query or a workflow id. */
const PROVIDER_CODE = ProviderInfoSchema.shape.code;

/**
 * Reconciles a provider's window now: starts its workflow, or, when the window has one already,
 * has it read both sides again and replace its report. The workflow id (the window's).
 */
export async function reconcileNow(client: Client, input: ReconciliationInput, taskQueue: string): Promise<string> {
  if (!PROVIDER_CODE.safeParse(input.providerCode).success) throw new RangeError(`not a provider code: ${input.providerCode}`);
  if (!(input.fromMs < input.toMs)) throw new RangeError('a reconciliation window ends after it starts');
  const workflowId = reconciliationWorkflowId(input.providerCode, input.fromMs, input.toMs);
  await client.workflow.signalWithStart(RECONCILIATION_WORKFLOW_TYPE, {
    workflowId,
    taskQueue,
    args: [input],
    signal: rerunReconciliationSignal,
    signalArgs: [],
  });
  return workflowId;
}

/** The report of a provider's window; null while its first run is under way, undefined when the window was never reconciled. */
export async function reconciliationReport(
  client: Client,
  providerCode: string,
  fromMs: number,
  toMs: number,
): Promise<ReconciliationReport | null | undefined> {
  try {
    return await client.workflow.getHandle(reconciliationWorkflowId(providerCode, fromMs, toMs)).query(reconciliationReportQuery);
  } catch (err) {
    if ((err as Error).name === 'WorkflowNotFoundError') return undefined;
    throw err;
  }
}

/** One reconciliation as visibility lists it. */
export interface ReconciliationListing {
  workflowId: string;
  providerCode: string;
  fromMs: number;
  /** The kinds of mismatch its report holds (`none`: clean); empty while its first run is under way. */
  kinds: string[];
  status: string;
}

/**
 * The reconciliations whose windows start from `fromMs` (included) to `toMs` (excluded), of one
 * provider or all, oldest first; at most `limit`.
 */
export async function listReconciliations(
  client: Client,
  filter: { providerCode?: string; fromMs: number; toMs: number; limit?: number },
): Promise<ReconciliationListing[]> {
  const clauses = [
    `WorkflowType = '${RECONCILIATION_WORKFLOW_TYPE}'`,
    `ReconciledFrom >= '${new Date(filter.fromMs).toISOString()}'`,
    `ReconciledFrom < '${new Date(filter.toMs).toISOString()}'`,
  ];
  if (filter.providerCode !== undefined) {
    if (!PROVIDER_CODE.safeParse(filter.providerCode).success) throw new RangeError(`not a provider code: ${filter.providerCode}`);
    clauses.push(`ProviderCode = '${filter.providerCode}'`);
  }
  const found: ReconciliationListing[] = [];
  for await (const execution of client.workflow.list({ query: clauses.join(' AND ') })) {
    const attributes = execution.typedSearchAttributes;
    found.push({
      workflowId: execution.workflowId,
      providerCode: attributes.get(PROVIDER_CODE_KEY) ?? '',
      fromMs: attributes.get(RECONCILED_FROM_KEY)?.getTime() ?? 0,
      kinds: attributes.get(RECONCILIATION_MISMATCH_KEY) ?? [],
      status: execution.status.name,
    });
    if (found.length >= (filter.limit ?? 1000)) break;
  }
  return found.sort((a, b) => a.fromMs - b.fromMs || a.providerCode.localeCompare(b.providerCode));
}
