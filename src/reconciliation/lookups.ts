import { setTimeout as sleep } from 'node:timers/promises';
import type { BookedOrder, BookedTransaction } from '../domain/reconciliation';
import { textOutOfBounds } from '../providers/kit/report-bounds';
import { ProviderRejectedError, type ProviderAdapter, type ProviderOrderSnapshot } from '../providers/types';
import type { ProviderBooks, ReadOptions } from './provider-books';

/** Lookups a second for a provider without a list: its status endpoint is shared with the orders' own polls. */
export const LOOKUPS_PER_SECOND = 5;

/** What a lookup answered, as the provider's books would list it; undefined when the provider has no order for it. */
export function lookedUpTransaction(order: BookedOrder, snapshot: ProviderOrderSnapshot): BookedTransaction | undefined {
  // `created` without a provider order: the customer never reached the provider (nothing to list).
  if (snapshot.providerOrderId === undefined && snapshot.status === 'created') return undefined;
  const createdAtMs = snapshot.providerOrderCreatedAt === undefined ? order.requestedAtMs : Date.parse(snapshot.providerOrderCreatedAt);
  return {
    // A provider that answers by our id alone names no order of its own: the order's id stands for it.
    providerOrderId: snapshot.providerOrderId ?? `order:${order.orderId}`,
    orderId: snapshot.orderId === '' ? order.orderId : snapshot.orderId,
    createdAtMs,
    status: snapshot.status,
    providerStatus: snapshot.providerStatus,
    ...(snapshot.reported === undefined ? {} : { reported: snapshot.reported }),
  };
}

/**
 * The provider's side of a window for a provider with no transaction list: each of the broker's
 * orders looked up, one call each at LOOKUPS_PER_SECOND. It finds every difference of an order the
 * broker has, never a transaction it does not have (docs/providers.md, "Reconciliation"). A lookup
 * the provider refuses as not found is an order it does not know; one that fails otherwise is
 * counted as unreadable, and the order is left out of the comparison rather than reported missing.
 */
export async function lookUpProviderBooks(
  adapter: ProviderAdapter,
  orders: readonly BookedOrder[],
  options: ReadOptions = {},
): Promise<ProviderBooks & { unanswered: Set<string> }> {
  const pauseMs = options.pauseMs ?? Math.ceil(1000 / LOOKUPS_PER_SECOND);
  const transactions: BookedTransaction[] = [];
  const unanswered = new Set<string>();
  for (const [i, order] of orders.entries()) {
    if (i > 0) await sleep(pauseMs, undefined, options.signal ? { signal: options.signal } : undefined);
    try {
      const snapshot = await adapter.getOrder(order.orderId, order.providerOrderId, {
        orderCreatedAt: new Date(order.requestedAtMs).toISOString(),
      });
      // An answer with a text over its bound is unusable, as it is to the order's own polls.
      if (textOutOfBounds(snapshot)) unanswered.add(order.orderId);
      else {
        const found = lookedUpTransaction(order, snapshot);
        if (found) transactions.push(found);
      }
    } catch (err) {
      if (!(err instanceof ProviderRejectedError && err.code === 'not_found')) unanswered.add(order.orderId);
    }
    options.onPage?.(i + 1);
  }
  return { transactions, unreadable: unanswered.size, unanswered };
}
