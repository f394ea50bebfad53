import { Router } from 'express';
import type { CurrencyDictionary } from '../../domain/currency';
import { methodNotAllowed } from '../problem';

export function dictionaryRoutes(currencies: CurrencyDictionary): Router {
  const router = Router();
  const body = JSON.stringify({ currencies: currencies.currencies });
  router
    .route('/dict/currencies')
    .get((_req, res) => {
      res.setHeader('Cache-Control', 'private, max-age=86400');
      res.type('application/json').send(body);
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
