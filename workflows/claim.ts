import type { ProviderOrderClaim } from '../src/temporal/shared';

/**
 * The reservation of one provider order for one broker order: its workflow id names the provider
 * order, so Temporal starts it once; it ends at once and its id stays taken while Temporal keeps
 * the closed workflow (the namespace's retention). src/orders/service.ts claims with it.
 */
export function providerOrderClaim(claim: ProviderOrderClaim): Promise<ProviderOrderClaim> {
  return Promise.resolve(claim);
}
