import { constants, createHash, sign, verify, type KeyObject } from 'node:crypto';

/** What Paybis's scheme signs: the lowercase hex SHA-512 of the body's exact bytes. */
const signedMessage = (body: Buffer | string) => Buffer.from(createHash('sha512').update(body).digest('hex'));

const PSS = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 } as const;

/** Paybis's `X-Request-Signature` on a webhook: base64 RSASSA-PSS (SHA-512, MGF1 SHA-512, 64-byte salt). */
export function paybisSignature(body: string, signingKey: KeyObject): string {
  return sign('sha512', signedMessage(body), { key: signingKey, ...PSS }).toString('base64');
}

/** Whether a partner's request carries its signature of the raw body (Paybis answers 403 otherwise). */
export function partnerSigned(rawBody: Buffer, signature: string | undefined, partnerKey: KeyObject): boolean {
  if (!signature || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  try {
    return verify('sha512', signedMessage(rawBody), { key: partnerKey, ...PSS }, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
