import type { Request, RequestHandler, Response } from 'express';
import { PairCache } from '../metrics/label-cache';
import { httpRequestDuration, httpRequests, statusClass } from '../metrics/metrics';
import { CounterSeries, HistogramSeries } from '../metrics/series';

/**
 * Counts and times the request by method, route template and status class when its answer is
 * sent. The route is the template that matched (`/api/on_ramp/orders/:id`), never the URL; a
 * request no route matched is `unmatched`, or `/api/*` when it was answered inside /api before a
 * route (a rate limit, an unknown key). A step of the app's first middleware (createApp).
 */
export function countRequestStep(req: Request, res: Response): void {
  const started = performance.now();
  // `on`, not `once`: an answer finishes once, and `once` wraps the listener in two more objects.
  res.on('finish', () => {
    const series = requestSeries(knownMethod(req.method), routeOf(req, res), statusClassOf(res.statusCode));
    series.count.inc();
    series.duration.observe((performance.now() - started) / 1000);
  });
}

/** A request's two metric series, made once per method, route and status class and recorded in place (src/metrics/series.ts). */
interface RequestSeries {
  count: CounterSeries;
  duration: HistogramSeries;
}

const seriesByMethod = new Map<string, PairCache<RequestSeries>>();

function requestSeries(method: string, route: string, statusClass: string): RequestSeries {
  let byRoute = seriesByMethod.get(method);
  if (!byRoute) {
    byRoute = new PairCache((route, status_class) => {
      const labels = { method, route, status_class };
      return { count: new CounterSeries(httpRequests, labels), duration: new HistogramSeries(httpRequestDuration, labels) };
    });
    seriesByMethod.set(method, byRoute);
  }
  return byRoute.get(route, statusClass);
}

/** statusClass's label by hundreds of the status (Node's statuses are 100 to 999), written once. */
const statusClasses: string[] = [];
const statusClassOf = (status: number): string => (statusClasses[Math.floor(status / 100)] ??= statusClass(status));

/** Routes as routeOf writes them, by route base and template: written once, not on every request. */
const routes = new PairCache((base, template) => base + template);

/** The route template a request matched, `unmatched`, or `<base>/*` when answered inside a router before a route. */
export function routeOf(req: Request, res: Response): string {
  const base = (res.locals as { routeBase?: string }).routeBase ?? '';
  const template = (req.route as { path?: unknown } | undefined)?.path;
  return typeof template === 'string' ? routes.get(base, template) : base ? routes.get(base, '/*') : 'unmatched';
}

/**
 * Mounted first in a router: the prefix its route templates are under (Express forgets req.baseUrl
 * once an error leaves the router). With `then`, the middleware that comes next runs in the same
 * router layer (one layer fewer for every request through the router).
 */
export function routeBase(base: string, then?: RequestHandler): RequestHandler {
  return (req, res, next) => {
    (res.locals as { routeBase?: string }).routeBase = base;
    if (then) then(req, res, next);
    else next();
  };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The method, or `other` for the rest (a client may send any token as its method). */
function knownMethod(method: string): string {
  return METHODS.has(method) ? method : 'other';
}
