import { createHmac } from 'node:crypto';

/**
 * MoonPay's URL signing: base64 HMAC-SHA256, keyed with the secret key, of the query string exactly
 * as sent (leading `?`, values URL-encoded), appended last as `&signature=<URL-encoded>`.
 */
export function signWidgetQuery(secretKey: string, query: string): string {
  return createHmac('sha256', secretKey).update(query).digest('base64');
}

/** The buy widget URL for these parameters, signed; the same parameters always give the same URL. */
export function signedWidgetUrl(widgetUrl: string, secretKey: string, params: Record<string, string>): string {
  const query = `?${new URLSearchParams(params).toString()}`;
  return `${widgetUrl}${query}&signature=${encodeURIComponent(signWidgetQuery(secretKey, query))}`;
}
