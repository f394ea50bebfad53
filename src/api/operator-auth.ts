import type { Request, RequestHandler } from 'express';
import type { Operator, OperatorDirectory } from '../config/operators';
import { ProblemError } from './problem';

declare module 'express-serve-static-core' {
  interface Request {
    operator?: Operator;
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="onramp-operator"' };

/**
 * The operator API's credential: `Authorization: Bearer <operator key>` (or `X-Operator-Key`), never
 * an integrator's API key (src/config/operators.ts refuses a key that is both). Sets req.operator,
 * whose id every action records.
 */
export function requireOperatorKey(directory: OperatorDirectory): RequestHandler {
  return function requireOperatorKey(req, _res, next) {
    const key = operatorKeyOf(req);
    if (!key) return next(new ProblemError('unauthorized', 'Send your operator key as a bearer token.', undefined, CHALLENGE));
    const operator = directory.authenticate(key);
    if (!operator) return next(new ProblemError('unauthorized', 'The operator key is not valid.', undefined, CHALLENGE));
    req.operator = operator;
    next();
  };
}

function operatorKeyOf(req: Request): string | undefined {
  const key = req.headers['x-operator-key'];
  if (typeof key === 'string') return key;
  const authorization = req.headers.authorization;
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

export function operatorOf(req: { operator?: Operator }): Operator {
  if (!req.operator) throw new ProblemError('unauthorized', 'The operator key is not valid.');
  return req.operator;
}
