import { ApplicationFailure, Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { MismatchKind } from '../src/domain/reconciliation';
import type { ProviderOrderRecords } from '../src/reconciliation/broker-books';
import type { ProviderRegistry } from '../src/providers/registry';
import { BooksWalkError } from '../src/reconciliation/provider-books';
import { runReconciliation } from '../src/reconciliation/run';
import { orderWorkflowId } from '../src/temporal/order-contract';
import { reconciliationMismatchSignal, type ReconciliationInput, type ReconciliationReport } from '../src/temporal/reconciliation-contract';

export interface ReconciliationDependencies {
  providers: ProviderRegistry;
  /** The broker's side (its order records); a worker without one cannot reconcile. */
  search?: ProviderOrderRecords;
  /** Tells open orders of their mismatches; without one no order is told. */
  client?: Client;
  /** The wait between provider calls, overriding each provider's documented rate (tests). */
  providerPauseMs?: number;
}

/** Activities of the reconciliation workflow (workflows/reconciliation.ts). */
export function createReconciliationActivities({ providers, search, client, providerPauseMs }: ReconciliationDependencies) {
  return {
    /** Reads both sides of the window and compares them; heartbeats as it reads, so a lost worker is noticed. */
    async reconcileProviderBooks(input: ReconciliationInput): Promise<Omit<ReconciliationReport, 'flagged'>> {
      const adapter = providers.get(input.providerCode);
      if (!adapter)
        throw ApplicationFailure.nonRetryable(`provider ${input.providerCode} is not enabled on this worker`, 'provider_unavailable');
      if (!search) throw ApplicationFailure.retryable('this worker cannot read order records', 'order_records_unavailable');
      const context = Context.current();
      try {
        return await runReconciliation(adapter, input, {
          search,
          signal: context.cancellationSignal,
          onProgress: (stage, read) => context.heartbeat({ stage, read }),
          ...(providerPauseMs === undefined ? {} : { pauseMs: providerPauseMs }),
        });
      } catch (err) {
        // A list too long or going round stays so: the run fails now rather than after 12 hours of retries.
        if (err instanceof BooksWalkError) throw ApplicationFailure.nonRetryable(err.message, 'books_unreadable');
        throw err;
      }
    },

    /**
     * Tells each open order of the report what differs (its ReconciliationMismatch search attribute);
     * the number told. An order whose workflow has closed cannot be told: the report holds it.
     */
    async flagReconciledOrders(input: { reconciliationId: string; orders: { orderId: string; kinds: MismatchKind[] }[] }): Promise<number> {
      if (!client) return 0;
      let told = 0;
      for (const [i, { orderId, kinds }] of input.orders.entries()) {
        try {
          await client.workflow.getHandle(orderWorkflowId(orderId)).signal(reconciliationMismatchSignal, {
            kinds,
            reconciliationId: input.reconciliationId,
          });
          told++;
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        }
        Context.current().heartbeat(i + 1);
      }
      return told;
    },
  };
}

export type ReconciliationActivities = ReturnType<typeof createReconciliationActivities>;
