import express, { Router, type Express, type RequestHandler } from 'express';
import type { CatalogueService } from '../catalogue/service';
import type { IntegratorDirectory } from '../config/integrators';
import type { CurrencyDictionary } from '../domain/currency';
import type { Logger } from '../logging';
import type { OffersService } from '../offers/service';
import type { SellOffersService } from '../offers/sell-service';
import type { SellCatalogueService } from '../catalogue/sell-service';
import type { OfferStore } from '../offers/store';
import { OrderExports, type OrderExportLimits } from '../orders/export';
import type { OrderSearch } from '../orders/search';
import type { OrderService } from '../orders/service';
import type { ProviderRegistry } from '../providers/registry';
import type { ReturningCustomers } from '../ranking/returning-customers';
import type { OrderTimings } from '../temporal/order-contract';
import type { WebhookDeliveryOptions } from '../webhooks/delivery';
import { requireApiKey } from './auth';
import { DirectRoutes } from './direct-routes';
import { requestLogStep } from './request-log';
import { docsRoutes } from './openapi/docs-page';
import { errorHandler, notFoundHandler } from './problem';
import { freshOnlyWithValidator } from './freshness';
import { parseQueryOnce } from './parsed-query';
import { apiSecurityHeadersStep } from './security-headers';
import type { SignalledEvents } from './signalled-events';
import { catalogueRoutes } from './routes/catalogue';
import { customerRoutes } from './routes/customers';
import { codecRoutes, type CodecEndpointOptions } from './routes/codec';
import { dictionaryRoutes } from './routes/dictionaries';
import { healthRoutes } from './routes/health';
import { metricsRoutes } from './routes/metrics';
import { countRequestStep, routeBase } from './http-metrics';
import { httpTracing } from './tracing';
import { activeTracing } from '../tracing';
import { offerRoutes } from './routes/offers';
import { offRampCatalogueRoutes } from './routes/off-ramp-catalogue';
import { offRampOfferRoutes } from './routes/off-ramp-offers';
import type { OffersRanking } from '../ranking/offers-ranking';
import { openApiDocumentRoute } from './routes/openapi-document';
import { validateAddressRoutes } from './routes/validate-address';
import { orderWebhookRoutes } from './routes/order-webhooks';
import { operatorRoutes, type OperatorApiDependencies } from './routes/operator';
import { orderRoutes } from './routes/orders';
import { sellOrderRoutes } from './routes/sell-orders';
import { sellOfferMatcher } from '../orders/sell-placement';
import { webhookRoutes } from './routes/webhooks';
import { webhookTestRoutes } from './routes/webhook-test';

export interface AppDependencies {
  logger: Logger;
  catalogues: CatalogueService;
  /** Per-API-key rate limiting; absent when turned off. */
  rateLimiter?: RequestHandler;
  /** Each integrator's requests worked on a few at a time (src/api/integrator-admission.ts); absent: no limit. */
  admission?: RequestHandler;
  /** Per-client-IP rate limiting before authentication and on provider webhooks; absent when turned off. */
  ipRateLimiter?: RequestHandler;
  /** Express `trust proxy`: the proxies whose X-Forwarded-For is believed (none when empty or absent). */
  trustProxy?: string[];
  integrators: IntegratorDirectory;
  /** The operator API (/api/operator); absent when no operator is configured: not served. */
  operator?: OperatorApiDependencies;
  currencies: CurrencyDictionary;
  providers: ProviderRegistry;
  offers: OffersService;
  /** The providers' sell catalogues: the off-ramp dictionaries. */
  sellCatalogues: SellCatalogueService;
  /** Sell (off-ramp) offers, remembered in offerStore beside the buy ones. */
  sellOffers: SellOffersService;
  offerStore: OfferStore;
  orders: OrderService;
  /** GET /api/on_ramp/orders: the integrator's orders from Temporal visibility. */
  orderSearch: OrderSearch;
  /** Bounds of GET /api/on_ramp/orders/export. */
  orderExportLimits: OrderExportLimits;
  /** The providers each integrator's users completed orders with; DELETE /api/on_ramp/customers/{id} forgets one. */
  returningCustomers: ReturningCustomers;
  /** Ranks each offers answer (src/ranking); without it offers come unranked. */
  ranking?: OffersRanking;
  /** How POST /api/on_ramp/webhooks/test delivers (the SSRF guard and timeout of order webhooks). */
  webhookDelivery: WebhookDeliveryOptions;
  /** Provider events already signalled, so a replayed webhook is not signalled again. */
  signalledEvents: SignalledEvents;
  timings: OrderTimings;
  /** Order `extras` URLs may also be `http:` to loopback (development); otherwise `https:` only. */
  loopbackHttpUrls?: boolean;
  /** The Temporal Web UI's codec server (/codec/encode, /codec/decode); absent: not served. */
  codecEndpoint?: CodecEndpointOptions;
  /** false (METRICS_ENABLED=false): requests are not counted or timed; the middleware is not installed. */
  recordHttpMetrics?: boolean;
  /** GET /metrics on this app, with its bearer token if any; absent: not served here. */
  metricsEndpoint?: { token?: string };
  ready: () => Promise<Record<string, boolean>>;
  /** false: every request through Express's router, the hot GET routes included (tests compare both). */
  directRoutes?: boolean;
}

