import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { deriveSimulatorValue } from '../kit/simulator-secret';
import { trimSlash } from '../kit/url';
import type { SimulatorEndpoints } from '../simulator-endpoints';
import {
  DEV_PARTNER_PRIVATE_KEY,
  DEV_PARTNER_PUBLIC_KEY,
  DEV_PAYBIS_WEBHOOK_PRIVATE_KEY,
  DEV_PAYBIS_WEBHOOK_PUBLIC_KEY,
} from './development-keys';
import { deriveRsaKey } from './rsa-derivation';

/** Paybis's partner API (docs.payb.is, "Widget API"); its sandbox is https://widget-api.sandbox.paybis.com. */
export const PAYBIS_API_URL = 'https://widget-api.paybis.com';
/** The widget the customer is sent to with `?requestId=`; the sandbox's is https://widget.sandbox.paybis.com. */
export const PAYBIS_WIDGET_URL = 'https://widget.paybis.com';

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));
const optionalUrl = optionalString.pipe(z.url({ protocol: /^https?$/ }).optional());

/** Paybis's environment variables. All optional: without them the broker uses the local simulator, or leaves Paybis out. */
export const PaybisEnvSchema = z.object({
  /** The partner's API key, sent in the `Authorization` header of every call. */
  PAYBIS_API_KEY: optionalString,
  /** PEM of the partner's RSA private key (PKCS#8 or PKCS#1): signs each request body (`X-Request-Signature`). */
  PAYBIS_PRIVATE_KEY: optionalString,
  /** PEM of the public RSA key Paybis signs its webhooks with, from the integration manager. */
  PAYBIS_WEBHOOK_PUBLIC_KEY: optionalString,
  /** Defaults to https://widget-api.paybis.com; https://widget-api.sandbox.paybis.com for Paybis's sandbox. */
  PAYBIS_API_URL: optionalUrl,
  /** Defaults to https://widget.paybis.com; https://widget.sandbox.paybis.com for Paybis's sandbox. */
  PAYBIS_WIDGET_URL: optionalUrl,
});
export type PaybisEnv = z.infer<typeof PaybisEnvSchema>;

/** What the broker holds: the API key, its own private key, Paybis's public key. */
export interface PaybisCredentials {
  apiKey: string;
  /** PEM of the partner's private key. */
  privateKey: string;
  /** PEM of Paybis's webhook key. */
  webhookPublicKey: string;
}

export interface PaybisConfig extends PaybisCredentials {
  apiUrl: string;
  widgetUrl: string;
  /** The broker's public base URL: where the customer returns when the integrator names no return URL. */
  brokerPublicUrl: string;
}

/** What the simulated Paybis holds: the partner's API key and public key, and its own webhook signing key. */
export interface PaybisSimulatorKeys {
  apiKey: string;
  partnerPublicKey: KeyObject;
  webhookSigningKey: KeyObject;
}

/** Fixed development credentials: what the broker holds against the simulator when there is no SIMULATOR_SECRET. */
export const PAYBIS_SIMULATOR_CREDENTIALS: PaybisCredentials = {
  apiKey: 'paybis_sim_api_key_00000000000000',
  privateKey: DEV_PARTNER_PRIVATE_KEY,
  webhookPublicKey: DEV_PAYBIS_WEBHOOK_PUBLIC_KEY,
};

/** The published values production refuses: the development API key and all four PEMs. */
export const PAYBIS_PUBLISHED_VALUES: readonly string[] = [
  PAYBIS_SIMULATOR_CREDENTIALS.apiKey,
  DEV_PARTNER_PRIVATE_KEY,
  DEV_PARTNER_PUBLIC_KEY,
  DEV_PAYBIS_WEBHOOK_PRIVATE_KEY,
  DEV_PAYBIS_WEBHOOK_PUBLIC_KEY,
];

interface DerivedPairs {
  apiKey: string;
  partner: KeyObject;
  paybis: KeyObject;
}

/** Deriving a pair searches two primes (a few hundred milliseconds on a busy machine): one derivation per secret and process. */
const derived = new Map<string, DerivedPairs>();

function derivedPairs(secret: string): DerivedPairs {
  let pairs = derived.get(secret);
  if (!pairs) {
    pairs = {
      apiKey: deriveSimulatorValue(secret, 'paybis', 'api-key'),
      partner: deriveRsaKey(deriveSimulatorValue(secret, 'paybis', 'partner-key'), 'partner-key'),
      paybis: deriveRsaKey(deriveSimulatorValue(secret, 'paybis', 'webhook-key'), 'webhook-key'),
    };
    derived.set(secret, pairs);
  }
  return pairs;
}

