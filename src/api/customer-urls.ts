import { CUSTOMER_URL_KEYS, CUSTOMER_URL_MAX_BYTES, isCustomerUrl, type CustomerUrlRule } from '../providers/kit/url';
import { bodyFields } from './params';
import { ProblemError } from './problem';

/**
 * The order's `extras` URLs that a provider sends the customer to, refused at the door rather than
 * dropped by the adapter: `https:` only, and `http:` to a loopback host in development, at most
 * CUSTOMER_URL_MAX_BYTES long.
 */
export function customerUrlsParam(rawExtras: unknown, rule: CustomerUrlRule): void {
  const extras = bodyFields(rawExtras);
  const refused = CUSTOMER_URL_KEYS.filter((key) => Object.hasOwn(extras, key) && !isCustomerUrl(extras[key], rule));
  if (refused.length === 0) return;
  const allowed = rule.loopbackHttp ? 'an https: URL, or http: to localhost' : 'an https: URL';
  throw new ProblemError(
    'validation_error',
    `${refused.map((key) => `extras.${key}`).join(' and ')} must be ${allowed}.`,
    refused.map((key) => ({ path: `extras.${key}`, message: `${allowed}, without credentials, at most ${CUSTOMER_URL_MAX_BYTES} bytes` })),
  );
}
