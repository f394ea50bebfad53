import type { AppConfig } from '../config';
import { currencyDictionary } from '../domain/currencies';
import { createSandboxAdapter, SANDBOX_PROVIDERS } from './sandbox';
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

/** The adapters this configuration enables. */
export function createProviderRegistry(config: AppConfig): ProviderRegistry {
  const adapters: ProviderAdapter[] = [];
  const sandbox = config.sandbox;
  if (sandbox) {
    for (const info of SANDBOX_PROVIDERS.filter((p) => sandbox.providers.includes(p.code))) {
      adapters.push(createSandboxAdapter(sandbox, info, currencyDictionary));
    }
  }
  return new ProviderRegistry(adapters);
}
