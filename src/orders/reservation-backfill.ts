import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { orderIdOfWorkflowId, orderIdReservationId } from '../temporal/order-contract';
import { rawExecutions } from '../temporal/raw-visibility';
import { startOrderIdReservation } from './order-id-reservation';

/** Every order workflow visibility still keeps, whatever its status (continued-as-new runs repeat their id). */
const ORDER_WORKFLOWS_QUERY = "WorkflowType = 'orderWorkflow'";
const RPC_TIMEOUT_MS = 10_000;

export interface ReservationBackfillOptions {
  client: Client;
  /** The task queue the workers poll (TEMPORAL_TASK_QUEUE): the reservation workflow runs there. */
  taskQueue: string;
  /** How long each reservation stays open (ORDER_ID_RESERVATION_DAYS). */
  holdMs: number;
  /** Only find out what would be reserved: one describe per order, nothing started. */
  dryRun?: boolean;
  /** Orders handled at once (default 8). */
  concurrency?: number;
  /** Deadline of each Temporal call (default 10 s). */
  rpcTimeoutMs?: number;
}

export interface ReservationBackfillSummary {
  dryRun: boolean;
  /** Distinct orders found in visibility. */
  listed: number;
  /** Reservations started by this run (a dry run: the ones it would start). */
  reserved: number;
  /** Orders whose id has a reservation already (the API's, or an earlier run's). */
  alreadyReserved: number;
  failed: { workflowId: string; reason: string }[];
}

/**
 * Reserves the id of every order Temporal still keeps that has no reservation: the orders created
 * before the API reserved ids (and the ones only ever repeated since, which the API answers without
 * creating), so that once retention deletes them, their ids are refused like any other's. The
 * reservation is the one the API starts (src/orders/service.ts): the same workflow, id, input and
 * policies; an id already reserved makes the start fail, so running it again starts nothing.
 * Visibility pages are read raw, so no memo is decoded: no customer data is loaded and no key is
 * needed to list.
 */
export async function backfillOrderIdReservations(options: ReservationBackfillOptions): Promise<ReservationBackfillSummary> {
  const workflowIds = new Set<string>();
  try {
    for await (const workflowId of orderWorkflowIds(options)) workflowIds.add(workflowId);
  } catch (err) {
    throw new Error(`listing the order workflows failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const summary: ReservationBackfillSummary = {
    dryRun: options.dryRun ?? false,
    listed: workflowIds.size,
    reserved: 0,
    alreadyReserved: 0,
    failed: [],
  };
  await forEachAtMost(options.concurrency ?? 8, workflowIds, async (workflowId) => {
    const orderId = orderIdOfWorkflowId(workflowId);
    if (orderId === undefined) {
      summary.failed.push({ workflowId, reason: 'the workflow id names no order id' });
      return;
    }
    try {
      const outcome = await reserve(options, orderId);
      if (outcome === 'reserved') summary.reserved++;
      else summary.alreadyReserved++;
    } catch (err) {
      summary.failed.push({ workflowId, reason: err instanceof Error ? err.message : String(err) });
    }
  });
  summary.failed.sort((a, b) => a.workflowId.localeCompare(b.workflowId));
  return summary;
}

async function reserve(options: ReservationBackfillOptions, orderId: string): Promise<'reserved' | 'already reserved'> {
  const { client, taskQueue, holdMs, dryRun = false, rpcTimeoutMs = RPC_TIMEOUT_MS } = options;
  const workflowId = orderIdReservationId(orderId);
  const withDeadline = <T>(fn: () => Promise<T>) => client.withDeadline(Date.now() + rpcTimeoutMs, fn);
  if (dryRun) {
    try {
      // Any run the id still has, open or closed, is what would refuse the start below.
      await withDeadline(() => client.workflow.getHandle(workflowId).describe());
      return 'already reserved';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'reserved';
      throw err;
    }
  }
  const started = await withDeadline(() =>
    startOrderIdReservation(client, taskQueue, { orderId, holdForMs: holdMs }, `order id ${orderId} reserved (backfill)`),
  );
  return started ? 'reserved' : 'already reserved';
}

/** The ids of the order workflows in visibility, a page of 1000 at a time, memos left undecoded. */
async function* orderWorkflowIds({ client, rpcTimeoutMs = RPC_TIMEOUT_MS }: ReservationBackfillOptions): AsyncGenerator<string> {
  for await (const execution of rawExecutions(client, ORDER_WORKFLOWS_QUERY, rpcTimeoutMs)) {
    const workflowId = execution.execution?.workflowId;
    if (workflowId) yield workflowId;
  }
}

/** Runs `each` over `items`, at most `limit` at once. */
export async function forEachAtMost<T>(limit: number, items: Iterable<T>, each: (item: T) => Promise<void>): Promise<void> {
  const iterator = items[Symbol.iterator]();
  const lane = async () => {
    for (let next = iterator.next(); !next.done; next = iterator.next()) await each(next.value);
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, lane));
}

/** The summary an operator reads: counts first, then each failure with its reason. */
export function formatBackfillSummary(summary: ReservationBackfillSummary): string {
  const lines = [
    `order workflows listed: ${summary.listed}`,
    `${summary.dryRun ? 'would reserve (dry run, nothing started)' : 'reserved now'}: ${summary.reserved}`,
    `already reserved: ${summary.alreadyReserved}`,
    `failed: ${summary.failed.length}`,
    ...summary.failed.map(({ workflowId, reason }) => `  ${workflowId}: ${reason}`),
  ];
  return `${lines.join('\n')}\n`;
}
