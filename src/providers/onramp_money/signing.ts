import { createHmac } from 'node:crypto';

/**
 * Onramp.money's request authentication (onramp.gitbook.io, every REST endpoint's "Sample Request"):
 * `X-ONRAMP-PAYLOAD` is the base64 of the JSON `{"timestamp": <ms>, "body": <request body>}`, and
 * `X-ONRAMP-SIGNATURE` the hex HMAC-SHA512 of that base64 text, keyed with the API secret.
 * Webhooks carry the same two headers (Webhook updates, "Authentication code webhook").
 */
export function onrampMoneySignature(apiSecret: string, payload: string): string {
  return createHmac('sha512', apiSecret).update(payload).digest('hex');
}

export interface SignedHeaders {
  'x-onramp-apikey': string;
  'x-onramp-payload': string;
  'x-onramp-signature': string;
}

/** The three headers of one API call whose JSON body is `body`. */
export function signedRequestHeaders(apiKey: string, apiSecret: string, body: unknown, now = Date.now()): SignedHeaders {
  const payload = Buffer.from(JSON.stringify({ timestamp: now, body }), 'utf8').toString('base64');
  return { 'x-onramp-apikey': apiKey, 'x-onramp-payload': payload, 'x-onramp-signature': onrampMoneySignature(apiSecret, payload) };
}
