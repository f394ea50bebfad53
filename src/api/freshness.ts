import type { Express, Request } from 'express';
import { overrideRequestGetter } from './request-getter';

/** The entity tags of an If-None-Match list, weak prefixes dropped (GET compares weakly). */
function listedTags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter((tag) => tag !== '');
}

/**
 * Whether a GET or HEAD carrying If-None-Match may be answered 304 for an answer whose ETag is
 * `etag`: the tag, weakly compared, is in the list, or the list is `*`. Unlike Express's check, a
 * request's `Cache-Control: no-cache` does not stop it: that directive asks caches on the way to
 * revalidate with the origin, which a conditional request to the origin is. (Node's fetch adds it
 * to every request that carries If-None-Match.)
 */
function notModified(req: Request, etag: string): boolean | undefined {
  const header = req.headers['if-none-match'];
  if (typeof header !== 'string' || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
  const status = req.res?.statusCode ?? 200;
  if ((status < 200 || status >= 300) && status !== 304) return false;
  const tags = listedTags(header);
  return tags.includes('*') || tags.includes(etag.replace(/^W\//, ''));
}

/**
 * Only an answer with a validator (ETag or Last-Modified) is ever "fresh". Express's `req.fresh`,
 * which `res.send` turns into a bodiless 304, holds any 2xx GET fresh when the request says
 * `If-None-Match: *`. That would swallow answers computed for this request alone, such as offers,
 * which are quoted and remembered all the same; those carry `no-store` and no validator, and are
 * not conditional resources. The dictionaries set an ETag: their If-None-Match is answered here.
 */
export function freshOnlyWithValidator(app: Express): void {
  overrideRequestGetter<boolean>(app, 'fresh', (req, express) => {
    const res = req.res;
    const etag = res?.getHeader('ETag');
    if (typeof etag === 'string') return notModified(req, etag) ?? express();
    if (!res || res.getHeader('Last-Modified') === undefined) return false;
    return express();
  });
}
