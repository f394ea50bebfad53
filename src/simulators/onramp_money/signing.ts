import { createHmac } from 'node:crypto';

/** Hex HMAC-SHA512 of the base64 payload, keyed with the API secret: Onramp.money's signature on requests and webhooks. */
export function signPayload(apiSecret: string, payload: string): string {
  return createHmac('sha512', apiSecret).update(payload).digest('hex');
}

/** The payload header of a message: base64 of `{"timestamp": <ms>, "body": <data>}`. */
export function encodePayload(body: unknown, timestamp = Date.now()): string {
  return Buffer.from(JSON.stringify({ timestamp, body })).toString('base64');
}

/** The two headers Onramp.money's webhook carries for `data`. */
export function webhookHeaders(apiSecret: string, data: unknown): Record<string, string> {
  const payload = encodePayload(data);
  return { 'x-onramp-payload': payload, 'x-onramp-signature': signPayload(apiSecret, payload) };
}
