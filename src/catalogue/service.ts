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
   * A catalogue with a method left without its reference fee is fetched again after this long
   * (at most the TTL): one slow reference quote should not hide the method for a whole TTL.
   */
  incompleteRetryMs?: number;
  logger?: Logger;
  now?: () => number;
}

/** How soon a catalogue missing a method's fee is fetched again, unless the TTL is shorter. */
export const INCOMPLETE_CATALOGUE_RETRY_MS = 30_000;

interface Entry {
  catalogue?: ProviderCatalogue;
  fetchedAt: number;
  /** Served for this long from fetchedAt: the TTL, or the retry interval when a fee is missing. */
  freshForMs: number;
  refreshing?: Promise<ProviderCatalogue | undefined>;
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

  private async fetch(adapter: ProviderAdapter, previous?: ProviderCatalogue): Promise<ProviderCatalogue> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const catalogue = await adapter.getCatalogue(signal);
    return withReferenceFees(catalogue, (request) => adapter.getQuote(request, signal), {
      currencies: this.options.currencies,
      previous,
      onMissing: (method, err) =>
        this.options.logger?.warn(
          { provider: adapter.info.code, method, err: (err as Error).message },
          'no reference fee for payment method',
        ),
    });
  }

  private refresh(adapter: ProviderAdapter): Promise<ProviderCatalogue | undefined> {
    const code = adapter.info.code;
    const entry = this.entries.get(code) ?? { fetchedAt: 0, freshForMs: 0 };
    this.entries.set(code, entry);
    entry.refreshing ??= this.fetch(adapter, entry.catalogue)
      .then(
        (catalogue) => {
          entry.catalogue = catalogue;
          entry.fetchedAt = this.now();
          entry.freshForMs = catalogue.paymentMethods.every((m) => m.fee !== undefined)
            ? this.options.ttlMs
            : Math.min(this.options.ttlMs, this.options.incompleteRetryMs ?? INCOMPLETE_CATALOGUE_RETRY_MS);
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
