import { setTimeout as sleep } from 'node:timers/promises';
import type { BookedTransaction } from '../domain/reconciliation';
import { isSettled } from '../domain/order-status';
import { textOutOfBounds } from '../providers/kit/report-bounds';
import type { ProviderTransaction, TransactionListing } from '../providers/types';

export interface ProviderBooks {
  transactions: BookedTransaction[];
  /** Rows the list held that named no provider order id or creation time. */
  unreadable: number;
}

export interface ReadOptions {
  /** Told after each page (the activity heartbeats there). */
  onPage?: (read: number) => void;
  signal?: AbortSignal;
  /** The wait between two calls; the listing's documented rate by default. */
  pauseMs?: number;
}

/** A listed transaction in the terms reconciliation compares. */
export function bookedTransaction(transaction: ProviderTransaction): BookedTransaction {
  return {
    providerOrderId: transaction.providerOrderId,
    ...(transaction.orderId === undefined ? {} : { orderId: transaction.orderId }),
    createdAtMs: Date.parse(transaction.createdAt),
    status: transaction.status,
    providerStatus: transaction.providerStatus,
    ...(transaction.reported === undefined ? {} : { reported: transaction.reported }),
  };
}

/**
 * The provider's transactions made from `fromMs` (included) to `toMs` (excluded), through its
 * documented list: every page, no faster than its documented rate, in slices no wider than it
 * allows. A transaction listed twice (a list paged by offset shifts when one is added meanwhile)
 * is kept once, as its latest answer says, unless an earlier one had it final and the later not.
 * A row with a text over its bound (src/providers/kit/report-bounds.ts) is counted as unreadable.
 */
export async function readProviderBooks(
  listing: TransactionListing,
  fromMs: number,
  toMs: number,
  options: ReadOptions = {},
): Promise<ProviderBooks> {
  const pauseMs = options.pauseMs ?? Math.ceil(1000 / listing.callsPerSecond);
  const slice = listing.maxWindowMs ?? toMs - fromMs;
  const byId = new Map<string, BookedTransaction>();
  let unreadable = 0;
  let calls = 0;
  for (let start = fromMs; start < toMs; start += slice) {
    const window = { fromMs: start, toMs: Math.min(toMs, start + slice) };
    let cursor: string | undefined;
    do {
      if (calls++ > 0) await sleep(pauseMs, undefined, options.signal ? { signal: options.signal } : undefined);
      const page = await listing.list(window, cursor, options.signal);
      for (const listed of page.transactions) {
        // A row with a text over its bound is no provider order as documented: counted, never carried into the report.
        if (textOutOfBounds(listed) || Number.isNaN(Date.parse(listed.createdAt))) {
          unreadable++;
          continue;
        }
        const booked = bookedTransaction(listed);
        const seen = byId.get(booked.providerOrderId);
        if (!seen || !isSettled(seen.status) || isSettled(booked.status)) byId.set(booked.providerOrderId, booked);
      }
      unreadable += page.unreadable ?? 0;
      cursor = page.cursor;
      options.onPage?.(byId.size);
    } while (cursor !== undefined);
  }
  return { transactions: [...byId.values()], unreadable };
}
