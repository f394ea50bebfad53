import type { Request, RequestHandler } from 'express';
import type { Integrator, IntegratorDirectory } from '../config/integrators';
import { ProblemError } from './problem';

declare module 'express-serve-static-core' {
  interface Request {
    integrator?: Integrator;
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="onramp-broker"' };

function apiKeyOf(req: Request): string | undefined {
  const key = req.headers['x-api-key'];
  if (typeof key === 'string') return key;
  const authorization = req.headers.authorization;
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

/** `X-Api-Key: <key>` or `Authorization: Bearer <key>`. */
export function requireApiKey(directory: IntegratorDirectory): RequestHandler {
  return function requireApiKey(req, _res, next) {
    const key = apiKeyOf(req);
    if (!key) {
      next(new ProblemError('unauthorized', 'Send your API key in the X-Api-Key header.', undefined, CHALLENGE));
      return;
    }
    const integrator = directory.authenticate(key);
    if (!integrator) {
      next(new ProblemError('unauthorized', 'The API key is not valid.', undefined, CHALLENGE));
      return;
    }
    req.integrator = integrator;
    next();
  };
}

export function integratorOf(req: { integrator?: Integrator }): Integrator {
  if (!req.integrator) throw new ProblemError('unauthorized', 'The API key is not valid.');
  return req.integrator;
}