/**
 * The /api routes in one router, mounted first so that an API request passes few layers: the
 * per-client-IP rate limit, the OpenAPI document and provider webhooks (authenticated by their
 * signatures), which need no API key, then the API key and its rate limit, then the routes, each
 * registered straight on this router rather than on a router of its own.
 */
function apiRouter(deps: AppDependencies, direct: DirectRoutes): Router {
  const api = Router();
  // Each pair in one router layer: a layer matched costs every request that passes it.
  const base = routeBase('/api', deps.ipRateLimiter);
  api.use(base);
  openApiDocumentRoute(api);
  webhookRoutes(api, deps.providers, deps.orders, deps.signalledEvents);
  if (deps.operator) operatorRoutes(api, deps.operator);
  const keyed = requireApiKey(deps.integrators, inTurn(deps.rateLimiter, deps.admission));
  api.use(keyed);
  const dictionaries = dictionaryRoutes(api, deps.currencies);
  catalogueRoutes(api, deps.currencies, deps.catalogues, deps.providers);
  const offers = offerRoutes(api, deps.currencies, deps.offers, deps.providers, deps.ranking);
  offRampCatalogueRoutes(api, deps.currencies, deps.sellCatalogues, deps.providers);
  const sellOffers = offRampOfferRoutes(api, deps.currencies, deps.sellOffers, deps.providers);
  // The layers above that match these paths, then their route: what the router would run for them.
  for (const [path, handler] of Object.entries({ ...dictionaries, ...offers, ...sellOffers }))
    direct.add('/api', path, [base, keyed], handler);
  validateAddressRoutes(api, deps.currencies, deps.providers);
  orderRoutes(api, {
    currencies: deps.currencies,
    catalogue: deps.catalogues,
    providers: deps.providers,
    offers: deps.offerStore,
    orders: deps.orders,
    search: deps.orderSearch,
    exports: new OrderExports(deps.orderSearch, deps.orderExportLimits),
    timings: deps.timings,
    customerUrls: { loopbackHttp: deps.loopbackHttpUrls ?? false },
    ranking: deps.ranking,
  });
  sellOrderRoutes(api, {
    currencies: deps.currencies,
    providers: deps.providers,
    orders: deps.orders,
    timings: deps.timings,
    matchOffer: sellOfferMatcher(deps.offerStore),
    customerUrls: { loopbackHttp: deps.loopbackHttpUrls ?? false },
  });
  orderWebhookRoutes(api, deps.orders, deps.webhookDelivery);
  webhookTestRoutes(api, deps.webhookDelivery);
  customerRoutes(api, deps.returningCustomers);
  return api;
}

/** The key's rate limit, then its admission, as one middleware (either may be absent). */
function inTurn(first?: RequestHandler, second?: RequestHandler): RequestHandler | undefined {
  if (!first || !second) return first ?? second;
  return (req, res, next) => first(req, res, (err?: unknown) => (err === undefined ? second(req, res, next) : next(err)));
}

export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  if (deps.trustProxy?.length) app.set('trust proxy', deps.trustProxy);
  // No automatic weak ETags: the dictionaries set their own, and every other answer is no-store.
  app.set('etag', false);
  freshOnlyWithValidator(app);
  parseQueryOnce(app);
  // First, so that the access log line and everything after it run inside the request's span.
  const traceRequest = activeTracing() ? httpTracing(app) : undefined;
  // The request id and access log, the HTTP metrics and the security headers in one router layer,
  // in that order: a layer matched costs every request that passes it.
  const logRequest = requestLogStep(app, deps.logger);
  const countRequest = deps.recordHttpMetrics !== false ? countRequestStep : undefined;
  const setSecurityHeaders = apiSecurityHeadersStep();
  const everyRequest: RequestHandler = function everyRequest(req, res, next) {
    logRequest(req, res);
    countRequest?.(req, res);
    setSecurityHeaders(res);
    next();
  };
  app.use(everyRequest);
  const direct = new DirectRoutes();
  direct.first(traceRequest, everyRequest);
  app.use('/api', apiRouter(deps, direct));
  healthRoutes(app, deps.ready);
  if (deps.metricsEndpoint) metricsRoutes(app, deps.metricsEndpoint);
  if (deps.codecEndpoint) codecRoutes(app, deps.codecEndpoint);
  docsRoutes(app);
  app.use(notFoundHandler);
  app.use(errorHandler);
  if (deps.directRoutes !== false) direct.install(app, errorHandler, notFoundHandler);
  return app;
}
