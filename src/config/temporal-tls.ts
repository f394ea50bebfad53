import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../providers/kit/config';
import type { TemporalEndpoint } from '../temporal/connection-options';

const optionalString = z.string().trim().optional();

/** TLS to Temporal, for the API and the worker alike (README, "Configuration"). */
export const TEMPORAL_TLS_ENV_SHAPE = {
  /** TLS with no other setting: the system's roots, no client certificate. Implied by every setting below. */
  TEMPORAL_TLS: z.stringbool().optional(),
  TEMPORAL_TLS_CA_FILE: optionalString,
  TEMPORAL_TLS_CERT_FILE: optionalString,
  TEMPORAL_TLS_KEY_FILE: optionalString,
  /** The name the server's certificate is checked against, when it is not the host of TEMPORAL_ADDRESS. */
  TEMPORAL_TLS_SERVER_NAME: optionalString.pipe(z.hostname().optional()),
  /** Temporal Cloud's API key, sent as an HTTP/2 header: printable ASCII, no spaces. */
  TEMPORAL_API_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[\x21-\x7e]+$/, 'expected printable ASCII without spaces')
      .optional(),
  ),
};

type TemporalTlsEnv = z.infer<z.ZodObject<typeof TEMPORAL_TLS_ENV_SHAPE>>;

const TLS_SETTINGS = [
  'TEMPORAL_TLS_CA_FILE',
  'TEMPORAL_TLS_CERT_FILE',
  'TEMPORAL_TLS_KEY_FILE',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_API_KEY',
] as const;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The TLS settings and API key of the Temporal connection, their files read and checked now, so that
 * a missing file, a key that is not the certificate's or a typo in a path stops start-up with the
 * variable's name instead of failing the first call to Temporal.
 */
export function temporalSecurity(env: TemporalTlsEnv): Omit<TemporalEndpoint, 'address'> {
  const problems: string[] = [];
  const set = TLS_SETTINGS.filter((name) => env[name] !== undefined);
  if (env.TEMPORAL_TLS === false) for (const name of set) problems.push(`${name}: needs TLS, but TEMPORAL_TLS is false`);
  if (env.TEMPORAL_TLS_CERT_FILE && !env.TEMPORAL_TLS_KEY_FILE)
    problems.push('TEMPORAL_TLS_KEY_FILE: required with TEMPORAL_TLS_CERT_FILE');
  if (env.TEMPORAL_TLS_KEY_FILE && !env.TEMPORAL_TLS_CERT_FILE)
    problems.push('TEMPORAL_TLS_CERT_FILE: required with TEMPORAL_TLS_KEY_FILE');

  const ca = env.TEMPORAL_TLS_CA_FILE && readCertificates('TEMPORAL_TLS_CA_FILE', env.TEMPORAL_TLS_CA_FILE, problems);
  const crt = env.TEMPORAL_TLS_CERT_FILE && readCertificates('TEMPORAL_TLS_CERT_FILE', env.TEMPORAL_TLS_CERT_FILE, problems);
  const key = env.TEMPORAL_TLS_KEY_FILE && readPrivateKey('TEMPORAL_TLS_KEY_FILE', env.TEMPORAL_TLS_KEY_FILE, problems);
  // A chain's first certificate is the client's own.
  if (crt && key && !new X509Certificate(crt).checkPrivateKey(key.key)) {
    problems.push(`TEMPORAL_TLS_KEY_FILE: ${env.TEMPORAL_TLS_KEY_FILE} is not the key of the certificate in TEMPORAL_TLS_CERT_FILE`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  if (set.length === 0 && !env.TEMPORAL_TLS) return {};
  return {
    tls: {
      ...(ca ? { serverRootCACertificate: ca } : {}),
      ...(crt && key ? { clientCertPair: { crt, key: key.pem } } : {}),
      ...(env.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: env.TEMPORAL_TLS_SERVER_NAME } : {}),
    },
    ...(env.TEMPORAL_API_KEY ? { apiKey: env.TEMPORAL_API_KEY } : {}),
  };
}

function readPem(variable: string, path: string, problems: string[]): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (err) {
    problems.push(`${variable}: cannot read ${path}: ${(err as Error).message}`);
    return undefined;
  }
}

/** Every certificate of a PEM file (a CA bundle, a chain); X509Certificate alone would take DER and read only the first. */
function readCertificates(variable: string, path: string, problems: string[]): Buffer | undefined {
  const pem = readPem(variable, path, problems);
  if (!pem) return undefined;
  const blocks = pem.toString('utf8').match(PEM_CERTIFICATE);
  if (!blocks) {
    problems.push(`${variable}: ${path} holds no PEM certificate`);
    return undefined;
  }
  try {
    for (const block of blocks) new X509Certificate(block);
    return pem;
  } catch (err) {
    problems.push(`${variable}: ${path} holds a certificate that does not parse: ${(err as Error).message}`);
    return undefined;
  }
}

function readPrivateKey(variable: string, path: string, problems: string[]): { pem: Buffer; key: KeyObject } | undefined {
  const pem = readPem(variable, path, problems);
  if (!pem) return undefined;
  try {
    return { pem, key: createPrivateKey({ key: pem, format: 'pem' }) };
  } catch (err) {
    problems.push(`${variable}: ${path} holds no unencrypted PEM private key: ${(err as Error).message}`);
    return undefined;
  }
}
