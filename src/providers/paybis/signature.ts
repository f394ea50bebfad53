import { constants, createHash, sign, verify, type KeyObject } from 'node:crypto';

/** The header Paybis reads the partner's request signature from, and sends its webhook signature in. */
export const PAYBIS_SIGNATURE_HEADER = 'x-request-signature';

/** SHA-512 of the body as lowercase hex (128 characters): what Paybis's scheme signs (docs.payb.is, "Signing Requests"). */
export const bodyDigestHex = (body: Buffer | string): string => createHash('sha512').update(body).digest('hex');

/**
 * `X-Request-Signature` of a request body: base64 of RSASSA-PSS (SHA-512, MGF1 with SHA-512, a
 * 64-byte salt) over the lowercase hex SHA-512 of the exact bytes sent. Bodiless (GET) calls carry none.
 */
export function signPaybisBody(body: Buffer | string, privateKey: KeyObject): string {
  return sign('sha512', Buffer.from(bodyDigestHex(body)), {
    key: privateKey,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: 64,
  }).toString('base64');
}

/**
 * Whether `signature` (base64) is Paybis's RSASSA-PSS SHA-512 signature of `body` under `publicKey`.
 * Paybis documents its webhook signature as RSASSA_PSS_SHA_512 without saying over what: the hex
 * digest its request scheme signs, or the raw body. Both bind the exact bytes, so either verifies;
 * the salt length is read from the signature.
 */
export function verifyPaybisSignature(body: Buffer, signature: string, publicKey: KeyObject): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  const bytes = Buffer.from(signature, 'base64');
  const options = { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO };
  try {
    return verify('sha512', Buffer.from(bodyDigestHex(body)), options, bytes) || verify('sha512', body, options, bytes);
  } catch {
    return false;
  }
}
