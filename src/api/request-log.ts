import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logging';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request id: a valid incoming X-Request-Id, or a new UUID. */
    id: string;
    /** A logger bound to the request id, made on first use. */
    log: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Request ids and access logs. The per-request child logger is only made when something logs, and
 * the access log line only when its level is enabled: a request that logs nothing costs nothing.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { configurable: true, get: () => (child ??= logger.child({ reqId: id })) });
    if (logger.isLevelEnabled('warn')) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const status = res.statusCode;
        const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
        if (!logger.isLevelEnabled(level)) return;
        logger[level](
          {
            reqId: id,
            req: { method: req.method, url: req.originalUrl },
            res: { statusCode: status },
            responseTime: Number(process.hrtime.bigint() - started) / 1e6,
          },
          'request completed',
        );
      });
    }
    next();
  };
}
