import type { CurrencyDictionary } from '../domain/currency';
import type { ProviderAdapter, ProviderCatalogue } from '../providers/types';
import { CachedCatalogues, type CachedCataloguesOptions, type CacheEntry, type ProviderWith } from './cache';
import { withReferenceFees } from './reference-fees';

export interface CatalogueServiceOptions extends CachedCataloguesOptions {
  /** The dictionary reference quotes are asked in (for methods whose provider publishes no fee). */
  currencies: CurrencyDictionary;
  /** Deadline of one catalogue fetch, reference quotes included. */
  timeoutMs: number;
  /**
   * A catalogue with a method left without its reference fee for a transient reason (a timeout, an
   * outage) is fetched again after this long, then after twice as long each time, up to the TTL:
   * one slow reference quote should not hide the method for a whole TTL.
   */
  incompleteRetryMs?: number;
}

/** How soon a catalogue missing a method's fee for a transient reason is first fetched again, unless the TTL is shorter. */
export const INCOMPLETE_CATALOGUE_RETRY_MS = 30_000;

export type ProviderWithCatalogue = ProviderWith<ProviderCatalogue>;

/**
 * Providers' (buy) catalogues, cached per provider (./cache.ts). A stale catalogue is served while
 * one refresh runs in the background; a provider whose catalogue has never loaded is left out until
 * it does.
 */
export class CatalogueService extends CachedCatalogues<ProviderCatalogue> {
  constructor(private readonly options: CatalogueServiceOptions) {
    super(options);
  }

  protected takesPart(): boolean {
    return true;
  }

  /**
   * The catalogue, each method's fee read. A fetch within a TTL of the last full read (an early
   * retry) asks only for the fees still missing and keeps the others; it logs only the misses worth
   * retrying, so that a fee that cannot load is logged once per TTL, not at every retry. A miss that
   * cannot load (nothing to ask, every currency refused) waits for the TTL like a complete
   * catalogue; one worth retrying is fetched again sooner (INCOMPLETE_CATALOGUE_RETRY_MS, doubling).
   */
  protected async fetch(adapter: ProviderAdapter, entry: CacheEntry<ProviderCatalogue>) {
    const previous = entry.catalogue;
    const allFeesRead = previous === undefined || this.now() - entry.feesReadAt >= this.options.ttlMs;
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const fetched = await adapter.getCatalogue(signal);
    let transientMiss = false;
    const catalogue = await withReferenceFees(fetched, (request) => adapter.getQuote(request, signal), {
      currencies: this.options.currencies,
      previous,
      keepPrevious: !allFeesRead,
      onMissing: (method, err, transient) => {
        transientMiss ||= transient;
        if (!transient && !allFeesRead) return;
        this.options.logger?.warn(
          { provider: adapter.info.code, method, err: (err as Error).message },
          'no reference fee for payment method',
        );
      },
    });
    const settle = (done: CacheEntry<ProviderCatalogue>) => {
      const { ttlMs } = this.options;
      if (allFeesRead) done.feesReadAt = done.fetchedAt;
      done.freshForMs = transientMiss
        ? Math.min(ttlMs, done.retryMs ?? this.options.incompleteRetryMs ?? INCOMPLETE_CATALOGUE_RETRY_MS)
        : ttlMs;
      done.retryMs = transientMiss ? Math.min(ttlMs, done.freshForMs * 2) : undefined;
    };
    return { catalogue, settle };
  }
}
