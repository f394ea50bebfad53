import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { derivedRampSimulatorKey } from '../../providers/ramp/config';

/**
 * The simulator's development signing key (secp256k1), used when there is no SIMULATOR_SECRET. Its
 * public half is RAMP_SIMULATOR_CREDENTIALS.webhookPublicKey; it signs nothing outside local development.
 */
const DEV_PRIVATE_KEY = createPrivateKey(`-----BEGIN PRIVATE KEY-----
MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgnKgW80z4zK/Vt+RvDwIi
4URZs7pWyA+Uh3BfK6Uo6HyhRANCAARPv3F+slmLDGMTPDmtdmyYEEDM4QjXt4qH
oyS6vh+k989smoNP2yYvF+6WRI2ZbYsXhlgIwPEDhi4afH2FhgMX
-----END PRIVATE KEY-----
`);

/** The key the simulator signs webhooks with: derived from SIMULATOR_SECRET, or the development key without it. */
export function rampSimulatorSigningKey(secret: string | undefined): KeyObject {
  return secret === undefined ? DEV_PRIVATE_KEY : derivedRampSimulatorKey(secret);
}

/** True when this PEM is the public half of the signing key. */
export function isPublicHalf(pem: string, signingKey: KeyObject): boolean {
  const der = (key: KeyObject) => key.export({ type: 'spki', format: 'der' });
  try {
    return der(createPublicKey(pem)).equals(der(createPublicKey(signingKey)));
  } catch {
    return false;
  }
}

/** `X-Body-Signature` as Ramp makes it: base64 DER ECDSA-SHA256 over the key-sorted compact JSON. */
export function signRampBody(body: unknown, signingKey: KeyObject): string {
  return sign('sha256', Buffer.from(stableStringify(body)), signingKey).toString('base64');
}
