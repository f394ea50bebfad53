import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { ORDER_RECORD_CHECK_MS, orderIdReservationId, type OrderIdReservation } from '../temporal/order-contract';
import type { orderIdReservation } from '../../workflows';
import { ORDER_ID_RESERVATION_WORKFLOW_TYPE } from './claims';

/**
 * Starts the reservation of `reservation.orderId` (workflows/claim.ts), as the API does before an
 * order and the backfill does for older orders; false when the id has a reservation already, open
 * or closed and still kept (a closed one, ended or terminated by hand, still holds the id).
 *
 * Started with its first workflow task delayed by one check interval (`startDelay`): it holds the
 * id from the start all the same (an open execution, its first task scheduled for later), and an
 * order's creation pays no workflow task, timer or worker activation for it. Its workflow then
 * begins with a wait of its own, so the first check of the order's record comes two intervals
 * after the request: the hold only begins later (docs/decisions.md).
 */
export async function startOrderIdReservation(
  client: Client,
  taskQueue: string,
  reservation: OrderIdReservation,
  summary = `order id ${reservation.orderId} reserved`,
): Promise<boolean> {
  try {
    await client.workflow.start<typeof orderIdReservation>(ORDER_ID_RESERVATION_WORKFLOW_TYPE, {
      workflowId: orderIdReservationId(reservation.orderId),
      taskQueue,
      args: [reservation],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      startDelay: reservation.checkEveryMs ?? ORDER_RECORD_CHECK_MS,
      staticSummary: summary,
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}
