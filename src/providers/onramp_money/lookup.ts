import type { OnrampMoneyTransaction } from './schemas';
import { ONRAMP_MONEY_STATUS_MAP } from './status-map';

/** A transaction that ended without the customer's money: timed out (-1) or abandoned (-2). */
const endedUnpaid = (tx: OnrampMoneyTransaction) =>
  ONRAMP_MONEY_STATUS_MAP[String(tx.status) as keyof typeof ONRAMP_MONEY_STATUS_MAP] === 'expired';

/**
 * The order's transaction in merchantHistory pages (newest first). The widget URL can be gone
 * through again, so one merchantRecognitionId may name several transactions:
 * - with the provider order id the order pinned, that transaction and no other;
 * - without one, the newest that did not end unpaid (a transfer may be under way or done on it),
 *   else the newest.
 */
export async function findOrderTransaction(
  pages: AsyncIterable<readonly OnrampMoneyTransaction[]> | Iterable<readonly OnrampMoneyTransaction[]>,
  orderId: string,
  providerOrderId: string | undefined,
): Promise<OnrampMoneyTransaction | undefined> {
  let newestEnded: OnrampMoneyTransaction | undefined;
  for await (const page of pages) {
    for (const tx of page) {
      if (providerOrderId !== undefined) {
        if (String(tx.orderId) === providerOrderId) return tx;
      } else if (tx.merchantRecognitionId === orderId) {
        if (!endedUnpaid(tx)) return tx;
        newestEnded ??= tx;
      }
    }
  }
  return newestEnded;
}
