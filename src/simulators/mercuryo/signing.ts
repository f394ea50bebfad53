import { createHash, createHmac } from 'node:crypto';

/** Mercuryo's v2 widget signature: `"v2:" + hex(SHA-512(address + secret + ip + merchant_transaction_id))`. */
export function signWidget(address: string, secret: string, ip: string, merchantTransactionId: string): string {
  return `v2:${createHash('sha512')
    .update(address + secret + ip + merchantTransactionId)
    .digest('hex')}`;
}

/**
 * `X-Signature` of a callback as Mercuryo documents it: hex HMAC-SHA256, keyed with the widget's
 * Sign Key, of the body with all whitespace removed (so a body's own spaces, as in its dates, are not signed).
 */
export function signCallback(signKey: string, body: string): string {
  return createHmac('sha256', signKey).update(body.replace(/\s/g, '')).digest('hex');
}

/**
 * The addresses a client may count as when Mercuryo checks the signature against "the IP of the
 * user opening the widget": IPv4-mapped IPv6 is read as IPv4, and loopback is loopback either way.
 */
export function clientIpForms(remoteAddress: string | undefined): string[] {
  if (!remoteAddress) return [];
  const ip = remoteAddress.startsWith('::ffff:') ? remoteAddress.slice('::ffff:'.length) : remoteAddress;
  return ip === '127.0.0.1' || ip === '::1' ? ['127.0.0.1', '::1'] : [ip];
}
