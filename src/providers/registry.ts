import type { AppConfig, ProviderResolution } from '../config';
import type { CurrencyDictionary } from '../domain/currency';
import { currencyDictionary } from '../domain/currencies';
import type { Logger } from '../logging';
import { createBanxaAdapter } from './banxa';
import { createMercuryoAdapter } from './mercuryo';
import { createMoonpayAdapter } from './moonpay';
import { createRampAdapter } from './ramp';
import { createSandboxAdapter, SANDBOX_INFO } from './sandbox';
import type { SharedValues } from './shared-values';
import { createTransakAdapter } from './transak';
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

function enabled<C>(
  resolution: ProviderResolution<C>,
  create: (config: C, currencies: CurrencyDictionary) => ProviderAdapter,
): ProviderAdapter[] {
  return resolution.mode === 'disabled' ? [] : [create(resolution.config, currencyDictionary)];
}

/**
 * The adapters this configuration enables. `shared` (Redis, when REDIS_URL is set) holds what the
 * broker's processes must agree on, such as Transak's access token.
 */
export function createProviderRegistry(config: AppConfig, shared?: SharedValues): ProviderRegistry {
  const { banxa, mercuryo, moonpay, ramp, sandbox, transak } = config.providers;
  return new ProviderRegistry([
    ...enabled(banxa, createBanxaAdapter),
    ...enabled(mercuryo, createMercuryoAdapter),
    ...enabled(moonpay, createMoonpayAdapter),
    ...enabled(ramp, createRampAdapter),
    ...enabled(sandbox, (sandboxConfig, currencies) => createSandboxAdapter(sandboxConfig, SANDBOX_INFO, currencies)),
    ...enabled(transak, (transakConfig, currencies) => createTransakAdapter(transakConfig, currencies, shared)),
  ]);
}

/** One start-up line per provider the configuration leaves out, naming it and the reason. */
export function logDisabledProviders(config: AppConfig, logger: Logger): void {
  for (const [code, resolution] of Object.entries(config.providers)) {
    if (resolution.mode === 'disabled')
      logger.info({ provider: code, reason: resolution.reason }, `provider ${code} disabled: ${resolution.reason}`);
  }
}
