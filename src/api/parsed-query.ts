import type { Express, Request } from 'express';
import { overrideRequestGetter } from './request-getter';

const PARSED = Symbol('parsed query');

interface Parsed {
  /** The query string it was parsed from: a rewritten req.url with another one is parsed again. */
  raw: string;
  query: Request['query'];
}

type RequestWithParsed = Request & { [PARSED]?: Parsed };

/**
 * `req.query` parsed once per request. Express 5's getter parses the query string again on every
 * read, and handlers and the parameter checks read it field by field (six parses per offers
 * request). The override sits on the app's request prototype, beside Express's own getter, which
 * it calls; the object it returns is the same on every read, so it is read, not written.
 */
export function parseQueryOnce(app: Express): void {
  overrideRequestGetter<Request['query']>(app, 'query', (req, express) => {
    const kept = (req as RequestWithParsed)[PARSED];
    const at = req.url.indexOf('?');
    const raw = at === -1 ? '' : req.url.slice(at + 1);
    if (kept?.raw === raw) return kept.query;
    const query = express();
    (req as RequestWithParsed)[PARSED] = { raw, query };
    return query;
  });
}
