/**
 * Onramp.money's merchant transaction history as the reconciliation reads it: `merchantHistory`
 * from the window's start (`since`), newest first, page-numbered (docs/providers/onramp_money.md,
 * Transaction list).
 */
import { createdAtText } from '../kit/created-at';
import { inWindow, listedTransaction } from '../kit/listed';
import { UnknownProviderStatusError } from '../kit/status-map';
import type { ProviderTransaction, ProviderTransactionPage, TransactionWindow } from '../types';
import type { OnrampMoneyCurrencyIds } from './reported';
import type { OnrampMoneyTransaction } from './schemas';
import { fromTransaction } from './transformers';

/**
 * The `since` to ask for a window: 1 ms before its start, as the documented example asks
 * (`since` …51.999Z for a transaction made at …52.000Z). Whether `since` is included, and whether it
 * filters by creation or by last update, is not documented: either way every transaction made inside
 * the window is answered, and the page keeps only those.
 */
export const historySince = (window: TransactionWindow): string => new Date(window.fromMs - 1).toISOString();

/** The page number a cursor of historyListPage names: 1 for none; a cursor that is not one is refused. */
export function historyPageOf(cursor: string | undefined): number {
  if (cursor === undefined) return 1;
  if (!/^[1-9]\d{0,8}$/.test(cursor)) throw new RangeError(`not a list cursor: ${cursor}`);
  return Number(cursor);
}

/**
 * One history row as the status lookup reads it (fromTransaction), in the reconciliation's terms:
 * undefined when it cannot be read (a status code Onramp.money does not document, no creation time).
 * A row naming no merchantRecognitionId (a purchase not made through the broker's widget URL) is
 * listed by Onramp.money's orderId alone.
 */
export function listedHistoryRow(tx: OnrampMoneyTransaction, ids: OnrampMoneyCurrencyIds): ProviderTransaction | undefined {
  try {
    return listedTransaction(fromTransaction(tx, ids));
  } catch (err) {
    if (err instanceof UnknownProviderStatusError) return undefined;
    throw err;
  }
}

/**
 * One page of the history in the broker's terms: the rows made inside the window, the unreadable
 * ones counted, and the next page number as the cursor while the page was full and reached no row
 * made before the window's start (the history is newest first: the pages after such a row hold only
 * older ones).
 */
export function historyListPage(
  rows: readonly OnrampMoneyTransaction[],
  window: TransactionWindow,
  page: number,
  pageSize: number,
  ids: OnrampMoneyCurrencyIds,
): ProviderTransactionPage & { unreadable: number } {
  const transactions: ProviderTransaction[] = [];
  let unreadable = 0;
  let reachedOlder = false;
  for (const row of rows) {
    // Read as the transformer reads it, whatever its status says.
    const made = createdAtText(row.createdAt).providerOrderCreatedAt;
    if (made !== undefined && Date.parse(made) < window.fromMs) reachedOlder = true;
    const listed = listedHistoryRow(row, ids);
    if (!listed) unreadable++;
    else if (inWindow(listed, window)) transactions.push(listed);
  }
  const last = rows.length < pageSize || reachedOlder;
  return last ? { transactions, unreadable } : { transactions, cursor: String(page + 1), unreadable };
}
