import { setTimeout as sleep } from 'node:timers/promises';
import { progressOf, type BookedTransaction } from '../domain/reconciliation';
import { textOutOfBounds } from '../providers/kit/report-bounds';
import type { ProviderTransaction, TransactionListing } from '../providers/types';

/** The most transactions one walk keeps (a walk holds them all to compare): a provider's busiest days fit many times. */
export const MAX_LISTED_TRANSACTIONS = 250_000;
/** Full pages in a row that add no transaction not seen already: a list going round, not forward. */
const MAX_STALE_PAGES = 5;

/** A provider's list the walk cannot finish: too long, or going round. Retrying would not help. */
export class BooksWalkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BooksWalkError';
  }
}

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
 * (or a provider that lists a request's attempts under one id, as Paybis does) is kept once: its
 * furthest-along answer (money moved, then final), the latest of equals.
 * A row with a text over its bound (src/providers/kit/report-bounds.ts) is counted as unreadable. A
 * list longer than MAX_LISTED_TRANSACTIONS, or one going round (a cursor again, pages of known rows
 * only), fails the walk with BooksWalkError.
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
    const cursors = new Set<string>();
    let stale = 0;
    let cursor: string | undefined;
    do {
      if (calls++ > 0) await sleep(pauseMs, undefined, options.signal ? { signal: options.signal } : undefined);
      const page = await listing.list(window, cursor, options.signal);
      const known = byId.size;
      for (const listed of page.transactions) {
        // A row with a text over its bound is no provider order as documented: counted, never carried into the report.
        if (textOutOfBounds(listed) || Number.isNaN(Date.parse(listed.createdAt))) {
          unreadable++;
          continue;
        }
        const booked = bookedTransaction(listed);
        const seen = byId.get(booked.providerOrderId);
        if (!seen || progressOf(booked.status) >= progressOf(seen.status)) byId.set(booked.providerOrderId, booked);
      }
      unreadable += page.unreadable ?? 0;
      if (byId.size > MAX_LISTED_TRANSACTIONS) {
        throw new BooksWalkError(`the list holds more than ${MAX_LISTED_TRANSACTIONS} transactions: reconcile shorter windows`);
      }
      stale = page.transactions.length > 0 && byId.size === known ? stale + 1 : 0;
      cursor = page.cursor;
      if (cursor !== undefined && (cursors.has(cursor) || stale >= MAX_STALE_PAGES)) {
        throw new BooksWalkError(
          `the list goes round (cursor ${JSON.stringify(cursor.slice(0, 64))} again, or ${stale} pages of known rows)`,
        );
      }
      if (cursor !== undefined) cursors.add(cursor);
      options.onPage?.(byId.size);
    } while (cursor !== undefined);
  }
  return { transactions: [...byId.values()], unreadable };
}
