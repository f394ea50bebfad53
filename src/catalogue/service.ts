import type { CurrencyDictionary } from '../domain/currency';
import type { Logger } from '../logging';
import type { ProviderRegistry } from '../providers/registry';
import type { ProviderAdapter, ProviderCatalogue } from '../providers/types';
import { withReferenceFees } from './reference-fees';

export interface CatalogueServiceOptions {
  providers: ProviderRegistry;
  /** The dictionary reference quotes are asked in (for methods whose provider publishes no fee). */
  currencies: CurrencyDictionary;
  /** A catalogue younger than this is served as it is. */
  ttlMs: number;
  /** Deadline of one catalogue fetch, reference quotes included. */
  timeoutMs: number;
  /**
   * A catalogue with a method left without its reference fee for a transient reason (a timeout, an
   * outage) is fetched again after this long, then after twice as long each time, up to the TTL:
   * one slow reference quote should not hide the method for a whole TTL.
   */
  incompleteRetryMs?: number;
  logger?: Logger;
  now?: () => number;
}

/** How soon a catalogue missing a method's fee for a transient reason is first fetched again, unless the TTL is shorter. */
export const INCOMPLETE_CATALOGUE_RETRY_MS = 30_000;

interface Entry {
  catalogue?: ProviderCatalogue;
  fetchedAt: number;
  /** Served for this long from fetchedAt: the TTL, or the retry wait when a fee is missing for a transient reason. */
  freshForMs: number;
  /** When every method's fee was last asked for: until a TTL has passed, a refresh asks only for those missing. */
  feesReadAt: number;
  /** The wait after the next fetch that still misses a fee for a transient reason (doubling; unset once none is). */
  retryMs?: number;
  refreshing?: Promise<ProviderCatalogue | undefined>;
}

/** A fetched catalogue, and whether a method in it misses its fee for a reason a retry may get past (a timeout, an outage). */
interface Fetched {
  catalogue: ProviderCatalogue;
  transientMiss: boolean;
  /** Every method's fee was asked for (not only the missing ones'). */
  allFeesRead: boolean;
}

export interface ProviderWithCatalogue {
  adapter: ProviderAdapter;
  catalogue: ProviderCatalogue;
}

/**
 * Providers' catalogues, cached per provider. A stale catalogue is served while one refresh runs
 * in the background; a provider whose catalogue has never loaded is left out until it does.
 */
export class CatalogueService {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(private readonly options: CatalogueServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The catalogue of one provider, or undefined when it is unknown or has never answered. */
  async get(code: string): Promise<ProviderCatalogue | undefined> {
    const adapter = this.options.providers.get(code);
    if (!adapter) return undefined;
    return this.cachedOf(adapter) ?? this.refresh(adapter);
  }

  /**
   * The provider's catalogue when one is cached, as `get` gives it (a stale one starts its refresh),
   * without a promise; undefined otherwise (then `get` loads it).
   */
  cached(code: string): ProviderCatalogue | undefined {
    const adapter = this.options.providers.get(code);
    return adapter && this.cachedOf(adapter);
  }

  private cachedOf(adapter: ProviderAdapter): ProviderCatalogue | undefined {
    const entry = this.entries.get(adapter.info.code);
    if (!entry?.catalogue) return undefined;
    if (this.now() - entry.fetchedAt >= entry.freshForMs) void this.refresh(adapter);
    return entry.catalogue;
  }

  /** Every enabled provider (or those named) whose catalogue is available. */
  async available(codes?: readonly string[]): Promise<ProviderWithCatalogue[]> {
    const adapters = this.options.providers.all().filter((a) => !codes || codes.includes(a.info.code));
    const loaded = await Promise.all(adapters.map(async (adapter) => ({ adapter, catalogue: await this.get(adapter.info.code) })));
    return loaded.filter((p): p is ProviderWithCatalogue => p.catalogue !== undefined);
  }

  /** Loads every catalogue once, e.g. at start-up. */
  async warm(): Promise<void> {
    await this.available();
  }

  /**
   * The catalogue, each method's fee read. A fetch within a TTL of the last full read (an early
   * retry) asks only for the fees still missing and keeps the others; it logs only the misses worth
   * retrying, so that a fee that cannot load is logged once per TTL, not at every retry.
   */
  private async fetch(adapter: ProviderAdapter, entry: Entry): Promise<Fetched> {
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
    return { catalogue, transientMiss, allFeesRead };
  }

  private refresh(adapter: ProviderAdapter): Promise<ProviderCatalogue | undefined> {
    const code = adapter.info.code;
    const entry = this.entries.get(code) ?? { fetchedAt: 0, freshForMs: 0, feesReadAt: 0 };
    this.entries.set(code, entry);
    entry.refreshing ??= this.fetch(adapter, entry)
      .then(
        ({ catalogue, transientMiss, allFeesRead }) => {
          const { ttlMs } = this.options;
          entry.catalogue = catalogue;
          entry.fetchedAt = this.now();
          if (allFeesRead) entry.feesReadAt = entry.fetchedAt;
          // A miss that cannot load (nothing to ask, every currency refused) waits for the TTL like a complete catalogue.
          entry.freshForMs = transientMiss
            ? Math.min(ttlMs, entry.retryMs ?? this.options.incompleteRetryMs ?? INCOMPLETE_CATALOGUE_RETRY_MS)
            : ttlMs;
          entry.retryMs = transientMiss ? Math.min(ttlMs, entry.freshForMs * 2) : undefined;
          return catalogue;
        },
        (err: unknown) => {
          this.options.logger?.warn({ provider: code, err: (err as Error).message }, 'provider catalogue refresh failed');
          return entry.catalogue;
        },
      )
      .finally(() => {
        entry.refreshing = undefined;
      });
    return entry.refreshing;
  }
}
