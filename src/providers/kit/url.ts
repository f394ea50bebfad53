import { isIP } from 'node:net';

/** What a form-encoded query writes as it is: ASCII letters and digits, `*`, `-`, `.` and `_`. */
const FORM_SAFE = /^[A-Za-z0-9*._-]*$/;

/** Whether a form-encoded query writes `value` as it is. */
export function isFormSafe(value: string): boolean {
  return FORM_SAFE.test(value);
}

function formEncode(value: string): string {
  if (FORM_SAFE.test(value)) return value;
  // encodeURIComponent leaves `!'()~` as they are and writes a space as %20; the form encoding does neither.
  return encodeURIComponent(value).replace(/%20|[!'()~]/g, (c) => (c === '%20' ? '+' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
}

/**
 * `params` as a query string, exactly as `new URLSearchParams(params).toString()` writes it
 * (application/x-www-form-urlencoded), without building a URLSearchParams: that cost some 2.5 KB of
 * allocation per quote call, and an offers request makes one quote call per provider and method.
 */
export function formQuery(params: Record<string, string>): string {
  try {
    let query = '';
    for (const key of Object.keys(params)) query += `${query === '' ? '' : '&'}${formEncode(key)}=${formEncode(params[key]!)}`;
    return query;
  } catch {
    // A lone surrogate, which encodeURIComponent refuses and URLSearchParams writes as U+FFFD.
    return new URLSearchParams(params).toString();
  }
}

/** A base URL without its trailing slashes, so that paths are appended to it as `${base}/path`. */
export const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** The `extras` keys whose URL a provider sends the customer's browser to when the checkout ends. */
export const CUSTOMER_URL_KEYS = ['return_url', 'redirect_url'] as const;

/**
 * How long a customer URL may be, in bytes of UTF-8. Widget URLs carry it percent-encoded (at most
 * three characters a byte), and a widget URL must stay within the redirect URL's bound
 * (PROVIDER_TEXT_LIMITS in ./report-bounds.ts); browsers and servers commonly take 2 KiB URLs.
 */
export const CUSTOMER_URL_MAX_BYTES = 2048;

export interface CustomerUrlRule {
  /** Also `http:` to this machine (localhost, 127.0.0.0/8, ::1): development only. */
  loopbackHttp: boolean;
}

/**
 * Whether an integrator's URL may be handed to a provider as where the customer returns: `https:`
 * only (so never `javascript:`, `data:` or `file:`, which a checkout page would follow), without
 * credentials, at most CUSTOMER_URL_MAX_BYTES long, and `http:` only to a loopback host when the
 * rule allows it.
 */
export function isCustomerUrl(value: unknown, rule: CustomerUrlRule): value is string {
  if (typeof value !== 'string' || Buffer.byteLength(value) > CUSTOMER_URL_MAX_BYTES || !URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && rule.loopbackHttp && isLoopbackHost(url.hostname);
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * The rule in an adapter, which cannot tell production from development: the API has already refused
 * loopback `http:` in production (src/api/customer-urls.ts), so here it only keeps every other scheme out.
 */
export const ADAPTER_URL_RULE: CustomerUrlRule = { loopbackHttp: true };

/** `extras[key]` when it passes the adapters' rule, else undefined. */
export function customerUrl(extras: Record<string, unknown>, key: (typeof CUSTOMER_URL_KEYS)[number]): string | undefined {
  const value = extras[key];
  return isCustomerUrl(value, ADAPTER_URL_RULE) ? value : undefined;
}
