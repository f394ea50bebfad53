import { ApplicationFailure, Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Mismatch, MismatchKind } from '../src/domain/reconciliation';
import type { ProviderOrderRecords } from '../src/reconciliation/broker-books';
import type { ProviderRegistry } from '../src/providers/registry';
import { BooksWalkError } from '../src/reconciliation/provider-books';
import { runReconciliation } from '../src/reconciliation/run';
import { orderWorkflowId } from '../src/temporal/order-contract';
import { reconciliationMismatchSignal, type ReconciliationInput, type ReconciliationReport } from '../src/temporal/reconciliation-contract';
import type { ReviewSubject } from '../src/temporal/review-contract';
import type { ReviewTeller } from '../src/temporal/reviews';

export interface ReconciliationDependencies {
  providers: ProviderRegistry;
  /** The broker's side (its order records); a worker without one cannot reconcile. */
  search?: ProviderOrderRecords;
  /** Tells open orders of their mismatches; without one no order is told. */
  client?: Client;
  /** Opens a review (the operator's queue) for each mismatch; without it none is opened. */
  reviews?: ReviewTeller;
  /** The wait between provider calls, overriding each provider's documented rate (tests). */
  providerPauseMs?: number;
}

/** Activities of the reconciliation workflow (workflows/reconciliation.ts). */
export function createReconciliationActivities({ providers, search, client, reviews, providerPauseMs }: ReconciliationDependencies) {
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
     * Tells each open order of the report what differs (its ReconciliationMismatch search attribute),
     * and opens a review of each mismatch, an order's open or closed, a transaction only the provider
     * has included (docs/operations.md, "Review queue"); the number of orders told. An order whose
     * workflow has closed cannot be told: its review and the report hold it. Reviews keep each
     * mismatch of a reconciliation once, so a retry or a rerun of the same window adds nothing.
     */
    async flagReconciledOrders(input: {
      reconciliationId: string;
      orders: { orderId: string; kinds: MismatchKind[] }[];
      /** The provider and the report's mismatches, for the reviews (absent from runs of earlier releases: none opened). */
      providerCode?: string;
      mismatches?: Mismatch[];
    }): Promise<number> {
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
      if (reviews && input.providerCode !== undefined) {
        const raisedAt = new Date().toISOString();
        for (const [i, mismatch] of (input.mismatches ?? []).entries()) {
          const subject = reviewSubjectOf(input.providerCode, mismatch);
          if (!subject) continue;
          await reviews.notice(subject, {
            reason: 'reconciliation_mismatch',
            // Several duplicate payments of one order in one run are several occurrences: the provider order names each.
            key: `${input.reconciliationId}:${mismatch.kind}${mismatch.providerOrderId === undefined ? '' : `:${mismatch.providerOrderId}`}`,
            detail: describeMismatch(mismatch, input.reconciliationId),
            raisedAt,
            source: 'reconciliation',
          });
          Context.current().heartbeat(input.orders.length + i + 1);
        }
      }
      return told;
    },
  };
}

export type ReconciliationActivities = ReturnType<typeof createReconciliationActivities>;

/** What a mismatch is about: the broker's order, or (missing_here) the provider's transaction. */
function reviewSubjectOf(providerCode: string, mismatch: Mismatch): ReviewSubject | undefined {
  if (mismatch.kind === 'missing_here') {
    const providerOrderId = mismatch.providerOrderId ?? mismatch.orderId;
    return providerOrderId === undefined ? undefined : { kind: 'provider_transaction', providerCode, providerOrderId };
  }
  if (mismatch.orderId === undefined) return undefined;
  return { kind: 'order', orderId: mismatch.orderId, providerCode, integratorId: mismatch.integratorId ?? 'unknown' };
}

/** The mismatch in a line, both sides where they differ. */
function describeMismatch(mismatch: Mismatch, reconciliationId: string): string {
  const parts = [`${mismatch.kind} (${reconciliationId})`];
  if (mismatch.providerOrderId !== undefined) parts.push(`provider order ${mismatch.providerOrderId}`);
  const status = mismatch.status;
  if (status) parts.push(`status here ${status.here ?? '-'}, at the provider ${status.provider ?? '-'} (${status.providerStatus ?? '-'})`);
  for (const field of mismatch.fields ?? []) parts.push(`${field.field}: here ${field.ordered}, at the provider ${field.reported}`);
  return parts.join('; ');
}
