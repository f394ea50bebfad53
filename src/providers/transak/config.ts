import { z } from 'zod';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { trimSlash } from '../kit/url';
import { deriveSimulatorValue } from '../kit/simulator-secret';
import type { SimulatorEndpoints } from '../simulator-endpoints';

/** Transak's production hosts (docs.transak.com, "Environments"). */
export const TRANSAK_API_URL = 'https://api.transak.com';
export const TRANSAK_GATEWAY_URL = 'https://api-gateway.transak.com';

const optionalString = z.string().trim().optional();
const optionalUrl = optionalString.pipe(z.url().optional());

/** Transak's environment variables; all optional (no credentials: the simulator, or disabled). */
export const TransakEnvSchema = z.object({
  TRANSAK_API_KEY: optionalString,
  TRANSAK_API_SECRET: optionalString,
  /** Partner API host; `https://api-stg.transak.com` for staging. */
  TRANSAK_API_URL: optionalUrl,
  /** API gateway host (widget sessions); `https://api-gateway-stg.transak.com` for staging. */
  TRANSAK_GATEWAY_URL: optionalUrl,
  /** The `referrerDomain` widget parameter; the host of the broker's public URL when unset. */
  TRANSAK_REFERRER_DOMAIN: optionalString,
});
export type TransakEnv = z.infer<typeof TransakEnvSchema>;

export interface TransakConfig {
  /** Partner API: access tokens, orders, quotes, currency and country lists. */
  apiUrl: string;
  /** API gateway: widget sessions (`POST /api/v2/auth/session`). */
  gatewayUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Sent as `widgetParams.referrerDomain`; Transak checks it against the partner's domains. */
  referrerDomain: string;
  /** The broker's public base URL. */
  brokerPublicUrl: string;
}

/** Fixed development credentials the local Transak simulator accepts when there is no SIMULATOR_SECRET. */
export const TRANSAK_SIMULATOR_CREDENTIALS = {
  apiKey: 'transak-sim-api-key-0000',
  apiSecret: 'transak-sim-api-secret-0000',
} as const;
export type TransakSimulatorCredentials = { apiKey: string; apiSecret: string };

/** What the simulator and the broker share: the API secret derived from SIMULATOR_SECRET; the API key is public anyway. */
export function transakSimulatorCredentials(secret: string | undefined): TransakSimulatorCredentials {
  if (secret === undefined) return TRANSAK_SIMULATOR_CREDENTIALS;
  return { apiKey: TRANSAK_SIMULATOR_CREDENTIALS.apiKey, apiSecret: deriveSimulatorValue(secret, 'transak', 'api-secret') };
}

/**
 * Live with credentials (Transak's hosts or the overrides), the local simulator without them when
 * one is running, disabled otherwise. One credential without the other is a configuration error.
 */
export function transakConfig(env: TransakEnv, options: SimulatorEndpoints): ProviderResolution<TransakConfig> {
  const apiKey = env.TRANSAK_API_KEY || undefined;
  const apiSecret = env.TRANSAK_API_SECRET || undefined;
  if ((apiKey === undefined) !== (apiSecret === undefined)) {
    const [missing, present] = apiKey === undefined ? ['TRANSAK_API_KEY', 'TRANSAK_API_SECRET'] : ['TRANSAK_API_SECRET', 'TRANSAK_API_KEY'];
    throw new ConfigError([`${missing}: required when ${present} is set`]);
  }
  const brokerPublicUrl = trimSlash(options.brokerPublicUrl);
  const referrerDomain = env.TRANSAK_REFERRER_DOMAIN || new URL(brokerPublicUrl).hostname;
  if (apiKey !== undefined && apiSecret !== undefined) {
    return {
      mode: 'live',
      config: {
        apiUrl: trimSlash(env.TRANSAK_API_URL ?? TRANSAK_API_URL),
        gatewayUrl: trimSlash(env.TRANSAK_GATEWAY_URL ?? TRANSAK_GATEWAY_URL),
        apiKey,
        apiSecret,
        referrerDomain,
        brokerPublicUrl,
      },
    };
  }
  if (options.simulatorUrl !== undefined) {
    const base = `${trimSlash(options.simulatorUrl)}/transak`;
    return {
      mode: 'simulator',
      config: { apiUrl: base, gatewayUrl: base, ...transakSimulatorCredentials(options.simulatorSecret), referrerDomain, brokerPublicUrl },
    };
  }
  return { mode: 'disabled', reason: 'TRANSAK_API_KEY and TRANSAK_API_SECRET are not set and no simulator is running' };
}
