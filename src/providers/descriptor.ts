import type { z } from 'zod';
import type { CurrencyDictionary } from '../domain/currency';
import type { ProviderResolution } from './kit/config';
import type { SharedValues } from './shared-values';
import type { SimulatorEndpoints } from './simulator-endpoints';
import type { ProviderAdapter, ProviderInfo } from './types';

/** What an adapter is built with besides its own configuration. */
export interface AdapterDeps {
  currencies: CurrencyDictionary;
  /** What the broker's processes must agree on (Redis when REDIS_URL is set), such as Transak's access token. */
  shared?: SharedValues;
}

/**
 * Everything the broker needs of one provider, exported by its folder's index.ts and listed once in
 * src/providers/manifest.ts. Methods rather than function properties, so that a descriptor with its
 * own configuration type is still a `ProviderDescriptor` where the manifest is iterated.
 */
export interface ProviderDescriptor<Code extends string = string, Shape extends z.ZodRawShape = z.ZodRawShape, Config = unknown> {
  readonly info: ProviderInfo & { readonly code: Code };
  /** Its environment variables, all optional: without credentials it runs against its simulator, or not at all. */
  readonly env: z.ZodObject<Shape>;
  /** How it runs with these variables; partial credentials throw a ConfigError naming the variables. */
  resolve(env: z.infer<z.ZodObject<Shape>>, endpoints: SimulatorEndpoints): ProviderResolution<Config>;
  createAdapter(config: Config, deps: AdapterDeps): ProviderAdapter;
  /** Its simulator's fixed development credentials, published in this repository: refused as secrets in production. */
  readonly publishedValues: readonly string[];
}

/** A descriptor with its code, variables and configuration type inferred. */
export function defineProvider<const Code extends string, Shape extends z.ZodRawShape, Config>(
  descriptor: ProviderDescriptor<Code, Shape, Config>,
): ProviderDescriptor<Code, Shape, Config> {
  return descriptor;
}
