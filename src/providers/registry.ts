import { currencyDictionary } from '../domain/currencies';
import type { Logger } from '../logging';
import type { ProviderDescriptor } from './descriptor';
import type { ProviderResolution } from './kit/config';
import { PROVIDERS, type ProviderResolutions } from './manifest';
import type { SharedValues } from './shared-values';
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
}

/**
 * The adapters this configuration enables, by code. `shared`
 * (Redis, when REDIS_URL is set) holds what the broker's processes must agree on, such as
 * Transak's access token.
 */
export function createProviderRegistry(config: ProvidersConfig, shared?: SharedValues): ProviderRegistry {
  const resolutions: Record<string, ProviderResolution<unknown>> = config.providers;
  const descriptors: readonly ProviderDescriptor[] = PROVIDERS;
  const adapters = descriptors.flatMap((provider) => {
    // Each resolution was made by the descriptor of its code, so its config is the one createAdapter takes.
    const resolution = resolutions[provider.info.code];
    return resolution === undefined || resolution.mode === 'disabled'
      ? []
      : [provider.createAdapter(resolution.config, { currencies: currencyDictionary, shared })];
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
