import { z } from 'zod';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { trimSlash } from '../kit/url';
import { deriveSimulatorValue } from '../kit/simulator-secret';
import type { SimulatorEndpoints } from '../simulator-endpoints';

const unsetIfBlank = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** Banxa's environment variables. All optional: without them the broker uses the local simulator, or leaves Banxa out. */
export const BanxaEnvSchema = z.object({
  /** Hosted Checkout API key (sent as `x-api-key`); Banxa also puts it in the webhook's Authorization header. */
  BANXA_API_KEY: unsetIfBlank,
  /** API secret: Banxa signs its webhooks to the partner with it (HMAC-SHA256). */
  BANXA_API_SECRET: unsetIfBlank,
  /**
   * The partner's API base, partner reference included: https://api.banxa.com/<partnerRef> in production,
   * https://api.banxa-sandbox.com/<partnerRef> in Banxa's sandbox. Required with the credentials.
   */
  BANXA_BASE_URL: unsetIfBlank,
});
export type BanxaEnv = z.infer<typeof BanxaEnvSchema>;

export interface BanxaCredentials {
  apiKey: string;
  apiSecret: string;
}

export interface BanxaConfig extends BanxaCredentials {
  /** The partner's API base without a trailing slash; `/v2/...` paths are appended to it. */
  baseUrl: string;
  /** The broker's public base URL: the default return URL for customers, and the base of the webhook URL. */
  brokerPublicUrl: string;
  /** Path of the broker's webhook URL, which Banxa puts in the signed string of each webhook. */
  webhookPath: string;
}

/** Fixed development credentials; the local Banxa simulator accepts exactly these when there is no SIMULATOR_SECRET. */
export const BANXA_SIMULATOR_CREDENTIALS: BanxaCredentials = {
  apiKey: 'banxa_sim_api_key_0000000000000000',
  apiSecret: 'banxa_sim_api_secret_00000000000000',
};

/** What the simulator and the broker share: derived from SIMULATOR_SECRET, or the fixed development credentials without it. */
export function banxaSimulatorCredentials(secret: string | undefined): BanxaCredentials {
  if (secret === undefined) return BANXA_SIMULATOR_CREDENTIALS;
  return { apiKey: deriveSimulatorValue(secret, 'banxa', 'api-key'), apiSecret: deriveSimulatorValue(secret, 'banxa', 'api-secret') };
}

export const BANXA_WEBHOOK_ROUTE = '/api/webhooks/banxa';

const VARIABLES = ['BANXA_API_KEY', 'BANXA_API_SECRET', 'BANXA_BASE_URL'] as const;

function brokerUrls(brokerPublicUrl: string): Pick<BanxaConfig, 'brokerPublicUrl' | 'webhookPath'> {
  const base = trimSlash(brokerPublicUrl);
  return { brokerPublicUrl: base, webhookPath: new URL(`${base}${BANXA_WEBHOOK_ROUTE}`).pathname };
}

/**
 * Live when the key, the secret and the partner base URL are all set; the simulator under
 * `<simulatorUrl>/banxa` when none is set and a simulator runs; disabled otherwise.
 * Setting only some of the three is a configuration error naming the missing ones.
 */
export function banxaConfig(env: BanxaEnv, options: SimulatorEndpoints): ProviderResolution<BanxaConfig> {
  const missing = VARIABLES.filter((name) => env[name] === undefined);
  if (missing.length === 0) {
    const baseUrl = env.BANXA_BASE_URL as string;
    if (!z.url({ protocol: /^https?$/ }).safeParse(baseUrl).success) {
      throw new ConfigError(['BANXA_BASE_URL: expected an http(s) URL such as https://api.banxa.com/<partnerRef>']);
    }
    return {
      mode: 'live',
      config: {
        apiKey: env.BANXA_API_KEY as string,
        apiSecret: env.BANXA_API_SECRET as string,
        baseUrl: trimSlash(baseUrl),
        ...brokerUrls(options.brokerPublicUrl),
      },
    };
  }
  if (missing.length < VARIABLES.length) {
    const set = VARIABLES.filter((name) => !missing.includes(name)).join(', ');
    throw new ConfigError(missing.map((name) => `${name}: required when ${set} is set`));
  }
  if (options.simulatorUrl === undefined) {
    return { mode: 'disabled', reason: 'BANXA_API_KEY, BANXA_API_SECRET and BANXA_BASE_URL are not set and no simulator runs' };
  }
  return {
    mode: 'simulator',
    config: {
      ...banxaSimulatorCredentials(options.simulatorSecret),
      baseUrl: `${trimSlash(options.simulatorUrl)}/banxa`,
      ...brokerUrls(options.brokerPublicUrl),
    },
  };
}
