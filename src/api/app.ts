import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { CatalogueService } from '../catalogue/service';
import type { IntegratorDirectory } from '../config/integrators';
import type { CurrencyDictionary } from '../domain/currency';
import type { Logger } from '../logging';
import type { OffersService } from '../offers/service';
import type { OfferStore } from '../offers/store';
import type { OrderService } from '../orders/service';
import type { ProviderRegistry } from '../providers/registry';
import type { OrderTimings } from '../temporal/shared';
import { requireApiKey } from './auth';
import { requestLogging } from './request-log';
import { openApiRoutes } from './openapi';
import { errorHandler, notFoundHandler } from './problem';
import { catalogueRoutes } from './routes/catalogue';
import { dictionaryRoutes } from './routes/dictionaries';
import { healthRoutes } from './routes/health';
import { offerRoutes } from './routes/offers';
import { validateAddressRoutes } from './routes/validate-address';
import { orderRoutes } from './routes/orders';
import { webhookRoutes } from './routes/webhooks';

export interface AppDependencies {
  logger: Logger;
  catalogues: CatalogueService;
  /** Per-API-key rate limiting; absent when turned off. */
  rateLimiter?: RequestHandler;
  integrators: IntegratorDirectory;
  currencies: CurrencyDictionary;
  providers: ProviderRegistry;
  offers: OffersService;
  offerStore: OfferStore;
  orders: OrderService;
  timings: OrderTimings;
  ready: () => Promise<Record<string, boolean>>;
}

/**
 * Helmet's headers for every answer. Helmet's defaults do not vary by request, so they are taken
 * from it once and set from that list, which costs far less per request than running helmet.
 */
function securityHeaders(): RequestHandler {
  const headers: [string, string][] = [];
  const capture = {
    setHeader: (name: string, value: string | number) => void headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet()({} as never, capture as never, () => undefined);
  return (_req, res, next) => {
    res.removeHeader('X-Powered-By');
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLogging(deps.logger));
  app.use(securityHeaders());
  app.use(healthRoutes(deps.ready));
  // GET /api/openapi.json and the docs page at /docs, without an API key.
  app.use(openApiRoutes());

  // Provider webhooks are authenticated by their signatures, not by API keys, and need the raw body.
  app.use('/api', webhookRoutes(deps.providers, deps.orders));

  app.use('/api', express.json({ limit: '64kb', type: ['application/json', 'application/*+json'] }));
  app.use('/api', requireApiKey(deps.integrators));
  if (deps.rateLimiter) app.use('/api', deps.rateLimiter);
  app.use('/api', dictionaryRoutes(deps.currencies));
  app.use('/api', catalogueRoutes(deps.currencies, deps.catalogues));
  app.use('/api', offerRoutes(deps.currencies, deps.offers));
  app.use('/api', validateAddressRoutes(deps.currencies, deps.providers));
  app.use(
    '/api',
    orderRoutes({
      currencies: deps.currencies,
      catalogue: deps.catalogues,
      providers: deps.providers,
      offers: deps.offerStore,
      orders: deps.orders,
      timings: deps.timings,
    }),
  );
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
