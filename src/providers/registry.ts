import { currencyDictionary } from '../domain/currencies';
import type { Logger } from '../logging';
import type { ProviderDescriptor } from './descriptor';
import type { ProviderResolution } from './kit/config';
import { labelledAdapter } from './kit/operation';
import { PROVIDERS, type ProviderResolutions } from './manifest';
import type { SharedValues } from './shared-values';
import { activeTracing } from '../tracing';
import type { ProviderAdapter } from './types';

export class ProviderRegistry {
  private readonly byCode: Map<string, ProviderAdapter>;

  constructor(adapters: readonly ProviderAdapter[]) {
    this.byCode = new Map(adapters.map((a) => [a.info.code, a]));
  }

  get(code: string): ProviderAdapter | undefined {
    return this.byCode.get(code);
  }

  all(): ProviderAdapter[] {
    return [...this.byCode.values()];
  }

  codes(): string[] {
    return [...this.byCode.keys()];
  }
}

/** What the registry reads of the broker's configuration (AppConfig). */
export interface ProvidersConfig {
  providers: ProviderResolutions;
  /** METRICS_ENABLED (AppConfig); absent: on. */
  metrics?: { enabled: boolean };
}

/**
 * Whether adapters label their HTTP calls (./kit/operation.ts): for the provider metrics, and for
 * the provider spans when tracing is on; with neither, the labels would go unread.
 */
export function labelsProviderCalls(config: Pick<ProvidersConfig, 'metrics'>): boolean {
  return config.metrics?.enabled !== false || activeTracing() !== undefined;
}

/**
 * The adapters this configuration enables, by code, each labelling its HTTP calls for the provider
 * metrics (./kit/operation.ts) unless nothing reads the labels (labelsProviderCalls). `shared`
 * (Redis, when REDIS_URL is set) holds what the broker's processes must agree on, such as
 * Transak's access token.
 */
export function createProviderRegistry(config: ProvidersConfig, shared?: SharedValues): ProviderRegistry {
  const resolutions: Record<string, ProviderResolution<unknown>> = config.providers;
  const descriptors: readonly ProviderDescriptor[] = PROVIDERS;
  const label = labelsProviderCalls(config) ? labelledAdapter : (adapter: ProviderAdapter) => adapter;
  const adapters = descriptors.flatMap((provider) => {
    // Each resolution was made by the descriptor of its code, so its config is the one createAdapter takes.
    const resolution = resolutions[provider.info.code];
    return resolution === undefined || resolution.mode === 'disabled'
      ? []
      : [label(provider.createAdapter(resolution.config, { currencies: currencyDictionary, shared }))];
  });
  return new ProviderRegistry(adapters.sort((a, b) => a.info.code.localeCompare(b.info.code)));
}

/** One start-up line per provider the configuration leaves out, naming it and the reason. */
export function logDisabledProviders(config: ProvidersConfig, logger: Logger): void {
  for (const [code, resolution] of Object.entries(config.providers)) {
    if (resolution.mode === 'disabled')
      logger.info({ provider: code, reason: resolution.reason }, `provider ${code} disabled: ${resolution.reason}`);
  }
}
