import type { SimulatorEndpoints } from '../simulator-endpoints';
import { z } from 'zod';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { trimSlash } from '../kit/url';
import { deriveSimulatorValue } from '../kit/simulator-secret';

export const MERCURYO_LIVE_API_URL = 'https://api.mercuryo.io/v1.6';
export const MERCURYO_LIVE_WIDGET_URL = 'https://exchange.mercuryo.io';

const optional = z.string().trim().optional();

/** Mercuryo's environment variables: the four credentials of one widget, and base-URL overrides. */
export const MercuryoEnvSchema = z.object({
  MERCURYO_WIDGET_ID: optional,
  /** The widget's Secret: signs the widget URL (`v2:` SHA-512 signature). */
  MERCURYO_SECRET: optional,
  /** Header `Sdk-Partner-Token` of the transaction status lookup. */
  MERCURYO_SDK_PARTNER_TOKEN: optional,
  /** The dashboard's Sign Key: the HMAC key of the callbacks' `X-Signature`. */
  MERCURYO_SIGN_KEY: optional,
  /** E.g. https://sandbox-api.mrcr.io/v1.6 for Mercuryo's sandbox. */
  MERCURYO_API_URL: optional.pipe(z.url().optional()),
  /** E.g. https://sandbox-exchange.mrcr.io for Mercuryo's sandbox. */
  MERCURYO_WIDGET_URL: optional.pipe(z.url().optional()),
});
export type MercuryoEnv = z.infer<typeof MercuryoEnvSchema>;

export interface MercuryoCredentials {
  widgetId: string;
  secret: string;
  sdkPartnerToken: string;
  signKey: string;
}

export interface MercuryoConfig extends MercuryoCredentials {
  /** API base including the version segment, e.g. https://api.mercuryo.io/v1.6. */
  apiUrl: string;
  /** Where the customer opens the widget, e.g. https://exchange.mercuryo.io. */
  widgetUrl: string;
  /**
   * The broker's public base URL. Mercuryo takes no callback URL per order: the operator registers
   * `<brokerPublicUrl>/api/webhooks/mercuryo` as the widget's Callback URL in the dashboard.
   */
  brokerPublicUrl: string;
  /** Per-request deadline of API calls, in milliseconds. */
  timeoutMs?: number;
}

/** Fixed development credentials the local Mercuryo simulator accepts when there is no SIMULATOR_SECRET. */
export const MERCURYO_SIMULATOR_CREDENTIALS = {
  widgetId: '7d0c4b1e-5a8f-4f3b-9e21-mercuryo0sim',
  secret: 'mercuryo_sim_widget_secret',
  sdkPartnerToken: 'mercuryo_sim_sdk_partner_token',
  signKey: 'mercuryo_sim_sign_key',
} as const satisfies MercuryoCredentials;

export type MercuryoSimulatorCredentials = MercuryoCredentials;

/** What the simulator and the broker share: the secrets derived from SIMULATOR_SECRET; the widget id is public anyway. */
export function mercuryoSimulatorCredentials(secret: string | undefined): MercuryoSimulatorCredentials {
  if (secret === undefined) return MERCURYO_SIMULATOR_CREDENTIALS;
  return {
    widgetId: MERCURYO_SIMULATOR_CREDENTIALS.widgetId,
    secret: deriveSimulatorValue(secret, 'mercuryo', 'widget-secret'),
    sdkPartnerToken: deriveSimulatorValue(secret, 'mercuryo', 'sdk-partner-token'),
    signKey: deriveSimulatorValue(secret, 'mercuryo', 'sign-key'),
  };
}

const CREDENTIAL_VARIABLES = {
  widgetId: 'MERCURYO_WIDGET_ID',
  secret: 'MERCURYO_SECRET',
  sdkPartnerToken: 'MERCURYO_SDK_PARTNER_TOKEN',
  signKey: 'MERCURYO_SIGN_KEY',
} as const satisfies Record<keyof MercuryoCredentials, keyof MercuryoEnv>;

/**
 * Live when every credential is set (Mercuryo's hosts, or the override URLs), the local simulator
 * when none is set and a simulator URL is given, disabled otherwise. Some but not all credentials
 * set is a configuration error naming the missing variables.
 */
export function mercuryoConfig(env: MercuryoEnv, options: SimulatorEndpoints): ProviderResolution<MercuryoConfig> {
  const entries = Object.entries(CREDENTIAL_VARIABLES) as [keyof MercuryoCredentials, keyof MercuryoEnv][];
  const value = (name: keyof MercuryoEnv) => (env[name] === '' ? undefined : env[name]);
  const missing = entries.filter(([, name]) => value(name) === undefined).map(([, name]) => name);
  const brokerPublicUrl = trimSlash(options.brokerPublicUrl);
  if (missing.length === 0) {
    const credentials = Object.fromEntries(entries.map(([key, name]) => [key, value(name)])) as unknown as MercuryoCredentials;
    return {
      mode: 'live',
      config: {
        ...credentials,
        apiUrl: trimSlash(env.MERCURYO_API_URL ?? MERCURYO_LIVE_API_URL),
        widgetUrl: trimSlash(env.MERCURYO_WIDGET_URL ?? MERCURYO_LIVE_WIDGET_URL),
        brokerPublicUrl,
      },
    };
  }
  if (missing.length < entries.length) {
    throw new ConfigError(missing.map((name) => `${name}: required when any Mercuryo credential is set`));
  }
  if (options.simulatorUrl === undefined) {
    return { mode: 'disabled', reason: 'no Mercuryo credentials (MERCURYO_WIDGET_ID, ...) and no simulator' };
  }
  const base = `${trimSlash(options.simulatorUrl)}/mercuryo`;
  const widgetBase = `${trimSlash(options.simulatorPublicUrl ?? options.simulatorUrl)}/mercuryo`;
  return {
    mode: 'simulator',
    config: { ...mercuryoSimulatorCredentials(options.simulatorSecret), apiUrl: `${base}/v1.6`, widgetUrl: widgetBase, brokerPublicUrl },
  };
}
