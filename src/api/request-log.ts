import { randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import type { Logger } from '../logging';
import { loggedUrl } from './logged-url';
import { orderIdOf } from './tracing';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request id: a valid incoming X-Request-Id, or a new UUID. */
    id: string;
    /** A logger bound to the request id, made on first use. */
    log: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const CHILD_LOGGER = Symbol('request logger');

/**
 * Request ids and access logs, installed on an app. `req.log` is a getter on the app's request
 * prototype that makes the per-request child logger only when something logs, and the access log
 * line is only arranged when its level is enabled: a request that logs nothing costs a request id.
 */
export function requestLogging(app: Express, logger: Logger): void {
  const logRequest = requestLogStep(app, logger);
  app.use(function requestLog(req, res, next) {
    logRequest(req, res);
    next();
  });
}

/**
 * What requestLogging installs, as a step for a middleware of the app's own that runs it with
 * others in one router layer (createApp): `req.log` on the app's request prototype, and the step
 * that gives a request its id and arranges its access log line.
 */
export function requestLogStep(app: Express, logger: Logger): (req: Request, res: Response) => void {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request & { [CHILD_LOGGER]?: Logger }): Logger {
      return (this[CHILD_LOGGER] ??= logger.child({ reqId: this.id }));
    },
  });
  return function logRequest(req, res) {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (logger.isLevelEnabled('warn')) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const status = res.statusCode;
        const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
        if (!logger.isLevelEnabled(level)) return;
        logger[level](
          {
            reqId: id,
            ...orderField(res),
            req: { method: req.method, ...loggedUrl(req.originalUrl) },
            res: { statusCode: status },
            responseTime: Number(process.hrtime.bigint() - started) / 1e6,
          },
          'request completed',
        );
      });
    }
  };
}

function orderField(res: Response): { orderId?: string } {
  const orderId = orderIdOf(res);
  return orderId ? { orderId } : {};
}
