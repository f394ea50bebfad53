import type { Express } from 'express';
import { overrideRequestGetter } from './request-getter';

/**
 * Only an answer with a validator (ETag or Last-Modified) is ever "fresh". Express's `req.fresh`,
 * which `res.send` turns into a bodiless 304, holds any 2xx GET fresh when the request says
 * `If-None-Match: *`. That would swallow answers computed for this request alone, such as offers,
 * which are quoted and remembered all the same; those carry `no-store` and no validator, and are
 * not conditional resources. The dictionaries set an ETag and keep Express's check.
 */
export function freshOnlyWithValidator(app: Express): void {
  overrideRequestGetter<boolean>(app, 'fresh', (req, express) => {
    const res = req.res;
    if (!res || (res.getHeader('ETag') === undefined && res.getHeader('Last-Modified') === undefined)) return false;
    return express();
  });
}
