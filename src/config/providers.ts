import { banxaConfig } from '../providers/banxa';
import { mercuryoConfig } from '../providers/mercuryo';
import { moonpayConfig } from '../providers/moonpay';
import { rampConfig } from '../providers/ramp';
import { transakConfig } from '../providers/transak';
import type { SimulatorEndpoints } from '../providers/simulator-endpoints';
import type { ProvidersEnv } from './env';
import { sandboxCredentials, type SandboxCredentials } from './sandbox-credentials';

export interface SandboxProviderConfig extends SandboxCredentials {
  /** The simulator host; the sandbox provider lives under /sandbox. */
  baseUrl: string;
}

/** How one provider runs: against its real API (live), against the simulator host, or not at all. */
export type ProviderResolution<C> = { mode: 'live' | 'simulator'; config: C } | { mode: 'disabled'; reason: string };

// A type alias, not an interface, so that Object.entries sees the resolutions' own types.
export type ProviderResolutions = {
  sandbox: ProviderResolution<SandboxProviderConfig>;
  banxa: ReturnType<typeof banxaConfig>;
  mercuryo: ReturnType<typeof mercuryoConfig>;
  moonpay: ReturnType<typeof moonpayConfig>;
  ramp: ReturnType<typeof rampConfig>;
  transak: ReturnType<typeof transakConfig>;
};

function sandboxResolution(env: ProvidersEnv, simulatorUrl: string | undefined): ProviderResolution<SandboxProviderConfig> {
  if (!env.SANDBOX_ENABLED) return { mode: 'disabled', reason: 'SANDBOX_ENABLED is false' };
  if (simulatorUrl === undefined) return { mode: 'disabled', reason: 'no simulator host (SANDBOX_URL is not set)' };
  return { mode: 'simulator', config: { baseUrl: simulatorUrl, ...sandboxCredentials(env) } };
}

/** Each provider's mode and settings; a provider's partial credentials throw a ConfigError naming the variable. */
export function resolveProviders(env: ProvidersEnv, at: Omit<SimulatorEndpoints, 'simulatorSecret'>): ProviderResolutions {
  const endpoints: SimulatorEndpoints = { ...at, simulatorSecret: env.SIMULATOR_SECRET };
  return {
    sandbox: sandboxResolution(env, endpoints.simulatorUrl),
    banxa: banxaConfig(env, endpoints),
    mercuryo: mercuryoConfig(env, endpoints),
    moonpay: moonpayConfig(env, endpoints),
    ramp: rampConfig(env, endpoints),
    transak: transakConfig(env, endpoints),
  };
}
