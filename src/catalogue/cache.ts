/**
 * Providers' catalogues of one kind (buy: ./service.ts; sell: ./sell-service.ts), cached per
 * provider: a stale catalogue is served while one refresh runs in the background; a provider whose
 * catalogue has never loaded is left out until it does. What a fetch is, and how long its catalogue
 * stays fresh, is the kind's.
 */
import type { Logger } from '../logging';
import type { ProviderRegistry } from '../providers/registry';
import type { ProviderAdapter } from '../providers/types';

export interface CachedCataloguesOptions {
  providers: ProviderRegistry;
  /** A catalogue younger than this is served as it is. */
  ttlMs: number;
  /** Deadline of one catalogue fetch. */
  timeoutMs: number;
  logger?: Logger;
  now?: () => number;
}

export interface CacheEntry<C> {
  catalogue?: C;
  fetchedAt: number;
  /** Served for this long from fetchedAt: the TTL, or less when the kind says so (a catalogue missing something a retry may get). */
  freshForMs: number;
  /** When every method's fee was last asked for: until a TTL has passed, a refresh asks only for those missing. */
  feesReadAt: number;
  /** The wait after the next fetch that still misses a fee for a transient reason (doubling; unset once none is). */
  retryMs?: number;
  refreshing?: Promise<C | undefined>;
}

export interface ProviderWith<C> {
  adapter: ProviderAdapter;
  catalogue: C;
}

export abstract class CachedCatalogues<C extends object> {
  private readonly entries = new Map<string, CacheEntry<C>>();
  protected readonly now: () => number;

  constructor(protected readonly cacheOptions: CachedCataloguesOptions) {
    this.now = cacheOptions.now ?? Date.now;
  }

  /** Whether the provider has a catalogue of this kind at all (every provider has a buy catalogue; only some sell). */
  protected abstract takesPart(adapter: ProviderAdapter): boolean;

  /** Fetches the catalogue; sets the entry's freshness fields (freshForMs, and what else the kind keeps) for the new one. */
  protected abstract fetch(
    adapter: ProviderAdapter,
    entry: CacheEntry<C>,
  ): Promise<{ catalogue: C; settle: (entry: CacheEntry<C>) => void }>;

  private adapterOf(code: string): ProviderAdapter | undefined {
    const adapter = this.cacheOptions.providers.get(code);
    return adapter && this.takesPart(adapter) ? adapter : undefined;
  }

  /** The catalogue of one provider, or undefined when it is unknown, takes no part, or has never answered. */
  async get(code: string): Promise<C | undefined> {
    const adapter = this.adapterOf(code);
    if (!adapter) return undefined;
    return this.cachedOf(adapter) ?? this.refresh(adapter);
  }

  /**
   * The provider's catalogue when one is cached, as `get` gives it (a stale one starts its refresh),
   * without a promise; undefined otherwise (then `get` loads it).
   */
  cached(code: string): C | undefined {
    const adapter = this.adapterOf(code);
    return adapter && this.cachedOf(adapter);
  }

  private cachedOf(adapter: ProviderAdapter): C | undefined {
    const entry = this.entries.get(adapter.info.code);
    if (!entry?.catalogue) return undefined;
    if (this.now() - entry.fetchedAt >= entry.freshForMs) void this.refresh(adapter);
    return entry.catalogue;
  }

  /** Every enabled provider taking part (or those named) whose catalogue is available. */
  async available(codes?: readonly string[]): Promise<ProviderWith<C>[]> {
    const adapters = this.cacheOptions.providers.all().filter((a) => this.takesPart(a) && (!codes || codes.includes(a.info.code)));
    const loaded = await Promise.all(
      adapters.map(async (adapter): Promise<{ adapter: ProviderAdapter; catalogue: C | undefined }> => ({
        adapter,
        catalogue: await this.get(adapter.info.code),
      })),
    );
    return loaded.filter((p): p is ProviderWith<C> => p.catalogue !== undefined);
  }

  /** Loads every catalogue once, e.g. at start-up. */
  async warm(): Promise<void> {
    await this.available();
  }

  private refresh(adapter: ProviderAdapter): Promise<C | undefined> {
    const code = adapter.info.code;
    const entry = this.entries.get(code) ?? { fetchedAt: 0, freshForMs: 0, feesReadAt: 0 };
    this.entries.set(code, entry);
    entry.refreshing ??= this.fetch(adapter, entry)
      .then(
        ({ catalogue, settle }) => {
          entry.catalogue = catalogue;
          entry.fetchedAt = this.now();
          settle(entry);
          return catalogue;
        },
        (err: unknown) => {
          this.cacheOptions.logger?.warn({ provider: code, err: (err as Error).message }, 'provider catalogue refresh failed');
          return entry.catalogue;
        },
      )
      .finally(() => {
        entry.refreshing = undefined;
      });
    return entry.refreshing;
  }
}
