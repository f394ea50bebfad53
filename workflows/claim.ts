import { proxyActivities, sleep } from '@temporalio/workflow';
import type { OrderActivities } from '../activities';
import { ORDER_RECORD_CHECK_MS, type OrderIdReservation, type ProviderOrderClaim } from '../src/temporal/order-contract';

const { orderRecordKept } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '1 minute',
  // Temporal unreachable from the worker is no answer: keep asking, the reservation waits.
  retry: { initialInterval: '10 seconds', maximumInterval: '1 hour' },
});

/**
 * The reservation of one provider order for one broker order: its workflow id names the provider
 * order, so Temporal starts it once (src/orders/service.ts claims with it). It stays open for
 * `holdForMs`, as long as any order could still accept the provider order (src/orders/claims.ts),
 * so the namespace's retention, which only deletes closed workflows, never frees it early.
 */
export async function providerOrderClaim(claim: ProviderOrderClaim): Promise<ProviderOrderClaim> {
  if (claim.holdForMs > 0) await sleep(claim.holdForMs);
  return claim;
}

/**
 * The reservation of one order id: its workflow id names the order id. While it is open, the API
 * refuses to start a new order under that id once the order's own workflow is gone
 * (src/orders/service.ts): providers look orders up by our id, and would hand the new order the old
 * one's purchase. It stays open while the order's record is kept (an order on hold may last
 * months), asking every `checkEveryMs`, and then `holdForMs` more, so the hold counts from the
 * order's deletion by retention, not from its request.
 */
export async function orderIdReservation(reservation: OrderIdReservation): Promise<void> {
  const checkEveryMs = reservation.checkEveryMs ?? ORDER_RECORD_CHECK_MS;
  do await sleep(checkEveryMs);
  while (await orderRecordKept({ orderId: reservation.orderId }));
  if (reservation.holdForMs > 0) await sleep(reservation.holdForMs);
}
