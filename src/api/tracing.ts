import type { Express, Request, RequestHandler, Response } from 'express';
import { context, isSpanContextValid, propagation, trace, type Link } from '@opentelemetry/api';
import { ORDER_ID_ATTRIBUTE, SpanKind, SpanStatusCode, tracer } from '../tracing';
import { routeOf } from './http-metrics';
import { loggedPath } from './logged-url';

type Locals = { orderId?: string };

/**
 * One server span per request, the root of its trace: an integrator's or a provider's trace context
 * is not joined (a caller must not choose what the broker samples or which trace its spans land
 * in), only linked. Everything the request does (update-with-start, signals, provider calls, log
 * lines) runs inside the span. Installed only while tracing is on (src/tracing).
 */
export function httpTracing(app: Express): RequestHandler {
  const traceRequest: RequestHandler = function traceRequest(req, res, next) {
    const links = callerLink(req);
    const span = tracer().startSpan(
      req.method,
      { kind: SpanKind.SERVER, root: true, links, attributes: { 'http.request.method': req.method, 'url.path': loggedPath(req.path) } },
      context.active(),
    );
    const active = trace.setSpan(context.active(), span);
    // Body and answer events come from the socket, outside this context: bind them to it.
    context.bind(active, req);
    context.bind(active, res);
    res.once('close', () => {
      const route = routeOf(req, res);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      const orderId = (res.locals as Locals).orderId;
      if (orderId) span.setAttribute(ORDER_ID_ATTRIBUTE, orderId);
      if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(active, next);
  };
  app.use(traceRequest);
  return traceRequest;
}

function callerLink(req: Request): Link[] | undefined {
  if (!req.headers.traceparent) return undefined;
  const caller = trace.getSpanContext(propagation.extract(context.active(), req.headers));
  return caller && isSpanContextValid(caller) ? [{ context: caller, attributes: { 'onramp.link': 'caller' } }] : undefined;
}

/** The order this request is about: an attribute of its span and a field of its access log line. */
export function forOrder(res: Response, orderId: string): void {
  (res.locals as Locals).orderId = orderId;
  trace.getActiveSpan()?.setAttribute(ORDER_ID_ATTRIBUTE, orderId);
}

/** The order id a route named (./tracing.ts `forOrder`), for the access log. */
export const orderIdOf = (res: Response): string | undefined => (res.locals as Locals).orderId;
