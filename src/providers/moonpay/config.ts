import type { SimulatorEndpoints } from '../simulator-endpoints';
import { z } from 'zod';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { trimSlash } from '../kit/url';
import { deriveSimulatorValue } from '../kit/simulator-secret';

const optional = z.string().trim().optional();

/** MoonPay's environment variables; all optional: without credentials the simulator (or nothing) is used. */
export const MoonpayEnvSchema = z.object({
  /** Publishable key (`pk_test_…` sandbox, `pk_live_…` production): the widget and public API calls. */
  MOONPAY_PUBLISHABLE_KEY: optional,
  /** Secret key (`sk_test_…` / `sk_live_…`): signs widget URLs and authenticates transaction lookups. */
  MOONPAY_SECRET_KEY: optional,
  /** Webhook API key from the dashboard: verifies `Moonpay-Signature-V2`. */
  MOONPAY_WEBHOOK_KEY: optional,
  /** REST API base URL; https://api.moonpay.com when unset (test or live is chosen by the key). */
  MOONPAY_API_URL: optional,
  /** Buy widget base URL; https://buy-sandbox.moonpay.com for test keys, https://buy.moonpay.com for live keys. */
  MOONPAY_WIDGET_URL: optional,
});
export type MoonpayEnv = z.infer<typeof MoonpayEnvSchema>;

export interface MoonpayCredentials {
  publishableKey: string;
  secretKey: string;
  webhookKey: string;
}

export interface MoonpayConfig extends MoonpayCredentials {
  /** REST API base, without a trailing slash. */
  apiUrl: string;
  /** Buy widget base; the signed query string is appended to it. */
  widgetUrl: string;
  /** The broker's public base URL; MoonPay's webhook URL is registered as <brokerPublicUrl>/api/webhooks/moonpay. */
  brokerPublicUrl: string;
}

/** Fixed development credentials: the local simulator accepts exactly these when there is no SIMULATOR_SECRET. */
export const MOONPAY_SIMULATOR_CREDENTIALS: MoonpayCredentials = {
  publishableKey: 'pk_test_moonpay_simulator_publishable',
  secretKey: 'sk_test_moonpay_simulator_secret',
  webhookKey: 'wk_test_moonpay_simulator_webhook',
};

/** What the simulator and the broker share: the secrets derived from SIMULATOR_SECRET; the publishable key is public anyway. */
export function moonpaySimulatorCredentials(secret: string | undefined): MoonpayCredentials {
  if (secret === undefined) return MOONPAY_SIMULATOR_CREDENTIALS;
  return {
    publishableKey: MOONPAY_SIMULATOR_CREDENTIALS.publishableKey,
    secretKey: `sk_test_${deriveSimulatorValue(secret, 'moonpay', 'secret-key')}`,
    webhookKey: `wk_test_${deriveSimulatorValue(secret, 'moonpay', 'webhook-key')}`,
  };
}

const MOONPAY_API_URL = 'https://api.moonpay.com';
const WIDGET_URLS = { test: 'https://buy-sandbox.moonpay.com', live: 'https://buy.moonpay.com' } as const;
/** The sell widget's hosts (dev.moonpay.com, off-ramp "integrate using simple URL"). */
const SELL_WIDGET_URLS = { test: 'https://sell-sandbox.moonpay.com', live: 'https://sell.moonpay.com' } as const;

/**
 * The sell widget base: the simulator's `…/moonpay/sell-widget` beside its buy widget, else MoonPay's
 * sell host for the key's mode (a MOONPAY_WIDGET_URL override moves the buy widget only).
 */
export function sellWidgetUrlOf(config: Pick<MoonpayConfig, 'widgetUrl' | 'publishableKey'>): string {
  if (config.widgetUrl.endsWith('/moonpay/widget')) return `${config.widgetUrl.slice(0, -'/widget'.length)}/sell-widget`;
  return SELL_WIDGET_URLS[isTestKey(config.publishableKey) ? 'test' : 'live'];
}

