import { createHmac, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';

/** The public half of a CDP Ed25519 secret: base64 of the 32-byte seed and the 32-byte public key. */
export function cdpPublicKey(apiKeySecret: string): KeyObject {
  const seed = Buffer.from(apiKeySecret, 'base64').subarray(0, 32);
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  return createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
}

export type JwtCheck = { ok: true } | { ok: false; message: string };

/**
 * Checks a request's bearer JWT as CDP documents it: signed by the key (EdDSA), `kid` and `sub` the
 * key's name, `iss` "cdp", inside `nbf`..`exp` and no longer than 2 minutes, and its `uris` (or the
 * older `uri`) naming this very request: `<METHOD> <host><path>`.
 */
export async function checkCdpJwt(
  authorization: string | undefined,
  keyName: string,
  publicKey: KeyObject,
  request: { method: string; host: string; path: string },
): Promise<JwtCheck> {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (!token) return { ok: false, message: 'missing bearer token' };
  try {
    const header = decodeProtectedHeader(token);
    if (header.kid !== keyName || typeof header.nonce !== 'string') return { ok: false, message: 'unknown key or no nonce' };
    const { payload } = await jwtVerify(token, publicKey, { algorithms: ['EdDSA'], issuer: 'cdp', subject: keyName });
    if (typeof payload.nbf !== 'number' || typeof payload.exp !== 'number' || payload.exp - payload.nbf > 120) {
      return { ok: false, message: 'token lifetime over 2 minutes' };
    }
    const uri = `${request.method} ${request.host}${request.path}`;
    const uris = Array.isArray(payload.uris) ? payload.uris : typeof payload.uri === 'string' ? [payload.uri] : [];
    if (!uris.includes(uri)) return { ok: false, message: `token not issued for ${uri}` };
    return { ok: true };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : 'invalid token' };
  }
}

/** The headers a webhook's `v1` binds, in order, as Coinbase's example lists them. */
export const SIGNED_HEADERS = ['content-type', 'x-hook0-id'] as const;

/**
 * `X-Hook0-Signature: t=<unix>,v0=<hex>,h=<names>,v1=<hex>`: v0 the HMAC-SHA256 (subscription
 * secret) of `<t>.<body>`, v1 that of `<t>.<h>.<header values joined by ".">.<body>`.
 */
export function hook0Signature(
  secret: string,
  body: string,
  unixSeconds: number,
  headers: Record<string, string>,
  names: readonly string[] = SIGNED_HEADERS,
): string {
  const h = names.join(' ');
  const values = names.map((n) => headers[n] ?? '').join('.');
  const v0 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${h}.${values}.${body}`).digest('hex');
  return `t=${unixSeconds},v0=${v0},h=${h},v1=${v1}`;
}
