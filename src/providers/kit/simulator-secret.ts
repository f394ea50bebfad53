import { createECDH, createHmac, createPrivateKey, type KeyObject } from 'node:crypto';

/**
 * Credentials of the simulated providers derived from SIMULATOR_SECRET, which the broker (API and
 * worker) and the simulator host share: each provider and purpose gets its own HMAC-SHA256 of the
 * secret, so the two sides agree without any credential being written down, and one derived value
 * reveals neither the secret nor another value.
 */
export function deriveSimulatorValue(secret: string, provider: string, purpose: string): string {
  return createHmac('sha256', secret).update(`onramp-simulator/${provider}/${purpose}`).digest('hex');
}

/** The order of secp256k1's group. */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** An EC private key on secp256k1 whose scalar is derived from the secret (Ramp signs its webhooks with one). */
export function deriveSecp256k1Key(secret: string, provider: string, purpose: string): KeyObject {
  // The derived 256-bit number, brought into the valid scalar range 1..n-1.
  const scalar = (BigInt(`0x${deriveSimulatorValue(secret, provider, purpose)}`) % (SECP256K1_ORDER - 1n)) + 1n;
  const d = Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex');
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey(); // 0x04 || x || y
  const b64 = (bytes: Buffer) => bytes.toString('base64url');
  return createPrivateKey({
    key: { kty: 'EC', crv: 'secp256k1', d: b64(d), x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)) },
    format: 'jwk',
  });
}
