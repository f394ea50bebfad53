import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { deriveSimulatorValue } from '../kit/simulator-secret';
import { trimSlash } from '../kit/url';
import type { SimulatorEndpoints } from '../simulator-endpoints';
import { ed25519SecretText, parseCdpSecret } from './jwt';

const optional = z.string().trim().optional();

/** Coinbase Onramp's environment variables; all optional: without credentials the simulator (or nothing) is used. */
export const CoinbaseEnvSchema = z.object({
  /** The CDP secret API key's name (its id, `organizations/{org}/apiKeys/{key}` or a UUID): the JWT's `kid` and `sub`. */
  COINBASE_API_KEY_ID: optional,
  /** The CDP secret API key's secret: base64 Ed25519 (64 bytes) or an ECDSA P-256 PEM. Signs each request's JWT. */
  COINBASE_API_KEY_SECRET: optional,
  /** The `secret` of the broker's webhook subscription: verifies `X-Hook0-Signature`. */
  COINBASE_WEBHOOK_SECRET: optional,
  /** REST API base URL; https://api.developer.coinbase.com when unset. */
  COINBASE_API_URL: optional,
  /** Onramp page base URL; https://pay.coinbase.com when unset. */
  COINBASE_PAY_URL: optional,
});
export type CoinbaseEnv = z.infer<typeof CoinbaseEnvSchema>;

export interface CoinbaseCredentials {
  apiKeyId: string;
  apiKeySecret: string;
  webhookSecret: string;
}

export interface CoinbaseConfig extends CoinbaseCredentials {
  /** REST API base, without a trailing slash; the Onramp API is under `<apiUrl>/onramp`. */
  apiUrl: string;
  /** Onramp page base; the one-click-buy URL is `<payUrl>/buy/select-asset?…`. */
  payUrl: string;
  /** The broker's public base URL; the webhook subscription targets <brokerPublicUrl>/api/webhooks/coinbase. */
  brokerPublicUrl: string;
}

/** A fixed 32-byte Ed25519 seed from a label, for the development key. */
const seedOf = (text: string) => createHash('sha256').update(text).digest();

/** Fixed development credentials: the local simulator accepts exactly these when there is no SIMULATOR_SECRET. */
export const COINBASE_SIMULATOR_CREDENTIALS: CoinbaseCredentials = {
  apiKeyId: 'organizations/00000000-0000-4000-8000-000000000000/apiKeys/00000000-0000-4000-8000-00000000c01b',
  apiKeySecret: ed25519SecretText(seedOf('onramp-simulator/coinbase/development-api-key')),
  webhookSecret: 'whsec_coinbase_simulator_webhook',
};

/** What the simulator and the broker share: the key and webhook secret derived from SIMULATOR_SECRET; the key name is not secret. */
export function coinbaseSimulatorCredentials(secret: string | undefined): CoinbaseCredentials {
  if (secret === undefined) return COINBASE_SIMULATOR_CREDENTIALS;
  return {
    apiKeyId: COINBASE_SIMULATOR_CREDENTIALS.apiKeyId,
    apiKeySecret: ed25519SecretText(Buffer.from(deriveSimulatorValue(secret, 'coinbase', 'api-key'), 'hex')),
    webhookSecret: deriveSimulatorValue(secret, 'coinbase', 'webhook-secret'),
  };
}

const COINBASE_API_URL = 'https://api.developer.coinbase.com';
const COINBASE_PAY_URL = 'https://pay.coinbase.com';

const CREDENTIAL_VARIABLES = ['COINBASE_API_KEY_ID', 'COINBASE_API_KEY_SECRET', 'COINBASE_WEBHOOK_SECRET'] as const;
const URL_VARIABLES = ['COINBASE_API_URL', 'COINBASE_PAY_URL'] as const;

function checkUrl(variable: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!z.url({ protocol: /^https?$/ }).safeParse(value).success) throw new ConfigError([`${variable}: expected an http(s) URL`]);
  return trimSlash(value);
}

/**
 * Live with credentials (Coinbase's hosts, or the override URLs), the local simulator without them
 * when one runs, disabled otherwise. Some credentials without the others is a configuration error,
 * and so is a key secret that is neither a CDP Ed25519 key nor an ECDSA P-256 PEM.
 */
export function coinbaseConfig(env: CoinbaseEnv, options: SimulatorEndpoints): ProviderResolution<CoinbaseConfig> {
  const value = (name: keyof CoinbaseEnv) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const present = CREDENTIAL_VARIABLES.filter((name) => value(name) !== undefined);
  const brokerPublicUrl = trimSlash(options.brokerPublicUrl);

  if (present.length === 0) {
    const strayUrls = URL_VARIABLES.filter((name) => value(name) !== undefined);
    if (strayUrls.length > 0) {
      throw new ConfigError(strayUrls.map((name) => `${name}: set without Coinbase credentials (${CREDENTIAL_VARIABLES.join(', ')})`));
    }
    if (options.simulatorUrl === undefined) return { mode: 'disabled', reason: 'no Coinbase credentials and no simulator' };
    const base = `${trimSlash(options.simulatorUrl)}/coinbase`;
    const payBase = `${trimSlash(options.simulatorPublicUrl ?? options.simulatorUrl)}/coinbase/pay`;
    return {
      mode: 'simulator',
      config: { ...coinbaseSimulatorCredentials(options.simulatorSecret), apiUrl: base, payUrl: payBase, brokerPublicUrl },
    };
  }

  const missing = CREDENTIAL_VARIABLES.filter((name) => value(name) === undefined);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((name) => `${name}: required when ${present.join(', ')} ${present.length === 1 ? 'is' : 'are'} set`));
  }
  const apiKeySecret = value('COINBASE_API_KEY_SECRET')!;
  if (!parseCdpSecret(apiKeySecret)) {
    throw new ConfigError(['COINBASE_API_KEY_SECRET: expected a CDP Ed25519 key (base64, 64 bytes) or an ECDSA P-256 private key (PEM)']);
  }
  return {
    mode: 'live',
    config: {
      apiKeyId: value('COINBASE_API_KEY_ID')!,
      apiKeySecret,
      webhookSecret: value('COINBASE_WEBHOOK_SECRET')!,
      apiUrl: checkUrl('COINBASE_API_URL', value('COINBASE_API_URL')) ?? COINBASE_API_URL,
      payUrl: checkUrl('COINBASE_PAY_URL', value('COINBASE_PAY_URL')) ?? COINBASE_PAY_URL,
      brokerPublicUrl,
    },
  };
}
