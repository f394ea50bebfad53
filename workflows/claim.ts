import { sleep } from '@temporalio/workflow';
import type { ProviderOrderClaim } from '../src/temporal/order-contract';

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
