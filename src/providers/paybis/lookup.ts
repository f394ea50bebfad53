import { furthestTransaction, progressOf, type Progress } from '../kit/progress';
import type { PaybisTransaction } from './schemas';
import { listedStatus } from './transformers';

const createdMs = (tx: PaybisTransaction) => {
  const ms = Date.parse(tx.createdAt);
  return Number.isFinite(ms) ? ms : -Infinity;
};

/**
 * How far a listed transaction got (a `rejected` one after money moved only when the list shows it
 * paid); a status Paybis does not document fails the lookup (UnknownProviderStatusError).
 */
const progress = (tx: PaybisTransaction): Progress => progressOf(listedStatus(tx).status);

/**
 * The transaction a request's lookup reads among those the transaction list names it in (in list
 * order). Nothing documents one transaction per request, and anyone with the widget URL may start
 * another in it (a customer after a first one was cancelled, or someone else): the one that got
 * furthest (complete, then paid, then rejected after payment, then started, then ended unpaid or
 * rejected unpaid), the newest of those as far (src/providers/kit/progress.ts). Times equal: the
 * later entry of the list counts as newer.
 */
export function requestTransaction(matches: readonly PaybisTransaction[]): PaybisTransaction | undefined {
  const oldestFirst = matches
    .map((tx, index) => ({ tx, index }))
    .sort((a, b) => createdMs(a.tx) - createdMs(b.tx) || a.index - b.index)
    .map(({ tx }) => tx);
  return furthestTransaction(oldestFirst, progress, 'newest');
}
