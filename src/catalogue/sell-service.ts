import type { ProviderAdapter } from '../providers/types';
import type { SellCatalogue } from '../providers/sell-types';
import { CachedCatalogues, type CacheEntry, type ProviderWith } from './cache';

export type ProviderWithSellCatalogue = ProviderWith<SellCatalogue>;

/**
 * Providers' sell (off-ramp) catalogues, cached per provider as the buy ones are (./cache.ts): only
 * providers with a sell adapter (ProviderAdapter.sell) take part. A sell catalogue publishes its
 * payout methods' fees itself: there are no reference quotes to retry, so each is fresh for the TTL.
 */
export class SellCatalogueService extends CachedCatalogues<SellCatalogue> {
  protected takesPart(adapter: ProviderAdapter): boolean {
    return adapter.sell !== undefined;
  }

  protected async fetch(adapter: ProviderAdapter) {
    const catalogue = await adapter.sell!.getCatalogue(AbortSignal.timeout(this.cacheOptions.timeoutMs));
    return {
      catalogue,
      settle: (entry: CacheEntry<SellCatalogue>) => {
        entry.freshForMs = this.cacheOptions.ttlMs;
      },
    };
  }
}
