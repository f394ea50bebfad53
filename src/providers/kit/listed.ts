import { inWindow as anchoredIn } from '../../domain/reconciliation';
import type { ProviderOrderSnapshot, ProviderTransaction, ProviderTransactionPage, TransactionWindow } from '../types';

/**
 * A snapshot of a provider order, as its transaction list shows it, in the reconciliation's terms:
 * undefined when the list names no provider order id or no creation time that can be read (such
 * a row cannot be matched or placed in a window; the walk counts it as unreadable).
 */
export function listedTransaction(snapshot: ProviderOrderSnapshot): ProviderTransaction | undefined {
  const { orderId, providerOrderId, providerOrderCreatedAt, ...rest } = snapshot;
  if (!providerOrderId || !providerOrderCreatedAt) return undefined;
  return { ...rest, providerOrderId, createdAt: providerOrderCreatedAt, ...(orderId ? { orderId } : {}) };
}

/** Whether the transaction was made inside the window (`fromMs` included, `toMs` excluded). */
export function inWindow(transaction: ProviderTransaction, window: TransactionWindow): boolean {
  return anchoredIn(Date.parse(transaction.createdAt), window);
}

/** The UTC dates a window touches, for a list that filters by whole days (both ends included). */
export function windowDates(window: TransactionWindow): { first: string; last: string } {
  return {
    first: new Date(window.fromMs).toISOString().slice(0, 10),
    last: new Date(Math.max(window.fromMs, window.toMs - 1)).toISOString().slice(0, 10),
  };
}

/**
 * A page's rows in the broker's terms: those inside the window, and how many could not be read
 * (no provider order id or creation time: such a row cannot be matched or placed in a window).
 */
export function windowRows(
  rows: Iterable<ProviderOrderSnapshot>,
  window: TransactionWindow,
): { transactions: ProviderTransaction[]; unreadable: number } {
  const transactions: ProviderTransaction[] = [];
  let unreadable = 0;
  for (const row of rows) {
    const listed = listedTransaction(row);
    if (!listed) unreadable++;
    else if (inWindow(listed, window)) transactions.push(listed);
  }
  return { transactions, unreadable };
}

/**
 * The page an offset-paged list answered, in the broker's terms: windowRows, and the next offset
 * when the page was full (a short page is the last).
 */
export function offsetPage(
  rows: readonly ProviderOrderSnapshot[],
  window: TransactionWindow,
  offset: number,
  limit: number,
): ProviderTransactionPage {
  const page = windowRows(rows, window);
  return rows.length < limit ? page : { ...page, cursor: String(offset + rows.length) };
}

/** The offset a cursor of offsetPage names: 0 for none; a cursor that is not one is refused. */
export function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new RangeError(`not a list cursor: ${cursor}`);
  return Number(cursor);
}