const CREDENTIAL_VARIABLES = ['MOONPAY_PUBLISHABLE_KEY', 'MOONPAY_SECRET_KEY', 'MOONPAY_WEBHOOK_KEY'] as const;
const URL_VARIABLES = ['MOONPAY_API_URL', 'MOONPAY_WIDGET_URL'] as const;

/** Test mode is chosen by the key, not by the host: `pk_test_` / `sk_test_` keys act on MoonPay's sandbox. */
export function isTestKey(key: string): boolean {
  return /^[ps]k_test_/.test(key);
}

function keyMode(variable: string, key: string, prefix: 'pk' | 'sk'): 'test' | 'live' {
  const match = new RegExp(`^${prefix}_(test|live)_.+`).exec(key);
  if (!match) throw new ConfigError([`${variable}: expected a key starting with ${prefix}_test_ or ${prefix}_live_`]);
  return match[1] as 'test' | 'live';
}

function checkUrl(variable: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!z.url({ protocol: /^https?$/ }).safeParse(value).success) throw new ConfigError([`${variable}: expected an http(s) URL`]);
  return trimSlash(value);
}

/**
 * Live with credentials (MoonPay's hosts, or the override URLs), the local simulator without them
 * when one runs, disabled otherwise. Some credentials without the others is a configuration error.
 */
export function moonpayConfig(env: MoonpayEnv, options: SimulatorEndpoints): ProviderResolution<MoonpayConfig> {
  const value = (name: keyof MoonpayEnv) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const present = CREDENTIAL_VARIABLES.filter((name) => value(name) !== undefined);
  const brokerPublicUrl = trimSlash(options.brokerPublicUrl);

  if (present.length === 0) {
    const strayUrls = URL_VARIABLES.filter((name) => value(name) !== undefined);
    if (strayUrls.length > 0) {
      throw new ConfigError(strayUrls.map((name) => `${name}: set without MoonPay credentials (${CREDENTIAL_VARIABLES.join(', ')})`));
    }
    if (options.simulatorUrl === undefined) return { mode: 'disabled', reason: 'no MoonPay credentials and no simulator' };
    const base = `${trimSlash(options.simulatorUrl)}/moonpay`;
    const widgetBase = `${trimSlash(options.simulatorPublicUrl ?? options.simulatorUrl)}/moonpay`;
    return {
      mode: 'simulator',
      config: { ...moonpaySimulatorCredentials(options.simulatorSecret), apiUrl: base, widgetUrl: `${widgetBase}/widget`, brokerPublicUrl },
    };
  }

  const missing = CREDENTIAL_VARIABLES.filter((name) => value(name) === undefined);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((name) => `${name}: required when ${present.join(', ')} ${present.length === 1 ? 'is' : 'are'} set`));
  }
  const publishableKey = value('MOONPAY_PUBLISHABLE_KEY')!;
  const secretKey = value('MOONPAY_SECRET_KEY')!;
  const mode = keyMode('MOONPAY_PUBLISHABLE_KEY', publishableKey, 'pk');
  if (keyMode('MOONPAY_SECRET_KEY', secretKey, 'sk') !== mode) {
    throw new ConfigError([`MOONPAY_SECRET_KEY: a ${mode === 'test' ? 'live' : 'test'} key beside a ${mode} publishable key`]);
  }
  return {
    mode: 'live',
    config: {
      publishableKey,
      secretKey,
      webhookKey: value('MOONPAY_WEBHOOK_KEY')!,
      apiUrl: checkUrl('MOONPAY_API_URL', value('MOONPAY_API_URL')) ?? MOONPAY_API_URL,
      widgetUrl: checkUrl('MOONPAY_WIDGET_URL', value('MOONPAY_WIDGET_URL')) ?? WIDGET_URLS[mode],
      brokerPublicUrl,
    },
  };
}
