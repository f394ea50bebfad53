import type { SimulatorEndpoints } from '../simulator-endpoints';
import { z } from 'zod';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { trimSlash } from '../kit/url';
import { deriveSimulatorValue } from '../kit/simulator-secret';

const optional = z.string().trim().optional();

/** Alchemy Pay's environment variables; all optional: without credentials the simulator (or nothing) is used. */
export const AlchemypayEnvSchema = z.object({
  /** `appId` issued by Alchemy Pay's operations team: the `appid` header and the ramp URL's `appId`. */
  ALCHEMYPAY_APP_ID: optional,
  /** `appSecret`: keys every HMAC-SHA256 `sign` (API calls, ramp URL) and the webhooks' `newSignature`. */
  ALCHEMYPAY_APP_SECRET: optional,
  /** Open API base URL; https://openapi.alchemypay.org when unset (test: https://openapi-test.alchemypay.org). */
  ALCHEMYPAY_API_URL: optional,
  /** Ramp page base URL; https://ramp.alchemypay.org when unset (test: https://ramptest.alchemypay.org). */
  ALCHEMYPAY_RAMP_URL: optional,
});
export type AlchemypayEnv = z.infer<typeof AlchemypayEnvSchema>;

export interface AlchemypayCredentials {
  appId: string;
  appSecret: string;
}

export interface AlchemypayConfig extends AlchemypayCredentials {
  /** Open API base, without a trailing slash. */
  apiUrl: string;
  /** Ramp page base; the signed query string is appended to it. */
  rampUrl: string;
  /** The broker's public base URL: the ramp URL's `callbackUrl` is <brokerPublicUrl>/api/webhooks/alchemypay. */
  brokerPublicUrl: string;
}

/** Fixed development credentials: the local simulator accepts exactly these when there is no SIMULATOR_SECRET. */
export const ALCHEMYPAY_SIMULATOR_CREDENTIALS: AlchemypayCredentials = {
  appId: 'alchemypay-simulator-app',
  appSecret: 'alchemypay-simulator-app-secret',
};

/** What the simulator and the broker share: the secret derived from SIMULATOR_SECRET; the app id is no secret. */
export function alchemypaySimulatorCredentials(secret: string | undefined): AlchemypayCredentials {
  if (secret === undefined) return ALCHEMYPAY_SIMULATOR_CREDENTIALS;
  return {
    appId: ALCHEMYPAY_SIMULATOR_CREDENTIALS.appId,
    appSecret: deriveSimulatorValue(secret, 'alchemypay', 'app-secret'),
  };
}

const ALCHEMYPAY_API_URL = 'https://openapi.alchemypay.org';
const ALCHEMYPAY_RAMP_URL = 'https://ramp.alchemypay.org';

const CREDENTIAL_VARIABLES = ['ALCHEMYPAY_APP_ID', 'ALCHEMYPAY_APP_SECRET'] as const;
const URL_VARIABLES = ['ALCHEMYPAY_API_URL', 'ALCHEMYPAY_RAMP_URL'] as const;

function checkUrl(variable: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!z.url({ protocol: /^https?$/ }).safeParse(value).success) throw new ConfigError([`${variable}: expected an http(s) URL`]);
  return trimSlash(value);
}

/**
 * Live with credentials (Alchemy Pay's production hosts, or the override URLs for its test
 * hosts), the local simulator without them when one runs, disabled otherwise. Some credentials
 * without the others is a configuration error.
 */
export function alchemypayConfig(env: AlchemypayEnv, options: SimulatorEndpoints): ProviderResolution<AlchemypayConfig> {
  const value = (name: keyof AlchemypayEnv) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const present = CREDENTIAL_VARIABLES.filter((name) => value(name) !== undefined);
  const brokerPublicUrl = trimSlash(options.brokerPublicUrl);

  if (present.length === 0) {
    const strayUrls = URL_VARIABLES.filter((name) => value(name) !== undefined);
    if (strayUrls.length > 0) {
      throw new ConfigError(strayUrls.map((name) => `${name}: set without Alchemy Pay credentials (${CREDENTIAL_VARIABLES.join(', ')})`));
    }
    if (options.simulatorUrl === undefined) return { mode: 'disabled', reason: 'no Alchemy Pay credentials and no simulator' };
    const base = `${trimSlash(options.simulatorUrl)}/alchemypay`;
    const rampBase = `${trimSlash(options.simulatorPublicUrl ?? options.simulatorUrl)}/alchemypay`;
    return {
      mode: 'simulator',
      config: { ...alchemypaySimulatorCredentials(options.simulatorSecret), apiUrl: base, rampUrl: `${rampBase}/ramp`, brokerPublicUrl },
    };
  }

  const missing = CREDENTIAL_VARIABLES.filter((name) => value(name) === undefined);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((name) => `${name}: required when ${present.join(', ')} ${present.length === 1 ? 'is' : 'are'} set`));
  }
  return {
    mode: 'live',
    config: {
      appId: value('ALCHEMYPAY_APP_ID')!,
      appSecret: value('ALCHEMYPAY_APP_SECRET')!,
      apiUrl: checkUrl('ALCHEMYPAY_API_URL', value('ALCHEMYPAY_API_URL')) ?? ALCHEMYPAY_API_URL,
      rampUrl: checkUrl('ALCHEMYPAY_RAMP_URL', value('ALCHEMYPAY_RAMP_URL')) ?? ALCHEMYPAY_RAMP_URL,
      brokerPublicUrl,
    },
  };
}
