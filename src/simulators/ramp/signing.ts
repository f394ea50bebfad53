import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';

/**
 * The simulator's development signing key (secp256k1). Its public half is
 * RAMP_SIMULATOR_CREDENTIALS.webhookPublicKey; it signs nothing outside local development.
 */
const DEV_PRIVATE_KEY = createPrivateKey(`-----BEGIN PRIVATE KEY-----
MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgnKgW80z4zK/Vt+RvDwIi
4URZs7pWyA+Uh3BfK6Uo6HyhRANCAARPv3F+slmLDGMTPDmtdmyYEEDM4QjXt4qH
oyS6vh+k989smoNP2yYvF+6WRI2ZbYsXhlgIwPEDhi4afH2FhgMX
-----END PRIVATE KEY-----
`);

/** True when this PEM is the public half of the simulator's signing key. */
export function isSimulatorPublicKey(pem: string): boolean {
  const der = (key: ReturnType<typeof createPublicKey>) => key.export({ type: 'spki', format: 'der' });
  try {
    return der(createPublicKey(pem)).equals(der(createPublicKey(DEV_PRIVATE_KEY)));
  } catch {
    return false;
  }
}

/** `X-Body-Signature` as Ramp makes it: base64 DER ECDSA-SHA256 over the key-sorted compact JSON. */
export function signRampBody(body: unknown): string {
  return sign('sha256', Buffer.from(stableStringify(body)), DEV_PRIVATE_KEY).toString('base64');
}
