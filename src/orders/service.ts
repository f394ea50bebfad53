import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  ServiceError,
  isGrpcServiceError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ProblemError } from '../api/problem';
import type { Order } from '../domain/order';
import type { ProviderWebhookEvent } from '../providers/types';
import {
  createOrderUpdate,
  EXTERNAL_ORDER_ID_KEY,
  EXTERNAL_USER_ID_KEY,
  INTEGRATOR_ID_KEY,
  orderWorkflowId,
  PROVIDER_CODE_KEY,
  providerEventSignal,
  type OrderMemo,
  type OrderWorkflowInput,
} from '../temporal/shared';
import type { orderWorkflow } from '../../workflows';

const REJECTION_TO_PROBLEM = {
  invalid_wallet_address: 'invalid_wallet_address',
  idempotency_conflict: 'idempotency_conflict',
  provider_rejected: 'provider_rejected',
  provider_unavailable: 'provider_unavailable',
} as const;

export interface OrderServiceOptions {
  client: Client;
  taskQueue: string;
  /** How long an API request waits for the provider order to be created. */
  createTimeoutMs: number;
  /** Deadline of a read or a signal (default 5 s): the caller gets a 503 rather than a hang. */
  rpcTimeoutMs?: number;
}

export type SignalOutcome = 'delivered' | 'unknown_order';

/** The API's door to order workflows: start-and-create, read, and forward provider events. */
export class OrderService {
  constructor(private readonly options: OrderServiceOptions) {}

  async create(input: OrderWorkflowInput): Promise<Order> {
    const { client, taskQueue } = this.options;
    const workflowId = orderWorkflowId(input.orderId);
    const startWorkflowOperation = new WithStartWorkflowOperation<typeof orderWorkflow>('orderWorkflow', {
      workflowId,
      taskQueue,
      args: [input],
      // A repeated request joins the running order; a closed order is never started again,
      // unless its creation failed (nothing exists at the provider then).
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      typedSearchAttributes: [
        { key: PROVIDER_CODE_KEY, value: input.providerCode },
        { key: INTEGRATOR_ID_KEY, value: input.integratorId },
        { key: EXTERNAL_ORDER_ID_KEY, value: input.request.external_order_id },
        { key: EXTERNAL_USER_ID_KEY, value: input.request.external_user_id },
      ],
      staticSummary: `${input.providerCode} order ${input.request.external_order_id} (${input.integratorId})`,
    });
    try {
      return await client.withDeadline(Date.now() + this.options.createTimeoutMs, () =>
        client.workflow.executeUpdateWithStart(createOrderUpdate, {
          args: [{ requestHash: input.requestHash }],
          updateId: `create-${input.requestHash}`,
          startWorkflowOperation,
        }),
      );
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return this.existing(input);
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
        const code = REJECTION_TO_PROBLEM[err.cause.type as keyof typeof REJECTION_TO_PROBLEM];
        if (code) throw new ProblemError(code, err.cause.message);
      }
      throw unavailable(err);
    }
  }

  /** The order as its workflow memo records it; works with no worker running and after the workflow closed. */
  async get(orderId: string): Promise<OrderMemo | undefined> {
    try {
      const handle = this.options.client.workflow.getHandle(orderWorkflowId(orderId));
      const description = await this.withRpcDeadline(() => handle.describe());
      const memo = description.memo as Partial<OrderMemo> | undefined;
      return memo?.order ? (memo as OrderMemo) : undefined;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw unavailable(err);
    }
  }

  /** Forwards a verified webhook of `providerCode` to the order it names; the order checks it is its own provider's. */
  async signalProviderEvent(providerCode: string, event: ProviderWebhookEvent): Promise<SignalOutcome> {
    try {
      const handle = this.options.client.workflow.getHandle(orderWorkflowId(event.orderId));
      await this.withRpcDeadline(() => handle.signal(providerEventSignal, {
        eventId: event.eventId,
        providerCode,
        providerStatus: event.providerStatus,
        status: event.status,
        providerOrderId: event.providerOrderId,
        failureReason: event.failureReason,
        cryptoAmount: event.cryptoAmount,
        transactionHash: event.transactionHash,
        reported: event.reported,
      }));
      return 'delivered';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'unknown_order';
      throw unavailable(err);
    }
  }

  private withRpcDeadline<T>(fn: () => Promise<T>): Promise<T> {
    return this.options.client.withDeadline(Date.now() + (this.options.rpcTimeoutMs ?? 5000), fn);
  }

  private async existing(input: OrderWorkflowInput): Promise<Order> {
    const memo = await this.get(input.orderId);
    if (!memo || memo.integratorId !== input.integratorId) {
      throw new ProblemError('service_unavailable', 'The order exists but could not be read; try again.');
    }
    if (memo.requestHash !== input.requestHash) {
      throw new ProblemError('idempotency_conflict', 'this external_order_id was already used with a different request');
    }
    return memo.order;
  }
}

function unavailable(err: unknown): unknown {
  if (err instanceof ProblemError) return err;
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
    // The workflow exists and keeps going; the same request later returns the order.
    return new ProblemError('service_unavailable', 'The order is not created yet; repeat the same request shortly.', undefined, {
      'Retry-After': '5',
    });
  }
  if (isGrpcServiceError(err) || err instanceof ServiceError || (err as Error).name === 'TransportError') {
    return new ProblemError('service_unavailable', 'The order engine cannot be reached; try again shortly.', undefined, {
      'Retry-After': '5',
    });
  }
  return err;
}
