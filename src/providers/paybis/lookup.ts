import type { PaybisTransaction } from './schemas';

/** Statuses in which a transaction ended before any payment: cancelled, or the payment declined. */
const ENDED_UNPAID = new Set(['cancelled', 'payment-error', 'payment_error']);

const createdMs = (tx: PaybisTransaction) => {
  const ms = Date.parse(tx.createdAt);
  return Number.isFinite(ms) ? ms : -Infinity;
};

/**
 * The transaction a request's lookup reads among those the transaction list names it in (in list
 * order). Nothing documents one transaction per request, and a customer may start another in the
 * widget after a first one was cancelled: the newest that did not end unpaid (money may have moved
 * on it), else the newest. A later entry of the list counts as newer when the times are equal.
 */
export function requestTransaction(matches: readonly PaybisTransaction[]): PaybisTransaction | undefined {
  const newest = (txs: readonly PaybisTransaction[]) =>
    txs.reduce<PaybisTransaction | undefined>(
      (best, tx) => (best === undefined || createdMs(tx) >= createdMs(best) ? tx : best),
      undefined,
    );
  return newest(matches.filter((tx) => !ENDED_UNPAID.has(tx.status))) ?? newest(matches);
}
