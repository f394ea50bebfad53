import { isGrpcServiceError, type ConnectionLike } from '@temporalio/client';
import { orderWorkflowId } from './order-contract';

/** gRPC's NOT_FOUND status code. */
const GRPC_NOT_FOUND = 5;

/** Whether Temporal still keeps an order's workflow: open, or closed and not yet deleted by retention. */
export interface OrderRecords {
  kept(orderId: string): Promise<boolean>;
}

/**
 * Reads the order's workflow straight from the workflow service: nothing is decoded, so no memo is
 * decrypted and a memo under a retired key does not fail the answer.
 */
export function temporalOrderRecords(connection: ConnectionLike, namespace: string): OrderRecords {
  return {
    async kept(orderId) {
      try {
        await connection.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId: orderWorkflowId(orderId) } });
        return true;
      } catch (err) {
        if (isGrpcServiceError(err) && Number(err.code) === GRPC_NOT_FOUND) return false;
        throw err;
      }
    },
  };
}
