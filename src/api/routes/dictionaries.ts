import { createHash } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { CurrencyDictionary } from '../../domain/currency';
import { methodNotAllowed } from '../problem';

/**
 * A fixed JSON document, encoded and hashed once: served with a 24 h cache lifetime and a strong
 * ETag, answering 304 to a matching If-None-Match (Express skips its own ETag when one is set).
 */
export function staticJson(document: unknown): RequestHandler {
  const body = Buffer.from(JSON.stringify(document));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return (_req, res) => {
    res.setHeader('Cache-Control', 'private, max-age=86400');
    res.setHeader('ETag', etag);
    res.type('application/json').send(body);
  };
}

export function dictionaryRoutes(currencies: CurrencyDictionary): Router {
  const router = Router();
  router
    .route('/dict/currencies')
    .get(staticJson({ currencies: currencies.currencies }))
    .all(methodNotAllowed(['GET']));
  return router;
}
