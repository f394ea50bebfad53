import { sleep } from '@temporalio/workflow';
import type { OrderIdReservation, ProviderOrderClaim } from '../src/temporal/order-contract';

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
 * The reservation of one order id: its workflow id names the order id, and it stays open for
 * `holdForMs`, long after the namespace's retention has deleted the order's own closed workflow.
 * While it is open, the API refuses to start a new order under that id (src/orders/service.ts):
 * providers look orders up by our id, and would hand the new order the old one's purchase.
 */
export async function orderIdReservation(reservation: OrderIdReservation): Promise<void> {
  if (reservation.holdForMs > 0) await sleep(reservation.holdForMs);
}
