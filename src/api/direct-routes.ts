import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { PROBLEM_CODES, problemType } from './problem';

/**
 * The API's hottest GET routes (the dictionaries, offers) answered without Express's router: the
 * same middleware and handlers the router would run for them, in the same order, called one after
 * the other. Express's router costs every request each layer it tries and passes (path matching,
 * the mounted router's prefix trimming, a closure or two per layer); on a cached dictionary answer
 * that was about a quarter of the API's CPU (bench/README.md, "Issue 34, first step").
 *
 * Only an exact path with GET goes this way; anything else (HEAD, another method, another spelling
 * of the path Express would also match: a trailing slash, other letter case) goes through the
 * router as before and is answered the same. test/api/direct-routes.test.ts checks that every
 * direct route answers as the router does.
 */
interface Chain {
  baseUrl: string;
  path: string;
  /** What runs before the route: the router's layers that match the path. */
  steps: RequestHandler[];
  /** The route's GET handler. */
  handler: RequestHandler;
}

/** The direct routes installed on each app, for the test that checks them against the router's. */
const installed = new WeakMap<Express, Map<string, RequestHandler[]>>();

/** The handlers a direct route of `app` runs for `url`, in order, but for the step that enters the route. */
export function directChainOf(app: Express, url: string): RequestHandler[] | undefined {
  return installed.get(app)?.get(url);
}

export class DirectRoutes {
  private readonly chains = new Map<string, Chain>();
  private before: RequestHandler[] = [];

  /** The app-level steps every request passes first (tracing, request id and log, metrics, headers). */
  first(...handlers: (RequestHandler | undefined)[]): void {
    this.before = handlers.filter((h): h is RequestHandler => h !== undefined);
  }

  /**
   * `path` under `baseUrl`: `steps` are the router's layers that match it before its route (the
   * route base, the API key), `handler` the route's own GET handler.
   */
  add(baseUrl: string, path: string, steps: RequestHandler[], handler: RequestHandler): void {
    this.chains.set(baseUrl + path, { baseUrl, path, steps, handler });
  }

  /**
   * Makes `app` answer the direct routes itself, `errorHandler` taking what their handlers pass
   * on, `notFound` what none of them answers; every other request goes to Express as before.
   */
  install(app: Express, errorHandler: ErrorRequestHandler, notFound: RequestHandler): void {
    type Handle = (req: Request, res: Response, callback?: NextFunction) => void;
    const express = app as unknown as { handle: Handle };
    const routed = express.handle.bind(app);
    const chains = new Map(
      [...this.chains].map(([url, { baseUrl, path, steps, handler }]) => [
        url,
        { baseUrl, handlers: [...this.before, ...steps, enterRoute(path), handler] },
      ]),
    );
    installed.set(app, new Map([...this.chains].map(([url, { steps, handler }]) => [url, [...this.before, ...steps, handler]])));
    express.handle = (req, res, callback) => {
      if (callback !== undefined || req.method !== 'GET') return routed(req, res, callback);
      const url = req.url;
      const at = url.indexOf('?');
      const chain = chains.get(at === -1 ? url : url.slice(0, at));
      if (chain === undefined) return routed(req, res, callback);
      // What Express's app.handle and its router set up for a route's handlers (x-powered-by is off).
      req.res = res;
      res.req = req;
      Object.setPrototypeOf(req, app.request);
      Object.setPrototypeOf(res, app.response);
      res.locals ??= Object.create(null) as Record<string, unknown>;
      req.originalUrl ??= url;
      req.baseUrl = chain.baseUrl;
      runInTurn(chain.handlers, req, res, errorHandler, notFound);
    };
  }
}

/**
 * Entering the route, as the router does once its layers before it have let the request through:
 * until then an answer (a 401, a 429) is counted and traced under the route base (`/api/*`).
 */
function enterRoute(path: string): RequestHandler {
  const route = { path };
  return (req, _res, next) => {
    req.params = {};
    (req as { route?: unknown }).route = route;
    next();
  };
}

/**
 * The last resort when the error or not-found handler itself throws (an answer already begun):
 * what Express's finalhandler does, the connection closed if the answer had started, otherwise a
 * bare 500 problem.
 */
function answerFailure(req: Request, res: Response): void {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const { status, title } = PROBLEM_CODES.internal_error;
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/problem+json');
  res.end(JSON.stringify({ type: problemType('internal_error'), title, status, code: 'internal_error' }));
}

/** Calls each handler when the one before calls next(); an error, thrown or rejected, goes to `failed`. */
function runInTurn(
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  failed: ErrorRequestHandler,
  unanswered: RequestHandler,
): void {
  let index = 0;
  let settled = false;
  const fail = (err: unknown) => {
    if (settled) return;
    settled = true;
    try {
      failed(err, req, res, ignoreNext);
    } catch {
      answerFailure(req, res);
    }
  };
  const next: NextFunction = (err?: unknown) => {
    if (settled) return;
    // Express's next('route') and next('router') skip layers; a direct route's handlers do not use them.
    if (err !== undefined && err !== null) return fail(err);
    const handler = handlers[index++];
    if (handler === undefined) {
      settled = true;
      try {
        void unanswered(req, res, ignoreNext);
      } catch {
        answerFailure(req, res);
      }
      return;
    }
    try {
      const result: unknown = handler(req, res, next);
      if (isThenable(result)) result.then(undefined, (reason: unknown) => fail(reason ?? new Error('a handler rejected without a reason')));
    } catch (thrown) {
      fail(thrown);
    }
  };
  next();
}

const ignoreNext: NextFunction = () => undefined;

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