const pem = (key: KeyObject, type: 'pkcs8' | 'spki') =>
  type === 'pkcs8' ? (key.export({ type, format: 'pem' }) as string) : (createPublicKey(key).export({ type, format: 'pem' }) as string);

/** The broker's side against the simulator: derived from SIMULATOR_SECRET, or the fixed development credentials. */
export function paybisSimulatorCredentials(secret: string | undefined): PaybisCredentials {
  if (secret === undefined) return PAYBIS_SIMULATOR_CREDENTIALS;
  const pairs = derivedPairs(secret);
  return { apiKey: pairs.apiKey, privateKey: pem(pairs.partner, 'pkcs8'), webhookPublicKey: pem(pairs.paybis, 'spki') };
}

/** The simulator's side: the same derivation, the other half of each pair. */
export function paybisSimulatorKeys(secret: string | undefined): PaybisSimulatorKeys {
  if (secret === undefined) {
    return {
      apiKey: PAYBIS_SIMULATOR_CREDENTIALS.apiKey,
      partnerPublicKey: createPublicKey(DEV_PARTNER_PUBLIC_KEY),
      webhookSigningKey: createPrivateKey(DEV_PAYBIS_WEBHOOK_PRIVATE_KEY),
    };
  }
  const pairs = derivedPairs(secret);
  return { apiKey: pairs.apiKey, partnerPublicKey: createPublicKey(pairs.partner), webhookSigningKey: pairs.paybis };
}

const CREDENTIALS = ['PAYBIS_API_KEY', 'PAYBIS_PRIVATE_KEY', 'PAYBIS_WEBHOOK_PUBLIC_KEY'] as const;
const OVERRIDES = ['PAYBIS_API_URL', 'PAYBIS_WIDGET_URL'] as const;

/** A PEM in one environment line usually arrives with its line breaks written as \n. */
const pemText = (value: string) => value.replaceAll('\\n', '\n');

function checkKeys(privateKey: string, webhookPublicKey: string): void {
  const problems: string[] = [];
  try {
    if (createPrivateKey(privateKey).asymmetricKeyType !== 'rsa') problems.push('PAYBIS_PRIVATE_KEY: expected an RSA private key');
  } catch {
    problems.push('PAYBIS_PRIVATE_KEY: not a PEM private key');
  }
  try {
    if (createPublicKey(webhookPublicKey).asymmetricKeyType !== 'rsa')
      problems.push('PAYBIS_WEBHOOK_PUBLIC_KEY: expected an RSA public key');
  } catch {
    problems.push('PAYBIS_WEBHOOK_PUBLIC_KEY: not a PEM public key');
  }
  if (problems.length > 0) throw new ConfigError(problems);
}

/**
 * Live when the API key and both keys are set; the simulator under `<simulatorUrl>/paybis` when none
 * is and a simulator runs; disabled otherwise. Some but not all set, or a URL override without
 * them, is a configuration error naming the missing variables.
 */
export function paybisConfig(env: PaybisEnv, options: SimulatorEndpoints): ProviderResolution<PaybisConfig> {
  const brokerPublicUrl = trimSlash(options.brokerPublicUrl);
  const missing = CREDENTIALS.filter((name) => env[name] === undefined);
  if (missing.length === 0) {
    const privateKey = pemText(env.PAYBIS_PRIVATE_KEY as string);
    const webhookPublicKey = pemText(env.PAYBIS_WEBHOOK_PUBLIC_KEY as string);
    checkKeys(privateKey, webhookPublicKey);
    return {
      mode: 'live',
      config: {
        apiKey: env.PAYBIS_API_KEY as string,
        privateKey,
        webhookPublicKey,
        apiUrl: trimSlash(env.PAYBIS_API_URL ?? PAYBIS_API_URL),
        widgetUrl: trimSlash(env.PAYBIS_WIDGET_URL ?? PAYBIS_WIDGET_URL),
        brokerPublicUrl,
      },
    };
  }
  const set = [...CREDENTIALS, ...OVERRIDES].filter((name) => env[name] !== undefined);
  if (set.length > 0) throw new ConfigError(missing.map((name) => `${name}: required when ${set.join(', ')} is set`));
  if (options.simulatorUrl === undefined) {
    return { mode: 'disabled', reason: `${CREDENTIALS.join(', ')} are not set and no simulator runs` };
  }
  const base = `${trimSlash(options.simulatorUrl)}/paybis`;
  return {
    mode: 'simulator',
    config: {
      ...paybisSimulatorCredentials(options.simulatorSecret),
      apiUrl: base,
      widgetUrl: `${trimSlash(options.simulatorPublicUrl ?? options.simulatorUrl)}/paybis/widget`,
      brokerPublicUrl,
    },
  };
}
