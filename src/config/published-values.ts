import { createHash, createPublicKey } from 'node:crypto';
import { PROVIDERS } from '../providers/manifest';
import { webhookSecretKey } from '../webhooks/signature';
import { DEFAULT_DEV_API_KEY, DEFAULT_DEV_RANKING_CUSTOMER_KEY, DEFAULT_DEV_WEBHOOK_SECRET } from './env';
import { sha256Hex, type Integrator } from './integrators';

/**
 * The demo integrator of deploy/integrators.example.json (docker-compose.yml, `npm run cluster`):
 * its API key is printed in docs/operations.md, so anyone can use it. A unit test checks these
 * against the file.
 */
export const DEMO_INTEGRATOR_API_KEY_SHA256 = '800ed0e7dbe24f31a003d3b89f5fa6c74fb1c1294c00435f70c6f1395b424c5e';
export const DEMO_INTEGRATOR_WEBHOOK_SECRET = 'whsec_Qt8hWTg8vkvW485npy+kmjdL9VajUMl/rtHi2YxKN/o=';

/**
 * Whether `secret` signs as `published` does. Webhooks are signed with a secret's base64-decoded
 * bytes (src/webhooks/signature.ts), and many spellings decode to the same bytes: without padding,
 * with other unused low bits in the last character, with anything after the padding.
 */
function sameWebhookKey(secret: string | undefined, published: string): boolean {
  return secret?.startsWith('whsec_') === true && webhookSecretKey(secret).equals(webhookSecretKey(published));
}

/** A PEM in one environment line often has its line breaks written as \n; spaces around do not count. */
const normalized = (value: string) => value.replaceAll('\\n', '\n').trim();

/** The simulators' fixed development credentials (each provider's `publishedValues`). */
const SIMULATOR_VALUES: ReadonlySet<string> = new Set(PROVIDERS.flatMap((provider) => provider.publishedValues).map(normalized));

/**
 * The digest of a key's public half (SubjectPublicKeyInfo DER), for a value that is a key in any
 * form Node reads (PEM with any line breaks, PKCS#1, PKCS#8, SPKI, SEC1; a private key gives its
 * public half); undefined for anything else. A published key written another way, or its private
 * half, is the same key: it must be refused as the published text is.
 */
function keyFingerprint(value: string): string | undefined {
  if (!value.includes('-----BEGIN')) return undefined;
  try {
    return createHash('sha256')
      .update(createPublicKey(value).export({ type: 'spki', format: 'der' }))
      .digest('hex');
  } catch {
    return undefined;
  }
}

const SIMULATOR_KEYS: ReadonlySet<string> = new Set(
  [...SIMULATOR_VALUES].map(keyFingerprint).filter((fingerprint): fingerprint is string => fingerprint !== undefined),
);

function isSimulatorValue(value: string): boolean {
  const text = normalized(value);
  if (SIMULATOR_VALUES.has(text)) return true;
  const fingerprint = keyFingerprint(text);
  return fingerprint !== undefined && SIMULATOR_KEYS.has(fingerprint);
}

export interface PublishedValueProblem {
  variable: string;
  message: string;
}

/**
 * Production's refusals of the values this repository publishes, one per variable: the development
 * API key, webhook secret and returning-customer key, the demo integrator's, and any provider variable set to a simulator's
 * development credential (a live Ramp with the simulator's URL secret or signing key, for example).
 */
export function publishedEnvProblems(
  env: { ONRAMP_API_KEY?: string; ONRAMP_WEBHOOK_SECRET?: string; RANKING_CUSTOMER_KEY?: string },
  providerEnv: Readonly<Record<string, unknown>>,
): PublishedValueProblem[] {
  const problems: PublishedValueProblem[] = [];
  if (env.ONRAMP_API_KEY !== undefined) {
    const digest = sha256Hex(env.ONRAMP_API_KEY);
    if (digest === sha256Hex(DEFAULT_DEV_API_KEY) || digest === DEMO_INTEGRATOR_API_KEY_SHA256)
      problems.push({
        variable: 'ONRAMP_API_KEY',
        message: 'a key published in this repository (development or demo); choose a private one',
      });
  }
  if (
    sameWebhookKey(env.ONRAMP_WEBHOOK_SECRET, DEFAULT_DEV_WEBHOOK_SECRET) ||
    sameWebhookKey(env.ONRAMP_WEBHOOK_SECRET, DEMO_INTEGRATOR_WEBHOOK_SECRET)
  )
    problems.push({
      variable: 'ONRAMP_WEBHOOK_SECRET',
      message: 'a secret published in this repository (development or demo); choose a private one',
    });
  if (env.RANKING_CUSTOMER_KEY === DEFAULT_DEV_RANKING_CUSTOMER_KEY)
    problems.push({
      variable: 'RANKING_CUSTOMER_KEY',
      message: 'the development key, published in this repository; choose a private one (openssl rand -hex 32)',
    });
  for (const [variable, value] of Object.entries(providerEnv)) {
    if (typeof value === 'string' && isSimulatorValue(value))
      problems.push({ variable, message: "a simulator's development credential, published in this repository; use the provider's own" });
  }
  return problems;
}

/**
 * Production's refusals in the integrators file: the development key and webhook secret always, the
 * demo integrator's only outside a demo (SANDBOX_IN_PRODUCTION with no live provider: nothing real
 * is bought there).
 */
export function publishedIntegratorProblems(integrators: readonly Integrator[], demo: boolean): string[] {
  const devDigest = sha256Hex(DEFAULT_DEV_API_KEY);
  const problems: string[] = [];
  for (const integrator of integrators) {
    const where = `ONRAMP_INTEGRATORS_FILE: integrator ${integrator.id}`;
    if (integrator.api_key_sha256.includes(devDigest))
      problems.push(`${where}: api_key_sha256 holds the digest of the development API key, published in this repository`);
    if (sameWebhookKey(integrator.webhook_secret, DEFAULT_DEV_WEBHOOK_SECRET))
      problems.push(`${where}: webhook_secret is the development webhook secret, published in this repository`);
    if (demo) continue;
    const outsideDemo = 'refused in production unless it is a demo (SANDBOX_IN_PRODUCTION=true and no live provider)';
    if (integrator.api_key_sha256.includes(DEMO_INTEGRATOR_API_KEY_SHA256))
      problems.push(
        `${where}: api_key_sha256 holds the demo key of deploy/integrators.example.json, published in docs/operations.md; ${outsideDemo}`,
      );
    if (sameWebhookKey(integrator.webhook_secret, DEMO_INTEGRATOR_WEBHOOK_SECRET))
      problems.push(`${where}: webhook_secret is the demo secret of deploy/integrators.example.json; ${outsideDemo}`);
  }
  return problems;
}
