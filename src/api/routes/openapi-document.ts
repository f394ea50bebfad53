import type { IRouter } from 'express';
import { openApiDocument } from '../openapi/document';
import { methodNotAllowed } from '../problem';

/** GET /openapi.json on the /api router, registered before authentication: it needs no API key. */
export function openApiDocumentRoute(api: IRouter): void {
  const body = JSON.stringify(openApiDocument());
  api
    .route('/openapi.json')
    .get((_req, res) => {
      res.type('application/json').send(body);
    })
    .all(methodNotAllowed(['GET']));
}
