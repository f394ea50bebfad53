/**
 * Query parameters whose values an access log may carry: currencies, amounts, places, methods and
 * providers. Any other value is replaced, so a name not listed here (a capability token such as
 * Ramp's `order_mac`, an `external_user_id`, an `ip`) never reaches the log.
 */
const LOGGED_QUERY_VALUES = new Set([
  'amount_from',
  'code',
  'country',
  'country_code',
  'currency_from',
  'currency_to',
  'fiat_currency',
  'from_currency',
  'include_errors',
  'payment_method',
  'provider_code',
  'provider_codes',
  'state',
  'to_currency',
]);

const REDACTED = '[redacted]';

/**
 * The part of a path that names a customer (DELETE /api/on_ramp/customers/{external_user_id}), up to
 * its end: matched without regard to case, as Express routes.
 */
const CUSTOMER_IN_PATH = /(\/customers\/).*$/i;

/** A request path as logs and traces show it: a customer's id in it is redacted. */
export function loggedPath(path: string): string {
  return path.replace(CUSTOMER_IN_PATH, `$1${REDACTED}`);
}

/** A request URL as the access log shows it: its path, and its query with every unlisted value redacted. */
export function loggedUrl(originalUrl: string): { path: string; query?: string } {
  const mark = originalUrl.indexOf('?');
  const path = loggedPath(mark === -1 ? originalUrl : originalUrl.slice(0, mark));
  const query = [...new URLSearchParams(mark === -1 ? '' : originalUrl.slice(mark + 1))]
    .map(([name, value]) => `${encodeURIComponent(name)}=${LOGGED_QUERY_VALUES.has(name) ? encodeURIComponent(value) : REDACTED}`)
    .join('&');
  return query === '' ? { path } : { path, query };
}
