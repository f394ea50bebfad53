import type { SimulatorEndpoints } from '../simulator-endpoints';
import { z } from 'zod';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { trimSlash } from '../kit/url';
import { deriveSimulatorValue } from '../kit/simulator-secret';

export const ONRAMP_MONEY_LIVE_API_URL = 'https://api.onramp.money';
/** The hosted widget's buy page (onramp.gitbook.io, Hosted Mode: "Example url"). */
export const ONRAMP_MONEY_LIVE_WIDGET_URL = 'https://onramp.money/main/buy';

const optional = z.string().trim().optional();

/** Onramp.money's environment variables: the app and its API key pair, and base-URL overrides. */
export const OnrampMoneyEnvSchema = z.object({
  /** The merchant's `appId`, carried by the widget URL (public). */
  ONRAMP_MONEY_APP_ID: optional,
  /** Header `X-ONRAMP-APIKEY` of every API call. */
  ONRAMP_MONEY_API_KEY: optional,
  /** Keys the HMAC-SHA512 of every request's payload and of the webhooks' `X-ONRAMP-PAYLOAD`. */
  ONRAMP_MONEY_API_SECRET: optional,
  ONRAMP_MONEY_API_URL: optional.pipe(z.url().optional()),
  /** E.g. https://test.onramp.money/onramp/main/buy (the web SDK's sandbox app is .../onramp/main; its buy page unconfirmed). */
  ONRAMP_MONEY_WIDGET_URL: optional.pipe(z.url().optional()),
});
export type OnrampMoneyEnv = z.infer<typeof OnrampMoneyEnvSchema>;

export interface OnrampMoneyCredentials {
  appId: string;
  apiKey: string;
  apiSecret: string;
}

export interface OnrampMoneyConfig extends OnrampMoneyCredentials {
  /** API base without a path, e.g. https://api.onramp.money. */
  apiUrl: string;
  /** The widget's buy page, e.g. https://onramp.money/main/buy. */
  widgetUrl: string;
  /**
   * The broker's public base URL. Onramp.money takes no webhook URL per order: the operator sets
   * `<brokerPublicUrl>/api/webhooks/onramp_money` once (onboarding, or `POST /onramp/api/v1/merchant/setWebhookUrl`).
   */
  brokerPublicUrl: string;
  /** Per-request deadline of API calls, in milliseconds. */
  timeoutMs?: number;
}

/** Fixed development credentials the local simulator accepts when there is no SIMULATOR_SECRET. */
export const ONRAMP_MONEY_SIMULATOR_CREDENTIALS = {
  appId: '424242',
  apiKey: 'onramp_money_sim_api_key',
  apiSecret: 'onramp_money_sim_api_secret',
} as const satisfies OnrampMoneyCredentials;

export type OnrampMoneySimulatorCredentials = OnrampMoneyCredentials;

/** The simulator's credentials: derived from SIMULATOR_SECRET when set; the app id is public anyway. */
export function onrampMoneySimulatorCredentials(secret: string | undefined): OnrampMoneySimulatorCredentials {
  if (secret === undefined) return ONRAMP_MONEY_SIMULATOR_CREDENTIALS;
  return {
    appId: ONRAMP_MONEY_SIMULATOR_CREDENTIALS.appId,
    apiKey: deriveSimulatorValue(secret, 'onramp_money', 'api-key'),
    apiSecret: deriveSimulatorValue(secret, 'onramp_money', 'api-secret'),
  };
}

const CREDENTIAL_VARIABLES = {
  appId: 'ONRAMP_MONEY_APP_ID',
  apiKey: 'ONRAMP_MONEY_API_KEY',
  apiSecret: 'ONRAMP_MONEY_API_SECRET',
} as const satisfies Record<keyof OnrampMoneyCredentials, keyof OnrampMoneyEnv>;

/**
 * Live when every credential is set (Onramp.money's hosts, or the override URLs), the local
 * simulator when none is set and a simulator URL is given, disabled otherwise. Some but not all
 * credentials set is a configuration error naming the missing variables.
 */
export function onrampMoneyConfig(env: OnrampMoneyEnv, options: SimulatorEndpoints): ProviderResolution<OnrampMoneyConfig> {
  const entries = Object.entries(CREDENTIAL_VARIABLES) as [keyof OnrampMoneyCredentials, keyof OnrampMoneyEnv][];
  const value = (name: keyof OnrampMoneyEnv) => (env[name] === '' ? undefined : env[name]);
  const missing = entries.filter(([, name]) => value(name) === undefined).map(([, name]) => name);
  const brokerPublicUrl = trimSlash(options.brokerPublicUrl);
  if (missing.length === 0) {
    const credentials = Object.fromEntries(entries.map(([key, name]) => [key, value(name)])) as unknown as OnrampMoneyCredentials;
    return {
      mode: 'live',
      config: {
        ...credentials,
        apiUrl: trimSlash(env.ONRAMP_MONEY_API_URL ?? ONRAMP_MONEY_LIVE_API_URL),
        widgetUrl: trimSlash(env.ONRAMP_MONEY_WIDGET_URL ?? ONRAMP_MONEY_LIVE_WIDGET_URL),
        brokerPublicUrl,
      },
    };
  }
  if (missing.length < entries.length) {
    throw new ConfigError(missing.map((name) => `${name}: required when any Onramp.money credential is set`));
  }
  if (options.simulatorUrl === undefined) {
    return { mode: 'disabled', reason: 'no Onramp.money credentials (ONRAMP_MONEY_APP_ID, ...) and no simulator' };
  }
  const base = `${trimSlash(options.simulatorUrl)}/onramp_money`;
  const widgetBase = `${trimSlash(options.simulatorPublicUrl ?? options.simulatorUrl)}/onramp_money`;
  return {
    mode: 'simulator',
    config: {
      ...onrampMoneySimulatorCredentials(options.simulatorSecret),
      apiUrl: base,
      widgetUrl: `${widgetBase}/main/buy`,
      brokerPublicUrl,
    },
  };
}
