/**
 * Rebuilds the ranking's statistics from Temporal's own records when their store is empty (a new
 * deployment, a flushed Redis, a restarted process with the memory store): every order visibility
 * still keeps (the namespace's retention, 30 days by default) that has settled, and every creation
 * the provider refused, folded as the worker and the API would have folded them, each under its
 * integrator too (a settled order's memo names it, a refused run's IntegratorId search attribute). Returning
 * customers are not rebuilt: a deletion's tombstone may have gone with the store. The store's
 * deduplication makes a rebuild that overlaps live recording, or another process's rebuild, harmless.
 */
import { ApplicationFailure, WorkflowFailedError, type Client } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { decodeMapFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { temporal } from '@temporalio/proto';
import type { Logger } from '../logging';
import type { Order } from '../domain/order';
import { INTEGRATOR_ID_KEY } from '../temporal/order-contract';
import { rawExecutions } from '../temporal/raw-visibility';
import { marketOf, outcomeOfOrder, refusedAttemptId } from './order-outcome';
import type { OutcomeRecorder } from './outcome-recorder';

/** The store's mark that it holds everything up to a time: absent when it is empty. */
export interface RebuildMark {
  getCursor(): Promise<number | undefined>;
  setCursor(ms: number): Promise<void>;
}

export interface OutcomeRebuildOptions {
  client: Client;
  store: RebuildMark;
  recorder: OutcomeRecorder;
  /** How far back orders are read (the half-life times a few; Temporal keeps no more than its retention anyway). */
  lookbackMs: number;
  pageTimeoutMs?: number;
  now?: () => number;
  logger?: Logger;
}

export interface RebuildSummary {
  rebuilt: boolean;
  /** Settled orders folded. */
  settled: number;
  /** Failed creations looked at. */
  failedRuns: number;
  /** Records left out: a memo that cannot be decoded or is not an order's. */
  skipped: number;
}

const SETTLED = ['complete', 'failed', 'expired', 'refunded'].map((s) => `'${s}'`).join(', ');

/** Order runs that settled or whose creation failed, requested since `sinceMs` (continued-as-new runs: their latest run stands for them). */
export function rebuildQuery(sinceMs: number): string {
  return [
    "WorkflowType = 'orderWorkflow'",
    "ExecutionStatus != 'ContinuedAsNew'",
    `OrderRequestedAt >= '${new Date(sinceMs).toISOString()}'`,
    `(OrderStatus IN (${SETTLED}) OR ExecutionStatus = 'Failed')`,
  ].join(' AND ');
}

const FAILED = temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED;

/** Rebuilds the statistics when the store has no mark; a store with one is left alone. */
export async function rebuildIfEmpty(options: OutcomeRebuildOptions): Promise<RebuildSummary> {
  const summary: RebuildSummary = { rebuilt: false, settled: 0, failedRuns: 0, skipped: 0 };
  if ((await options.store.getCursor()) !== undefined) return summary;
  const now = (options.now ?? Date.now)();
  const converter = (options.client.options as unknown as { loadedDataConverter: LoadedDataConverter }).loadedDataConverter;
  for await (const raw of rawExecutions(options.client, rebuildQuery(now - options.lookbackMs), options.pageTimeoutMs)) {
    const folded = await foldRecord(options, converter, raw);
    if (folded === 'settled') summary.settled++;
    else if (folded === 'failed') summary.failedRuns++;
    else summary.skipped++;
  }
  await options.store.setCursor(now);
  summary.rebuilt = true;
  options.logger?.info(summary, 'ranking: statistics rebuilt from Temporal');
  return summary;
}

async function foldRecord(
  options: OutcomeRebuildOptions,
  converter: LoadedDataConverter,
  raw: temporal.api.workflow.v1.IWorkflowExecutionInfo,
): Promise<'settled' | 'failed' | 'skipped'> {
  const workflowId = raw.execution?.workflowId ?? '';
  const runId = raw.execution?.runId ?? '';
  let memo: Record<string, unknown> | undefined;
  try {
    memo = await decodeMapFromPayloads(converter, raw.memo?.fields, {
      type: 'workflow',
      namespace: options.client.options.namespace,
      workflowId,
    });
  } catch (err) {
    options.logger?.warn({ workflowId, err: (err as Error).message }, 'ranking rebuild: a record whose memo cannot be decoded is left out');
    return 'skipped';
  }
  const order = memo?.order as SettledOrderMemo['order'] | undefined;
  if (order && typeof memo?.providerCode === 'string' && typeof memo.integratorId === 'string') {
    const outcome = outcomeOfOrder({ providerCode: memo.providerCode, integratorId: memo.integratorId, order });
    if (!outcome) return 'skipped';
    await options.recorder.record(outcome, false);
    return 'settled';
  }
  const market = marketOf(memo);
  if (raw.status !== FAILED || !market) return 'skipped';
  const type = await failureType(options.client, workflowId, runId);
  const closedMs = raw.closeTime
    ? Number(raw.closeTime.seconds ?? 0) * 1000 + Math.floor((raw.closeTime.nanos ?? 0) / 1e6)
    : (options.now ?? Date.now)();
  if (type) await options.recorder.refused(refusedAttemptId(runId), market, type, { atMs: closedMs, integratorId: integratorOf(raw) });
  return 'failed';
}

/**
 * The integrator a run was started for: its IntegratorId search attribute, set when the API starts
 * every order (src/orders/service.ts). A refused creation has no order memo, so this is what
 * attributes it; a run without the attribute (or one that cannot be read) is folded into the
 * shared levels only, as an outcome without an integrator is.
 */
export function integratorOf(raw: temporal.api.workflow.v1.IWorkflowExecutionInfo): string | undefined {
  try {
    return decodeTypedSearchAttributes(raw.searchAttributes?.indexedFields).get(INTEGRATOR_ID_KEY);
  } catch {
    return undefined;
  }
}

interface SettledOrderMemo {
  order: Pick<Order, 'id' | 'status' | 'country_code' | 'payment_method' | 'created_at' | 'updated_at' | 'external_user_id'>;
}

/** The ApplicationFailure type a failed run ended with, if it ended with one. */
async function failureType(client: Client, workflowId: string, runId: string): Promise<string | undefined> {
  try {
    await client.workflow.getHandle(workflowId, runId, { followRuns: false }).result();
    return undefined;
  } catch (err) {
    if (err instanceof WorkflowFailedError && err.cause instanceof ApplicationFailure) return err.cause.type ?? undefined;
    return undefined;
  }
}
