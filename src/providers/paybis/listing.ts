import type { CurrencyDictionary } from '../../domain/currency';
import { inWindow, listedTransaction } from '../kit/listed';
import type { ProviderTransaction, ProviderTransactionPage, TransactionWindow } from '../types';
import type { PaybisTransaction, PaybisTransactionList } from './schemas';
import { fromTransaction } from './transformers';

/**
 * The window as the list's `from` and `to`: ISO 8601 instants, as the status lookup sends them.
 * Whether Paybis counts `to` in is not documented; listedPage keeps what lies inside the window.
 */
export function toListRange(window: TransactionWindow): { from: string; to: string } {
  return { from: new Date(window.fromMs).toISOString(), to: new Date(window.toMs).toISOString() };
}

/**
 * One listed transaction in the reconciliation's terms, read as the status lookup reads it
 * (fromTransaction: the status map with the payment the list shows, the reported terms,
 * `createdAt`): its provider order id is the request id, the one the order pinned at creation; our
 * order id is the `partnerTransactionId` the request was made with, and none where the row names
 * none (the lookup's stand-in, the order it was asked about, does not exist here: the empty text
 * it is given is dropped by listedTransaction). Undefined when the row has no readable `createdAt`.
 */
export function fromListedTransaction(tx: PaybisTransaction, dictionary: CurrencyDictionary): ProviderTransaction | undefined {
  return listedTransaction(fromTransaction('', tx.request.id, tx, dictionary));
}

/**
 * One page of the transaction list in the broker's terms: each row its own transaction (several
 * transactions of one request are each listed, all with the request id and our order id), the
 * rows inside the window, rows without a creation time counted as unreadable, and `meta.nextCursor`
 * as the cursor, passed on as it is; absent, null or empty on the last page. A status Paybis does
 * not document fails the page, as it fails a lookup (UnknownProviderStatusError).
 */
export function listedPage(
  list: PaybisTransactionList,
  window: TransactionWindow,
  dictionary: CurrencyDictionary,
): ProviderTransactionPage {
  const transactions: ProviderTransaction[] = [];
  let unreadable = 0;
  for (const row of list.data) {
    const listed = fromListedTransaction(row, dictionary);
    if (!listed) unreadable++;
    else if (inWindow(listed, window)) transactions.push(listed);
  }
  const next = list.meta.nextCursor;
  return next ? { transactions, cursor: next, unreadable } : { transactions, unreadable };
}
