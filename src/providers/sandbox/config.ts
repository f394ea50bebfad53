import { z } from 'zod';
import type { ProviderResolution } from '../kit/config';
import { deriveSimulatorValue } from '../kit/simulator-secret';
import type { SimulatorEndpoints } from '../simulator-endpoints';

export const DEV_SANDBOX_API_KEY = 'sk_sandbox_dev_key';
export const DEV_SANDBOX_WEBHOOK_SECRET = 'sandbox_dev_webhook_secret';

const optionalString = z.string().trim().optional();

/** The generic sandbox provider's environment variables. */
export const SandboxEnvSchema = z.object({
  SANDBOX_API_KEY: optionalString,
  SANDBOX_WEBHOOK_SECRET: optionalString,
  /** The generic `sandbox` provider runs wherever there is a simulator host; `false` leaves it out. */
  SANDBOX_ENABLED: z.stringbool().default(true),
});
export type SandboxEnv = z.infer<typeof SandboxEnvSchema>;

export interface SandboxCredentials {
  apiKey: string;
  webhookSecret: string;
}

export interface SandboxProviderConfig extends SandboxCredentials {
  /** The simulator host; the sandbox provider lives under /sandbox. */
  baseUrl: string;
}

/**
 * The generic sandbox provider's credentials, the same for the broker and the simulator host:
 * SANDBOX_API_KEY and SANDBOX_WEBHOOK_SECRET when set, else derived from SIMULATOR_SECRET, else the
 * development values.
 */
export function sandboxCredentials(env: {
  SANDBOX_API_KEY?: string;
  SANDBOX_WEBHOOK_SECRET?: string;
  SIMULATOR_SECRET?: string;
}): SandboxCredentials {
  const secret = env.SIMULATOR_SECRET;
  return {
    apiKey: env.SANDBOX_API_KEY ?? (secret === undefined ? DEV_SANDBOX_API_KEY : deriveSimulatorValue(secret, 'sandbox', 'api-key')),
    webhookSecret:
      env.SANDBOX_WEBHOOK_SECRET ??
      (secret === undefined ? DEV_SANDBOX_WEBHOOK_SECRET : deriveSimulatorValue(secret, 'sandbox', 'webhook-secret')),
  };
}

/** The sandbox runs on the simulator host unless SANDBOX_ENABLED is false; there is nothing live to run against. */
export function sandboxConfig(env: SandboxEnv, endpoints: SimulatorEndpoints): ProviderResolution<SandboxProviderConfig> {
  if (!env.SANDBOX_ENABLED) return { mode: 'disabled', reason: 'SANDBOX_ENABLED is false' };
  if (endpoints.simulatorUrl === undefined) return { mode: 'disabled', reason: 'no simulator host (SANDBOX_URL is not set)' };
  return {
    mode: 'simulator',
    config: { baseUrl: endpoints.simulatorUrl, ...sandboxCredentials({ ...env, SIMULATOR_SECRET: endpoints.simulatorSecret }) },
  };
}
