import type { Express, Request, RequestHandler, Response } from 'express';
import { httpRequestDuration, httpRequests, statusClass } from '../metrics/metrics';

/**
 * Counts and times every request by method, route template and status class when its answer is
 * sent. The route is the template that matched (`/api/on_ramp/orders/:id`), never the URL; a
 * request no route matched is `unmatched`, or `/api/*` when it was answered inside /api before a
 * route (a rate limit, an unknown key).
 */
export function httpMetrics(app: Express): void {
  app.use(function countRequest(req, res, next) {
    const started = performance.now();
    res.once('finish', () => {
      const labels = { method: knownMethod(req.method), route: routeOf(req, res), status_class: statusClass(res.statusCode) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, (performance.now() - started) / 1000);
    });
    next();
  });
}

/** The route template a request matched, `unmatched`, or `<base>/*` when answered inside a router before a route. */
export function routeOf(req: Request, res: Response): string {
  const base = (res.locals as { routeBase?: string }).routeBase ?? '';
  const template = (req.route as { path?: unknown } | undefined)?.path;
  return typeof template === 'string' ? base + template : base ? `${base}/*` : 'unmatched';
}

/** Mounted first in a router: the prefix its route templates are under (Express forgets req.baseUrl once an error leaves the router). */
export function routeBase(base: string): RequestHandler {
  return (_req, res, next) => {
    (res.locals as { routeBase?: string }).routeBase = base;
    next();
  };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The method, or `other` for the rest (a client may send any token as its method). */
function knownMethod(method: string): string {
  return METHODS.has(method) ? method : 'other';
}
