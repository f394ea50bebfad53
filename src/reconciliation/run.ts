import type { BookedOrder } from '../domain/reconciliation';
import { inWindow, MISMATCH_KINDS, reconcile, type Mismatch, type MismatchKind } from '../domain/reconciliation';
import { reconciliationLastRun, reconciliationMismatches, reconciliationRuns } from '../metrics/metrics';
import type { ProviderAdapter } from '../providers/types';
import {
  MAX_REPORTED_BYTES,
  MAX_REPORTED_MISMATCHES,
  type ReconciliationInput,
  type ReconciliationReport,
} from '../temporal/reconciliation-contract';
import { readBrokerOrders, type ProviderOrderRecords } from './broker-books';
import { lookUpProviderBooks } from './lookups';
import { readProviderBooks, type ProviderBooks } from './provider-books';

export interface ReconciliationSides {
  search: ProviderOrderRecords;
  now?: () => number;
  /** Told as the walk goes (the activity heartbeats). */
  onProgress?: (stage: 'orders' | 'transactions', read: number) => void;
  signal?: AbortSignal;
  /** The wait between provider calls, overriding the documented rate (tests). */
  pauseMs?: number;
}

/** Every value of the `kind` label of onramp_reconciliation_mismatches_total. */
const COUNTED_KINDS = [...MISMATCH_KINDS, 'unreadable'] as const;

/**
 * Exports onramp_reconciliation_mismatches_total at 0 for every provider and kind, as the worker
 * starts: prom-client shows a labelled series only from its first inc(), and the alert rule's
 * increase() would not see a first run's mismatches otherwise. Keeps any count so far.
 */
export function zeroReconciliationCounts(providerCodes: readonly string[]): void {
  for (const provider of providerCodes) for (const kind of COUNTED_KINDS) reconciliationMismatches.inc({ provider, kind }, 0);
}

/** The mismatches a report lists: the first ones, within MAX_REPORTED_MISMATCHES and MAX_REPORTED_BYTES. */
export function listed(mismatches: readonly Mismatch[]): { mismatches: Mismatch[]; truncated: number } {
  const kept: Mismatch[] = [];
  let bytes = 2;
  for (const mismatch of mismatches) {
    bytes += Buffer.byteLength(JSON.stringify(mismatch)) + 1;
    if (kept.length >= MAX_REPORTED_MISMATCHES || bytes > MAX_REPORTED_BYTES) break;
    kept.push(mismatch);
  }
  return { mismatches: kept, truncated: mismatches.length - kept.length };
}

/**
 * One reconciliation of a provider's window: the broker's orders and the provider's books read with
 * the margin around it, compared (src/domain/reconciliation.ts), counted in the metrics, reported
 * (the list cut by `listed`). A side that cannot be read fails the run: a half-read side would
 * report what it did not read as missing.
 */
export async function runReconciliation(
  adapter: ProviderAdapter,
  input: ReconciliationInput,
  sides: ReconciliationSides,
): Promise<Omit<ReconciliationReport, 'flagged'>> {
  const provider = input.providerCode;
  const now = sides.now ?? Date.now;
  const { marginMs, settleMs } = input.timings;
  const readFrom = input.fromMs - marginMs;
  const readTo = input.toMs + marginMs;
  try {
    let orders: BookedOrder[] = await readBrokerOrders(sides.search, provider, readFrom, readTo, (read) =>
      sides.onProgress?.('orders', read),
    );
    const progress = { onPage: (read: number) => sides.onProgress?.('transactions', read), signal: sides.signal, pauseMs: sides.pauseMs };
    let books: ProviderBooks;
    if (adapter.transactions) {
      books = await readProviderBooks(adapter.transactions, readFrom, readTo, progress);
    } else {
      // Without a list, only the window's own orders are looked up (their pairs are all the window reports).
      orders = orders.filter((order) => inWindow(order.requestedAtMs, input));
      const looked = await lookUpProviderBooks(adapter, orders, progress);
      orders = orders.filter((order) => !looked.unanswered.has(order.orderId));
      books = looked;
    }
    const ranAtMs = now();
    const outcome = reconcile({
      fromMs: input.fromMs,
      toMs: input.toMs,
      nowMs: ranAtMs,
      settleMs,
      orders,
      transactions: books.transactions,
    });
    const counts: Partial<Record<MismatchKind, number>> = {};
    for (const mismatch of outcome.mismatches) counts[mismatch.kind] = (counts[mismatch.kind] ?? 0) + 1;
    for (const kind of MISMATCH_KINDS) if (counts[kind]) reconciliationMismatches.inc({ provider, kind }, counts[kind]);
    // Rows the broker could not read may hide any kind: counted with them, so the alert sees them.
    if (books.unreadable > 0) reconciliationMismatches.inc({ provider, kind: 'unreadable' }, books.unreadable);
    const clean = outcome.mismatches.length === 0 && books.unreadable === 0;
    reconciliationRuns.inc({ provider, outcome: clean ? 'clean' : 'mismatches' });
    reconciliationLastRun.set({ provider }, Math.floor(ranAtMs / 1000));
    return {
      providerCode: provider,
      fromMs: input.fromMs,
      toMs: input.toMs,
      ranAtMs,
      source: adapter.transactions ? 'list' : 'lookup',
      orders: outcome.orders,
      transactions: outcome.transactions,
      matched: outcome.matched,
      unreadable: books.unreadable,
      unsettled: outcome.unsettled,
      counts,
      ...listed(outcome.mismatches),
    };
  } catch (err) {
    reconciliationRuns.inc({ provider, outcome: 'failed' });
    throw err;
  }
}
