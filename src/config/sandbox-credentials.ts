import { deriveSimulatorValue } from './simulator-secret';

export const DEV_SANDBOX_API_KEY = 'sk_sandbox_dev_key';
export const DEV_SANDBOX_WEBHOOK_SECRET = 'sandbox_dev_webhook_secret';

export interface SandboxCredentials {
  apiKey: string;
  webhookSecret: string;
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
