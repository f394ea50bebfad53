import { createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/** How long a CDP JWT is valid: CDP refuses it 120 s after `nbf`. */
export const CDP_JWT_LIFETIME_SECONDS = 120;

/** The DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A CDP secret API key as a signing key: its algorithm and the private key. */
export interface CdpSigningKey {
  alg: 'EdDSA' | 'ES256';
  privateKey: KeyObject;
}

/** An Ed25519 private key from its 32-byte seed. */
export function ed25519FromSeed(seed: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The CDP form of an Ed25519 key: base64 of the seed followed by the raw public key (64 bytes). */
export function ed25519SecretText(seed: Buffer): string {
  const publicJwk = createPublicKey(ed25519FromSeed(seed)).export({ format: 'jwk' });
  return Buffer.concat([seed, Buffer.from(publicJwk.x!, 'base64url')]).toString('base64');
}

/**
 * A CDP secret API key's secret as CDP hands it out: an Ed25519 key is base64 of 64 bytes (seed,
 * then public key); an ECDSA key is a PEM "EC PRIVATE KEY" on P-256 (`\n` written as `\\n` in an
 * environment variable is accepted). Undefined for anything else.
 */
export function parseCdpSecret(secret: string): CdpSigningKey | undefined {
  const text = secret.trim();
  if (text.includes('-----BEGIN')) {
    try {
      const privateKey = createPrivateKey(text.replace(/\\n/g, '\n'));
      if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return undefined;
      return { alg: 'ES256', privateKey };
    } catch {
      return undefined;
    }
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== 64) return undefined;
  try {
    const privateKey = ed25519FromSeed(bytes.subarray(0, 32));
    // The second half must be the seed's own public key, or the text is not a CDP Ed25519 key.
    const x = Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x!, 'base64url');
    return x.equals(bytes.subarray(32)) ? { alg: 'EdDSA', privateKey } : undefined;
  } catch {
    return undefined;
  }
}

/** The public half of a CDP key (the simulator verifies the broker's JWTs with it). */
export function cdpPublicKey(key: CdpSigningKey): KeyObject {
  return createPublicKey(key.privateKey);
}

export interface CdpRequest {
  method: 'GET' | 'POST';
  /** The API's host as the URL names it, with its port when it has one: `api.developer.coinbase.com`. */
  host: string;
  /** The request's path, without its query: `/onramp/v1/buy/quote`. */
  path: string;
}

/**
 * The bearer JWT of one CDP request, as CDP's own SDK makes it: header `alg`, `kid` (the key name),
 * `typ: JWT` and a random hex `nonce`; claims `sub` (the key name), `iss: "cdp"`, `aud: ["cdp_service"]`,
 * `nbf`/`iat` now, `exp` 120 s later, and `uris: ["<METHOD> <host><path>"]` binding it to the request.
 */
export function signCdpJwt(
  keyName: string,
  key: CdpSigningKey,
  request: CdpRequest,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<string> {
  return new SignJWT({ sub: keyName, iss: 'cdp', aud: ['cdp_service'], uris: [`${request.method} ${request.host}${request.path}`] })
    .setProtectedHeader({ alg: key.alg, kid: keyName, typ: 'JWT', nonce: randomBytes(16).toString('hex') })
    .setIssuedAt(nowSeconds)
    .setNotBefore(nowSeconds)
    .setExpirationTime(nowSeconds + CDP_JWT_LIFETIME_SECONDS)
    .sign(key.privateKey);
}
