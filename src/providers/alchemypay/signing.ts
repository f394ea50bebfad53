import { createHmac } from 'node:crypto';

/**
 * Alchemy Pay's `sign` ("API Sign", "Ramp Signature Description", "Webhook Signature"): base64
 * HMAC-SHA256, keyed with the app secret, of `timestamp + METHOD + requestPath + bodyString`.
 */
export function alchemypaySign(appSecret: string, content: string): string {
  return createHmac('sha256', appSecret).update(content, 'utf8').digest('base64');
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** Parameters as `k=v&…`: names in dictionary order, empty values left out, values as they are (not URL-encoded). */
export function sortedParams(params: Readonly<Record<string, string | undefined>>): string {
  return Object.keys(params)
    .filter((key) => !isEmpty(params[key]))
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join('&');
}

/** The fields a webhook's signature covers: every one but `signature` and `newSignature`, and none empty. */
const UNSIGNED_FIELDS = new Set(['signature', 'newSignature']);

/**
 * A JSON body as Alchemy Pay signs it: its top-level fields in dictionary order, empty values and
 * the signature fields left out, written without whitespace.
 */
export function canonicalBody(body: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(canonicalObject(body));
}

/** The body's signed fields in dictionary order (JSON.stringify keeps that order): what a POST sends. */
export function canonicalObject(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(body).sort()) {
    if (UNSIGNED_FIELDS.has(key) || isEmpty(body[key])) continue;
    sorted[key] = body[key];
  }
  return sorted;
}

/** The string an API call signs: the path with its sorted query (`?…` when there is one), then the body (POST). */
export function apiSignString(timestamp: string, method: 'GET' | 'POST', path: string, query: string, body: string): string {
  return `${timestamp}${method}${path}${query === '' ? '' : `?${query}`}${body}`;
}

/** The ramp page's fixed request path for buying, signed in place of the URL's own path. */
export const RAMP_BUY_PATH = '/index/rampPageBuy';

/** The string a buy ramp URL signs: `timestamp + "GET" + "/index/rampPageBuy?" + sorted parameters`. */
export function rampSignString(params: Readonly<Record<string, string | undefined>>): string {
  return `${params.timestamp ?? ''}GET${RAMP_BUY_PATH}?${sortedParams(params)}`;
}

/** The string a webhook signs: `timestamp + "POST" + callback path + canonical body`. */
export function webhookSignString(timestamp: string, callbackPath: string, body: Readonly<Record<string, unknown>>): string {
  return `${timestamp}POST${callbackPath}${canonicalBody(body)}`;
}
