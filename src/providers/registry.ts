import type { AppConfig } from '../config';
import { createSandboxAdapter } from './sandbox';
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
  if (config.sandbox) adapters.push(createSandboxAdapter(config.sandbox));
  return new ProviderRegistry(adapters);
}
