import { createHmac, timingSafeEqual } from 'node:crypto';

/** base64 HMAC-SHA256 of `content`, keyed with the app secret: every Alchemy Pay `sign`. */
export function hmacBase64(appSecret: string, content: string): string {
  return createHmac('sha256', appSecret).update(content).digest('base64');
}

/** `a=1&b=2`: names sorted, empty values dropped. */
export function sortedPairs(params: Record<string, unknown>): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&');
}

/** A JSON object with its fields sorted and empty ones (and the signature fields) dropped, written compactly. */
export function sortedJson(body: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(body).sort()) {
    const v = body[key];
    if (key === 'signature' || key === 'newSignature' || v === undefined || v === null || v === '') continue;
    out[key] = v;
  }
  return JSON.stringify(out);
}

export function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The `newSignature` of a webhook body posted to `path` at `timestamp` (milliseconds). */
export function webhookNewSignature(appSecret: string, timestamp: string, path: string, body: Record<string, unknown>): string {
  return hmacBase64(appSecret, `${timestamp}POST${path}${sortedJson(body)}`);
}
