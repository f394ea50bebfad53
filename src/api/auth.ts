import type { RequestHandler } from 'express';
import type { Integrator, IntegratorDirectory } from '../config/integrators';
import { ProblemError } from './problem';

declare module 'express-serve-static-core' {
  interface Request {
    integrator?: Integrator;
  }
}

/** `X-Api-Key: <key>` or `Authorization: Bearer <key>`. */
export function requireApiKey(directory: IntegratorDirectory): RequestHandler {
  return (req, _res, next) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1];
    const key = req.header('x-api-key') ?? bearer;
    const challenge = { 'WWW-Authenticate': 'Bearer realm="onramp-broker"' };
    if (!key) {
      next(new ProblemError('unauthorized', 'Send your API key in the X-Api-Key header.', undefined, challenge));
      return;
    }
    const integrator = directory.authenticate(key);
    if (!integrator) {
      next(new ProblemError('unauthorized', 'The API key is not valid.', undefined, challenge));
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
