import type { SimulatorEndpoints } from '../simulator-endpoints';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, type ProviderResolution } from '../kit/config';
import { trimSlash } from '../kit/url';
import { deriveSecp256k1Key, deriveSimulatorValue } from '../kit/simulator-secret';

export const RAMP_API_URL = 'https://api.ramp.network/api';
export const RAMP_DEMO_API_URL = 'https://api.demo.ramp.network/api';
export const RAMP_WIDGET_URL = 'https://app.ramp.network';
export const RAMP_DEMO_WIDGET_URL = 'https://app.demo.ramp.network';

/** Ramp's published key for webhooks from production (docs.ramp.network/webhooks). */
export const RAMP_PRODUCTION_WEBHOOK_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAElvxpYOhgdAmI+7oL4mABRAfM5CwLkCbZ
m64ERVKAisSulWFC3oRZom/PeyE2iXPX1ekp9UD1r+51c9TiuIHU4w==
-----END PUBLIC KEY-----
`;

/** Ramp's published key for webhooks from its staging (demo) environment. */
export const RAMP_DEMO_WEBHOOK_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAEevN2PMEeIaaMkS4VIfXOqsLebj19kVeu
wWl0AnkIA6DJU0r3ixkXVhJTltycJtkDoEAYtPHfARyTofB5ZNw9xA==
-----END PUBLIC KEY-----
`;

/** Shown in Ramp's widget as the partner's name. */
export const RAMP_HOST_APP_NAME = 'On-ramp broker';

const optionalString = z.string().trim().optional();
const optionalUrl = optionalString.pipe(z.url().optional());

/** This provider's environment variables; all optional. */
export const RampEnvSchema = z.object({
  RAMP_HOST_API_KEY: optionalString,
  /** PEM of the key Ramp signs webhooks with; defaults to Ramp's published production or demo key. */
  RAMP_WEBHOOK_PUBLIC_KEY: optionalString,
  RAMP_API_URL: optionalUrl,
  RAMP_WIDGET_URL: optionalUrl,
  /** Key of the MAC that binds each order id in webhookStatusUrl to this broker; at least 32 characters. */
  RAMP_WEBHOOK_URL_SECRET: optionalString.pipe(z.string().min(32).optional()),
});

export interface RampConfig {
  /** Base of Ramp's REST API, ending in /api. */
  apiUrl: string;
  /** Base of the widget the customer is sent to. */
  widgetUrl: string;
  hostApiKey: string;
  hostAppName: string;
  /** PEM (SPKI) of the secp256k1 key that verifies X-Body-Signature. */
  webhookPublicKey: string;
  /** The broker's public base URL: webhookStatusUrl is built from it. */
  brokerPublicUrl: string;
  /** Key of the MAC on the order id in webhookStatusUrl (Ramp does not sign the URL). */
  webhookUrlSecret: string;
}

export interface RampSimulatorCredentials {
  readonly hostApiKey: string;
  readonly webhookPublicKey: string;
}

/** Fixed development credentials the local simulator accepts when there is no SIMULATOR_SECRET; it signs with the matching private key. */
export const RAMP_SIMULATOR_CREDENTIALS: RampSimulatorCredentials = {
  hostApiKey: 'ramp_simulator_host_api_key',
  webhookPublicKey: `-----BEGIN PUBLIC KEY-----
MFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAET79xfrJZiwxjEzw5rXZsmBBAzOEI17eK
h6Mkur4fpPfPbJqDT9smLxfulkSNmW2LF4ZYCMDxA4YuGnx9hYYDFw==
-----END PUBLIC KEY-----
`,
};

/** The MAC key of webhook URLs when Ramp runs against its simulator without SIMULATOR_SECRET (development only). */
export const RAMP_SIMULATOR_WEBHOOK_URL_SECRET = 'ramp-simulator-webhook-url-secret-for-development';

/** The key the Ramp simulator signs webhooks with when SIMULATOR_SECRET is set; the broker trusts its public half. */
export function derivedRampSimulatorKey(secret: string): KeyObject {
  return deriveSecp256k1Key(secret, 'ramp', 'webhook-signing-key');
}

