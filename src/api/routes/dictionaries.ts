import { createHash } from 'node:crypto';
import type { RequestHandler, Router } from 'express';
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
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.send(body);
  };
}

/** Registers the dictionary routes; answers their GET handlers by path, for the direct routes (../direct-routes.ts). */
export function dictionaryRoutes(router: Router, currencies: CurrencyDictionary): Record<string, RequestHandler> {
  const currenciesDocument = staticJson({ currencies: currencies.currencies });
  router
    .route('/dict/currencies')
    .get(currenciesDocument)
    .all(methodNotAllowed(['GET']));
  return { '/dict/currencies': currenciesDocument };
}
