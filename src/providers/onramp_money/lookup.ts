import { furthestTransaction, progressOf, type Progress } from '../kit/progress';
import type { OnrampMoneyTransaction } from './schemas';
import { mapOnrampMoneyStatus } from './status-map';

/**
 * How far a transaction got. Its failures (-3 bank and KYC names differ, -4 another amount) come
 * after the customer's transfer: money moved. A code Onramp.money does not document fails the
 * lookup (UnknownProviderStatusError).
 */
const progress = (tx: OnrampMoneyTransaction): Progress => progressOf(mapOnrampMoneyStatus(tx.status).status);

/**
 * The order's transaction in merchantHistory pages (newest first). The widget URL is unsigned and
 * can be gone through again, by the customer or by anyone holding it, so one merchantRecognitionId
 * may name several transactions:
 * - with the provider order id the order pinned, that transaction and no other;
 * - without one, the one that got furthest (complete, then paid, then failed after the transfer,
 *   then started, then ended unpaid: src/providers/kit/progress.ts); among live ones as far, the
 *   oldest (the first the customer started), among ended ones, the newest.
 */
export async function findOrderTransaction(
  pages: AsyncIterable<readonly OnrampMoneyTransaction[]> | Iterable<readonly OnrampMoneyTransaction[]>,
  orderId: string,
  providerOrderId: string | undefined,
): Promise<OnrampMoneyTransaction | undefined> {
  const newestFirst: OnrampMoneyTransaction[] = [];
  for await (const page of pages) {
    for (const tx of page) {
      if (providerOrderId !== undefined) {
        if (String(tx.orderId) === providerOrderId) return tx;
      } else if (tx.merchantRecognitionId === orderId) {
        newestFirst.push(tx);
      }
    }
  }
  return furthestTransaction(newestFirst.reverse(), progress, 'oldest');
}