/** What the simulator and the broker share: the webhook key pair derived from SIMULATOR_SECRET; the host API key is public anyway. */
export function rampSimulatorCredentials(secret: string | undefined): RampSimulatorCredentials {
  if (secret === undefined) return RAMP_SIMULATOR_CREDENTIALS;
  const webhookPublicKey = createPublicKey(derivedRampSimulatorKey(secret)).export({ type: 'spki', format: 'pem' }) as string;
  return { hostApiKey: RAMP_SIMULATOR_CREDENTIALS.hostApiKey, webhookPublicKey };
}

/** Live with a host API key, else the local simulator when there is one, else disabled. */
export function rampConfig(env: z.infer<typeof RampEnvSchema>, options: SimulatorEndpoints): ProviderResolution<RampConfig> {
  const brokerPublicUrl = trimSlash(options.brokerPublicUrl);
  if (env.RAMP_HOST_API_KEY) {
    const apiUrl = trimSlash(env.RAMP_API_URL ?? RAMP_API_URL);
    const demo = apiUrl === RAMP_DEMO_API_URL;
    // A PEM in one environment line usually arrives with its line breaks written as \n.
    const webhookPublicKey =
      env.RAMP_WEBHOOK_PUBLIC_KEY?.replaceAll('\\n', '\n') ?? (demo ? RAMP_DEMO_WEBHOOK_PUBLIC_KEY : RAMP_PRODUCTION_WEBHOOK_PUBLIC_KEY);
    checkPublicKey(webhookPublicKey);
    if (!env.RAMP_WEBHOOK_URL_SECRET) {
      throw new ConfigError([
        'RAMP_WEBHOOK_URL_SECRET: required with RAMP_HOST_API_KEY (a random string of 32 or more characters, the same in every process)',
      ]);
    }
    return {
      mode: 'live',
      config: {
        apiUrl,
        widgetUrl: trimSlash(env.RAMP_WIDGET_URL ?? (demo ? RAMP_DEMO_WIDGET_URL : RAMP_WIDGET_URL)),
        hostApiKey: env.RAMP_HOST_API_KEY,
        hostAppName: RAMP_HOST_APP_NAME,
        webhookPublicKey,
        brokerPublicUrl,
        webhookUrlSecret: env.RAMP_WEBHOOK_URL_SECRET,
      },
    };
  }
  const stray = (['RAMP_WEBHOOK_PUBLIC_KEY', 'RAMP_API_URL', 'RAMP_WIDGET_URL', 'RAMP_WEBHOOK_URL_SECRET'] as const).filter(
    (name) => env[name] !== undefined,
  );
  if (stray.length > 0)
    throw new ConfigError([`RAMP_HOST_API_KEY: required when ${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set`]);
  if (options.simulatorUrl === undefined) return { mode: 'disabled', reason: 'RAMP_HOST_API_KEY is not set and there is no simulator' };
  const base = `${trimSlash(options.simulatorUrl)}/ramp`;
  const secret = options.simulatorSecret;
  return {
    mode: 'simulator',
    config: {
      apiUrl: `${base}/api`,
      widgetUrl: `${trimSlash(options.simulatorPublicUrl ?? options.simulatorUrl)}/ramp/app`,
      ...rampSimulatorCredentials(secret),
      hostAppName: RAMP_HOST_APP_NAME,
      brokerPublicUrl,
      webhookUrlSecret:
        secret === undefined ? RAMP_SIMULATOR_WEBHOOK_URL_SECRET : deriveSimulatorValue(secret, 'ramp', 'webhook-url-secret'),
    },
  };
}

function checkPublicKey(pem: string): void {
  let curve: string | undefined;
  try {
    curve = createPublicKey(pem).asymmetricKeyDetails?.namedCurve;
  } catch {
    throw new ConfigError(['RAMP_WEBHOOK_PUBLIC_KEY: not a PEM public key']);
  }
  if (curve !== 'secp256k1') throw new ConfigError(['RAMP_WEBHOOK_PUBLIC_KEY: expected a secp256k1 EC public key']);
}
