/**
 * Banxa's order list as the reconciliation reads it: `GET /v2/orders` by creation dates, paged by
 * page number (docs/providers/banxa.md, Transaction list).
 */
import { windowDates, windowRows } from '../kit/listed';
import type { ProviderOrderSnapshot, ProviderTransactionPage, TransactionWindow } from '../types';

const DAY_MS = 86_400_000;

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The `start` and `end` dates to ask for a window: the UTC days it touches, and one more on each
 * side. Banxa documents neither whether `end` is included nor which clock its dates follow (it is an
 * Australian company; its orders' `createdAt` is UTC), so a day either way keeps every order of the
 * window in the answer; the page keeps only the orders inside the window itself.
 */
export function banxaListDates(window: TransactionWindow): { start: string; end: string } {
  const { first, last } = windowDates(window);
  return { start: isoDate(Date.parse(first) - DAY_MS), end: isoDate(Date.parse(last) + DAY_MS) };
}

/** The page number a cursor of banxaListPage names: 1 for none; a cursor that is not one is refused. */
export function banxaPageOf(cursor: string | undefined): number {
  if (cursor === undefined) return 1;
  if (!/^[1-9]\d{0,8}$/.test(cursor)) throw new RangeError(`not a list cursor: ${cursor}`);
  return Number(cursor);
}

/**
 * One page of Banxa's page-numbered list, in the broker's terms: the rows inside the window, and
 * the next page number as the cursor while the page was full and Banxa's `pageTotal` (when it
 * gives one) says there are more.
 */
export function banxaListPage(
  rows: readonly ProviderOrderSnapshot[],
  window: TransactionWindow,
  page: number,
  limit: number,
  pageTotal?: number,
  /** How many orders Banxa's page held, where some were left out of `rows` (sell orders): it decides whether the page was full. */
  pageLength: number = rows.length,
): ProviderTransactionPage {
  const listed = windowRows(rows, window);
  const last = pageLength < limit || (pageTotal !== undefined && page >= pageTotal);
  return last ? listed : { ...listed, cursor: String(page + 1) };
}
