/**
 * The Swagger UI page at /docs, browsing the OpenAPI document. It works offline: its assets are
 * served from the local swagger-ui-dist files too.
 */
import { Router, type IRouter } from 'express';
import swaggerUi from 'swagger-ui-express';
import { pageSecurityHeaders } from '../security-headers';
import { openApiDocument } from './document';

/**
 * The security headers of /docs: helmet's, with the inline styles of the Swagger UI page allowed
 * and without upgrade-insecure-requests (which would send the page's own assets to https on a
 * plain-http development server).
 */
const docsSecurityHeaders = pageSecurityHeaders({ 'style-src': ["'self'", "'unsafe-inline'"], 'upgrade-insecure-requests': null });

export function docsRoutes(app: IRouter): void {
  const document = openApiDocument();
  const options: swaggerUi.SwaggerUiOptions = {
    customSiteTitle: 'On-ramp broker API',
    swaggerOptions: { validatorUrl: null, persistAuthorization: false },
  };
  const docs = Router();
  // The page's assets are relative (./swagger-ui.css), so the page lives at /docs/.
  docs.get('/', (req, res, next) => {
    if (req.originalUrl.split('?')[0]!.endsWith('/')) return next();
    res.redirect(301, 'docs/');
  });
  docs.use(docsSecurityHeaders);
  docs.get('/', swaggerUi.setup(document, options));
  docs.use(swaggerUi.serveFiles(document, options));
  app.use('/docs', docs);
}
