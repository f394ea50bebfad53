import { z } from 'zod';
import type { SimulatorEndpoints } from '../simulator-endpoints';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { trimSlash } from '../kit/url';
import { deriveSimulatorValue } from '../kit/simulator-secret';

/** Production base of the Crypto Ramp partner endpoints (OpenAPI `servers`, version 2.0). */
export const REVOLUT_LIVE_API_URL = 'https://ramp-partners.revolut.com/partners/api/2.0';

const optional = z.string().trim().optional();

/** Revolut Ramp's environment variables; all optional: without credentials the simulator (or nothing) is used. */
export const RevolutEnvSchema = z.object({
  /** The partner API key, sent as `X-API-KEY` on every call. */
  REVOLUT_API_KEY: optional,
  /** The `signing_secret` (`wsk_…`) Revolut returned when the broker's webhook was created (`POST /webhooks`). */
  REVOLUT_WEBHOOK_SECRET: optional,
  /**
   * Partner API base including its version segment; REVOLUT_LIVE_API_URL when unset. The test
   * environment's hosts end in `.codes` instead of `.com`.
   */
  REVOLUT_API_URL: optional,
});
export type RevolutEnv = z.infer<typeof RevolutEnvSchema>;

export interface RevolutCredentials {
  apiKey: string;
  webhookSecret: string;
}

export interface RevolutConfig extends RevolutCredentials {
  /** Partner API base (…/partners/api/2.0), without a trailing slash. */
  apiUrl: string;
  /** The broker's public base URL; the webhook is created for <brokerPublicUrl>/api/webhooks/revolut. */
  brokerPublicUrl: string;
  /** Per-request deadline of API calls, in milliseconds. */
  timeoutMs?: number;
}

/** Fixed development credentials: the local simulator accepts exactly these when there is no SIMULATOR_SECRET. */
export const REVOLUT_SIMULATOR_CREDENTIALS = {
  apiKey: 'revolut_sim_api_key',
  webhookSecret: 'wsk_revolut_sim_webhook_signing_secret',
} as const satisfies RevolutCredentials;

/** What the simulator and the broker share: every credential derived from SIMULATOR_SECRET, or the fixed ones. */
export function revolutSimulatorCredentials(secret: string | undefined): RevolutCredentials {
  if (secret === undefined) return REVOLUT_SIMULATOR_CREDENTIALS;
  return {
    apiKey: deriveSimulatorValue(secret, 'revolut', 'api-key'),
    webhookSecret: `wsk_${deriveSimulatorValue(secret, 'revolut', 'webhook-secret')}`,
  };
}

const CREDENTIAL_VARIABLES = { apiKey: 'REVOLUT_API_KEY', webhookSecret: 'REVOLUT_WEBHOOK_SECRET' } as const satisfies Record<
  keyof RevolutCredentials,
  keyof RevolutEnv
>;

function checkUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!z.url({ protocol: /^https?$/ }).safeParse(value).success) throw new ConfigError(['REVOLUT_API_URL: expected an http(s) URL']);
  return trimSlash(value);
}

/**
 * Live when both credentials are set (Revolut's host, or REVOLUT_API_URL), the local simulator when
 * none is set and a simulator runs, disabled otherwise. One credential without the other, or the URL
 * override without credentials, is a configuration error naming the variables.
 */
export function revolutConfig(env: RevolutEnv, options: SimulatorEndpoints): ProviderResolution<RevolutConfig> {
  const value = (name: keyof RevolutEnv) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const entries = Object.entries(CREDENTIAL_VARIABLES) as [keyof RevolutCredentials, keyof RevolutEnv][];
  const missing = entries.filter(([, name]) => value(name) === undefined).map(([, name]) => name);
  const brokerPublicUrl = trimSlash(options.brokerPublicUrl);
  if (missing.length === 0) {
    return {
      mode: 'live',
      config: {
        apiKey: value('REVOLUT_API_KEY')!,
        webhookSecret: value('REVOLUT_WEBHOOK_SECRET')!,
        apiUrl: checkUrl(value('REVOLUT_API_URL')) ?? REVOLUT_LIVE_API_URL,
        brokerPublicUrl,
      },
    };
  }
  if (missing.length < entries.length) {
    throw new ConfigError(missing.map((name) => `${name}: required when any Revolut Ramp credential is set`));
  }
  if (value('REVOLUT_API_URL') !== undefined) {
    throw new ConfigError(['REVOLUT_API_URL: set without Revolut Ramp credentials (REVOLUT_API_KEY, REVOLUT_WEBHOOK_SECRET)']);
  }
  if (options.simulatorUrl === undefined) {
    return { mode: 'disabled', reason: 'no Revolut Ramp credentials (REVOLUT_API_KEY, REVOLUT_WEBHOOK_SECRET) and no simulator' };
  }
  return {
    mode: 'simulator',
    config: {
      ...revolutSimulatorCredentials(options.simulatorSecret),
      apiUrl: `${trimSlash(options.simulatorUrl)}/revolut/partners/api/2.0`,
      brokerPublicUrl,
    },
  };
}
