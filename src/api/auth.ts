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

/**
 * `X-Api-Key: <key>` or `Authorization: Bearer <key>`. With `then`, the middleware that comes next
 * (the key's rate limit) runs in the same router layer once the key is accepted.
 */
export function requireApiKey(directory: IntegratorDirectory, then?: RequestHandler): RequestHandler {
  return function requireApiKey(req, res, next) {
    const refused = authenticate(directory, req);
    if (refused || !then) next(refused);
    else then(req, res, next);
  };
}

/** Sets req.integrator from the request's API key; the 401 problem when there is none or it is not valid. */
function authenticate(directory: IntegratorDirectory, req: Request): ProblemError | undefined {
  const key = apiKeyOf(req);
  if (!key) return new ProblemError('unauthorized', 'Send your API key in the X-Api-Key header.', undefined, CHALLENGE);
  const integrator = directory.authenticate(key);
  if (!integrator) return new ProblemError('unauthorized', 'The API key is not valid.', undefined, CHALLENGE);
  req.integrator = integrator;
  return undefined;
}

export function integratorOf(req: { integrator?: Integrator }): Integrator {
  if (!req.integrator) throw new ProblemError('unauthorized', 'The API key is not valid.');
  return req.integrator;
}
