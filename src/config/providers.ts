import type { ProviderDescriptor } from '../providers/descriptor';
import { PROVIDERS, type ProviderResolutions } from '../providers/manifest';
import type { SimulatorEndpoints } from '../providers/simulator-endpoints';
import type { ProvidersEnv } from './env';

/** Each provider's mode and settings; a provider's partial credentials throw a ConfigError naming the variable. */
export function resolveProviders(env: ProvidersEnv, at: Omit<SimulatorEndpoints, 'simulatorSecret'>): ProviderResolutions {
  const endpoints: SimulatorEndpoints = { ...at, simulatorSecret: env.SIMULATOR_SECRET };
  const descriptors: readonly ProviderDescriptor[] = PROVIDERS;
  // Each resolution comes from the descriptor of its code, so the entries have the types ProviderResolutions names.
  return Object.fromEntries(descriptors.map((provider) => [provider.info.code, provider.resolve(env, endpoints)])) as ProviderResolutions;
}
