import type { RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers of a JSON API answer, as OWASP's REST Security Cheat Sheet lists them:
 * a CSP that loads nothing and allows no framing, HSTS, `nosniff`, `X-Frame-Options: DENY` and
 * `Cache-Control: no-store`: offers and orders are one customer's, and a route whose answer may be
 * kept (the dictionaries) sets its own. Content-Type is each route's own. Helmet's other headers
 * govern how a browser treats an HTML page (referrers, DNS prefetch, cross-origin windows and
 * embedding, old IE downloads) and do nothing for JSON read by an integrator's server; the HTML
 * pages under /docs get them (pageSecurityHeaders).
 */
const API_HEADERS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } },
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

type CspDirectives = Extract<NonNullable<HelmetOptions['contentSecurityPolicy']>, object>['directives'];

/**
 * A middleware setting the headers helmet sets with `options`. They do not vary by request, so
 * they are taken from helmet once, and setting them from that list costs far less per request
 * than running helmet.
 */
function helmetHeaders(options: HelmetOptions, extra: [string, string][] = []): RequestHandler {
  const setHeaders = headerSetter(options, extra);
  return function securityHeaders(_req, res, next) {
    setHeaders(res);
    next();
  };
}

/** Sets on an answer the headers helmet sets with `options` (and `extra` first), taken from helmet once. */
function headerSetter(options: HelmetOptions, extra: [string, string][] = []): (res: Response) => void {
  const headers: [string, string][] = [...extra];
  const capture = {
    setHeader: (name: string, value: string | number) => void headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet(options)({} as never, capture as never, () => undefined);
  return function setSecurityHeaders(res) {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}

/** Every answer's security headers, the JSON API's set, as a step of the app's first middleware (createApp). */
export const apiSecurityHeadersStep = (): ((res: Response) => void) => headerSetter(API_HEADERS, [['Cache-Control', 'no-store']]);

/**
 * An HTML page's security headers: all of helmet's defaults, the page's own content security
 * policy directives added to helmet's default ones.
 */
export const pageSecurityHeaders = (csp: CspDirectives): RequestHandler =>
  helmetHeaders({ contentSecurityPolicy: { useDefaults: true, directives: csp } });
