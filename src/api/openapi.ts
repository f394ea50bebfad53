/**
 * The OpenAPI 3.1 document of the API, generated from the zod schemas of src/api/schemas.ts with
 * @asteasolutions/zod-to-openapi, served at GET /api/openapi.json, and the Swagger UI page at /docs
 * (served from the local swagger-ui-dist files: it needs no network).
 */
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Router, type IRouter } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { ZodType } from 'zod';
import packageJson from '../../package.json';
import * as S from './schemas';
import { methodNotAllowed } from './problem';
import { pageSecurityHeaders } from './security-headers';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const DESCRIPTION = `${packageJson.description}

Every /api call except provider webhooks needs an integrator API key, in \`X-Api-Key\` or \`Authorization: Bearer\`.
Bodies and answers are JSON; amounts are decimal strings, never JSON numbers; currencies are integer IDs from
GET /api/dict/currencies, never tickers (a ticker is \`400 ticker_not_allowed\`).

Each API key may make a limited number of requests per window: answers carry the \`RateLimit\` and
\`RateLimit-Policy\` headers, and a request over the limit is \`429 rate_limited\` with \`Retry-After\`.

Errors are \`application/problem+json\` (RFC 9457) with a stable \`code\`. A route called with another method
answers \`405 method_not_allowed\` with \`Allow\`; an unknown path answers \`404 not_found\`. Every answer carries
\`X-Request-Id\` (send your own to correlate logs).`;

// ---- headers -------------------------------------------------------------------------------------

const text = { type: 'string' } as const;
const HEADERS = {
  'X-Request-Id': { description: 'The request id: yours when you sent a valid X-Request-Id, otherwise a new UUID.', schema: text },
  ETag: { description: 'Entity tag of the answer; send it back in If-None-Match to get 304 when nothing changed.', schema: text },
  'Cache-Control': { description: '`private, max-age=86400`: load the dictionary at start-up and keep it for a day.', schema: text },
  RateLimit: {
    description: 'Requests left in the current window and seconds until it resets (IETF draft-8), e.g. `"600-in-1min"; r=597; t=42`.',
    schema: text,
  },
  'RateLimit-Policy': {
    description: 'The quota and window of this API key (IETF draft-8), e.g. `"600-in-1min"; q=600; w=60`.',
    schema: text,
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: '`Bearer realm="onramp-broker"`.', schema: text },
} as const;
type HeaderName = keyof typeof HEADERS;

const headers = (...names: HeaderName[]) =>
  Object.fromEntries(['X-Request-Id' as const, ...names].map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit', 'RateLimit-Policy'];

// ---- responses -----------------------------------------------------------------------------------

type Responses = RouteConfig['responses'];

const json = (schema: ZodType) => ({ 'application/json': { schema } });

function ok(description: string, schema: ZodType, extra: HeaderName[] = []): ResponseConfig {
  return { description, headers: headers(...RATE_LIMIT_HEADERS, ...extra), content: json(schema) };
}

function problem(status: number, description: string, extra: HeaderName[] = []): ResponseConfig {
  return {
    description,
    headers: headers(...extra),
    content: { 'application/problem+json': { schema: S.problemFor(status) } },
  };
}

/** Only the dictionaries carry a validator; every other answer is no-store and never 304. */
const NOT_MODIFIED: ResponseConfig = {
  description: 'Not modified: If-None-Match matched the ETag of the current answer.',
  headers: headers('ETag', 'Cache-Control'),
};

/** Answers every authenticated /api route can give. */
const AUTHENTICATED: Responses = {
  401: problem(401, '`unauthorized`: missing or invalid API key.', ['WWW-Authenticate']),
  429: problem(429, '`rate_limited`: more requests than the API key may make in the window.', ['Retry-After', ...RATE_LIMIT_HEADERS]),
  500: problem(500, '`internal_error`: an unexpected error; `request_id` identifies it in the logs.'),
};

const BAD_QUERY = (detail: string) =>
  problem(400, `\`validation_error\`, \`ticker_not_allowed\`, \`unknown_currency\` or \`state_required\`: ${detail}`);

const BODY_ERRORS: Responses = {
  413: problem(413, '`payload_too_large`: the body is over 64 KiB.'),
  415: problem(415, '`unsupported_media_type`: the body is not application/json.'),
};

// ---- the document --------------------------------------------------------------------------------

function registerRoutes(registry: OpenAPIRegistry): void {
  const get = (route: Omit<RouteConfig, 'method'>) => registry.registerPath({ method: 'get', ...route });
  const post = (route: Omit<RouteConfig, 'method'>) => registry.registerPath({ method: 'post', ...route });

  get({
    path: '/api/dict/currencies',
    operationId: 'listCurrencies',
    tags: ['Dictionaries'],
    summary: 'The currency dictionary',
    responses: {
      200: ok('Every currency.', S.CurrencyListSchema, ['ETag', 'Cache-Control']),
      304: NOT_MODIFIED,
      ...AUTHENTICATED,
    },
  });

  get({
    path: '/api/dict/countries',
    operationId: 'listCountries',
    tags: ['Dictionaries'],
    summary: 'Countries (ISO 3166-1), with their states where the broker requires one',
    responses: {
      200: ok('Every country.', S.CountryListSchema, ['ETag', 'Cache-Control']),
      304: NOT_MODIFIED,
      ...AUTHENTICATED,
    },
  });

  get({
    path: '/api/on_ramp/payment_methods',
    operationId: 'listPaymentMethods',
    tags: ['Catalogue'],
    summary: 'Payment methods the providers take for a fiat currency',
    description: 'The union over the providers (narrowed by country, state and provider_codes) of the methods taking the fiat currency.',
    request: { query: S.PaymentMethodsQuerySchema },
    responses: {
      200: ok('The payment methods, by code.', S.PaymentMethodListSchema),
      400: BAD_QUERY('a parameter is missing or malformed, the country or state does not exist, or state is given without country_code.'),
      422: problem(422, '`unsupported_pair`: fiat_currency is a crypto currency.'),
      ...AUTHENTICATED,
    },
  });

  get({
    path: '/api/on_ramp/payment_methods_extra_info',
    operationId: 'getPaymentMethodsExtraInfo',
    tags: ['Catalogue'],
    summary: "A provider's payment methods with their fees",
    request: { query: S.PaymentMethodsExtraInfoQuerySchema },
    responses: {
      200: ok("The provider's payment methods and their percentage fees.", S.PaymentMethodFeeListSchema),
      400: problem(400, '`validation_error`: provider_code is missing, or names no enabled provider.'),
      503: problem(
        503,
        '`provider_unavailable`: the provider is enabled but its catalogue has not loaded yet; repeat the request after Retry-After.',
        ['Retry-After'],
      ),
      ...AUTHENTICATED,
    },
  });

  get({
    path: '/api/on_ramp/countries',
    operationId: 'listServedCountries',
    tags: ['Catalogue'],
    summary: 'Countries served by at least one provider',
    request: { query: S.CatalogueCountriesQuerySchema },
    responses: {
      200: ok('The countries served, with the states served where the country has states.', S.ServedCountryListSchema),
      400: problem(400, '`validation_error`: `provider_codes` names a provider that is not enabled, or is given more than once.'),
      ...AUTHENTICATED,
    },
  });

  get({
    path: '/api/on_ramp/currency_pairs',
    operationId: 'listCurrencyPairs',
    tags: ['Catalogue'],
    summary: 'Per provider serving the country (and state), the currencies it sells',
    request: { query: S.CurrencyPairsQuerySchema },
    responses: {
      200: ok('One entry per provider serving the region.', S.CurrencyPairsListSchema),
      400: BAD_QUERY('country_code is missing or unknown, or the state is not one of the country.'),
      ...AUTHENTICATED,
    },
  });

  get({
    path: '/api/on_ramp/providers',
    operationId: 'listProviders',
    tags: ['Catalogue'],
    summary: 'Providers selling a currency pair in a country',
    request: { query: S.ProvidersQuerySchema },
    responses: {
      200: ok('The providers serving the region and selling the pair.', S.ProviderListSchema),
      400: BAD_QUERY('a parameter is missing or malformed, or the country or state does not exist.'),
      422: problem(422, '`unsupported_pair`: from_currency is not fiat or to_currency is not crypto.'),
      ...AUTHENTICATED,
    },
  });

  post({
    path: '/api/on_ramp/validate-address',
    operationId: 'validateAddress',
    tags: ['Addresses'],
    summary: "Checks a wallet address for a crypto currency's network and a provider",
    description: 'Answers 200 whether the address is valid or not; `reason` says why an address is not valid.',
    request: { body: { required: true, content: { 'application/json': { schema: S.ValidateAddressRequest } } } },
    responses: {
      200: ok('The verdict.', S.ValidateAddressResultSchema),
      400: BAD_QUERY('a field is missing or malformed, the currency is unknown, or the provider is unknown.'),
      ...BODY_ERRORS,
      422: problem(422, '`unsupported_pair`: currency is a fiat currency.'),
      ...AUTHENTICATED,
    },
  });

  get({
    path: '/api/on_ramp/offers',
    operationId: 'getOffers',
    tags: ['Offers'],
    summary: 'Offers of every eligible provider',
    description:
      'Asks every eligible provider for a quote, in parallel, each under its own deadline; a slow or failing provider is left out ' +
      '(listed with the reason when include_errors=true). The broker remembers every offer until its expires_at: an order is ' +
      'accepted only while a matching offer is live.',
    request: { query: S.OffersParamsSchema },
    responses: {
      200: ok('Offers keyed by provider code; `{}` when no provider can quote.', S.OffersSchema),
      400: BAD_QUERY(
        'a parameter is missing or malformed (`errors` names each), a ticker is given for a currency, the currency is unknown, or the country needs a state.',
      ),
      422: problem(422, '`unsupported_pair`: currency_from is not fiat or currency_to is not crypto.'),
      503: problem(503, '`service_unavailable`: the offer store cannot be reached.', ['Retry-After']),
      ...AUTHENTICATED,
    },
  });

  post({
    path: '/api/on_ramp/orders',
    operationId: 'createOrder',
    tags: ['Orders'],
    summary: 'Creates the order with the chosen provider',
    description:
      'Accepted only while a matching offer is live (same API key, external_user_id, provider, currencies, amount, country, state and ' +
      'payment method). Idempotent on external_order_id: repeating the request returns the same order; the same external_order_id ' +
      'with another body is `409`. Send the customer to `redirect_url`.',
    request: { body: { required: true, content: { 'application/json': { schema: S.CreateOrderRequest } } } },
    responses: {
      200: ok('The order (new, or the one this external_order_id created before).', S.Order),
      400: BAD_QUERY(
        'a field is missing or malformed (`errors` names each), the body is not JSON, a currency is a ticker or unknown, or the country needs a state.',
      ),
      409: problem(409, '`idempotency_conflict`: this external_order_id was used before with another body.'),
      ...BODY_ERRORS,
      422: problem(
        422,
        '`unsupported_pair` (a crypto currency where a fiat one belongs, or the reverse), `offer_expired` (no live offer matches), ' +
          '`invalid_wallet_address` or `provider_rejected`.',
      ),
      503: problem(
        503,
        '`service_unavailable` (Temporal cannot be reached, or the order is not created yet: repeat the request after Retry-After) ' +
          'or `provider_unavailable`.',
        ['Retry-After'],
      ),
      ...AUTHENTICATED,
    },
  });

  get({
    path: '/api/on_ramp/orders/{provider_code}',
    operationId: 'getOrder',
    tags: ['Orders'],
    summary: "An order's current state",
    description: "Answered from the order's workflow, also after the order has finished.",
    request: { params: S.OrderPathSchema, query: S.OrderStatusQuerySchema },
    responses: {
      200: ok('The order.', S.Order),
      400: problem(400, '`validation_error`: code is missing or not an order id.'),
      404: problem(404, "`not_found`: no such order at this provider for this API key's integrator."),
      503: problem(503, '`service_unavailable`: Temporal cannot be reached.', ['Retry-After']),
      ...AUTHENTICATED,
    },
  });

  post({
    path: '/api/webhooks/{provider_code}',
    operationId: 'receiveProviderWebhook',
    tags: ['Provider webhooks'],
    summary: 'Where providers send their webhooks',
    description:
      "No API key: each provider's signature (for the sandbox providers, the `Sandbox-Signature` header) is verified on the raw " +
      "body. A verified event is handed to the order's workflow before the broker answers 200, also for an order the broker does " +
      'not know (which is logged). An event already handed over, or about an order of another provider or a provider order that ' +
      'another order holds, is acknowledged with 200 and not handed over.',
    security: [],
    request: {
      params: S.WebhookPathSchema,
      body: { required: false, content: { 'application/json': { schema: S.WebhookBodySchema } } },
    },
    responses: {
      200: ok('The event was accepted.', S.WebhookReceiptSchema),
      400: problem(400, '`validation_error`: the body could not be read.'),
      401: problem(401, '`invalid_signature`: the signature does not verify.'),
      404: problem(404, '`not_found`: unknown provider.'),
      413: problem(413, '`payload_too_large`: the body is over 256 KiB.'),
      415: problem(415, '`unsupported_media_type`: unsupported Content-Encoding.'),
      422: problem(422, '`provider_rejected`: the event names only an id, and the provider does not know that order (Banxa).'),
      500: AUTHENTICATED[500]!,
      503: problem(
        503,
        '`service_unavailable`: Temporal cannot be reached; `provider_unavailable`: the provider cannot be reached to read an event that names only an id (Banxa). The provider retries.',
        ['Retry-After'],
      ),
    },
  });

  get({
    path: '/api/openapi.json',
    operationId: 'getOpenApiDocument',
    tags: ['Documentation'],
    summary: 'This document',
    description: 'No API key needed. The same document is browsable at /docs.',
    security: [],
    responses: {
      200: { description: 'The OpenAPI 3.1 document.', headers: headers(), content: json(S.OpenApiDocumentSchema) },
    },
  });

  get({
    path: '/healthz',
    operationId: 'health',
    tags: ['Health'],
    summary: 'Liveness: the process is up',
    security: [],
    responses: { 200: { description: 'Alive.', headers: headers(), content: json(S.HealthSchema) } },
  });

  get({
    path: '/readyz',
    operationId: 'readiness',
    tags: ['Health'],
    summary: 'Readiness: Temporal is reachable',
    security: [],
    responses: {
      200: { description: 'Ready.', headers: headers(), content: json(S.ReadinessSchema) },
      503: { description: 'Not ready; `checks` says what is missing.', headers: headers(), content: json(S.ReadinessSchema) },
    },
  });
}

let cached: OpenApiDocument | undefined;

/** The OpenAPI 3.1 document, generated once from the zod schemas. */
export function openApiDocument(): OpenApiDocument {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: "The integrator's API key.",
  });
  registry.registerComponent('securitySchemes', 'Bearer', {
    type: 'http',
    scheme: 'bearer',
    description: "The integrator's API key as a bearer token: `Authorization: Bearer <key>`.",
  });
  for (const [name, header] of Object.entries(HEADERS)) registry.registerComponent('headers', name, header);
  registerRoutes(registry);
  cached = new OpenApiGeneratorV31(registry.definitions, { sortComponents: 'alphabetically' }).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'On-ramp broker API',
      version: packageJson.version,
      description: DESCRIPTION,
      license: { name: packageJson.license, identifier: packageJson.license },
    },
    security: [{ ApiKey: [] }, { Bearer: [] }],
    tags: [
      { name: 'Dictionaries', description: 'Currencies and countries.' },
      { name: 'Catalogue', description: 'What the providers sell where, from their cached catalogues.' },
      { name: 'Addresses', description: 'Wallet address validation.' },
      { name: 'Offers', description: 'Quotes from every eligible provider.' },
      { name: 'Orders', description: 'Order creation and status.' },
      { name: 'Provider webhooks', description: 'Events from the providers.' },
      { name: 'Documentation', description: 'This document.' },
      { name: 'Health', description: 'Liveness and readiness, outside /api.' },
    ],
  });
  return cached;
}

/**
 * The security headers of /docs: helmet's, with the inline styles of the Swagger UI page allowed
 * and without upgrade-insecure-requests (which would send the page's own assets to https on a
 * plain-http development server).
 */
const docsSecurityHeaders = pageSecurityHeaders({ 'style-src': ["'self'", "'unsafe-inline'"], 'upgrade-insecure-requests': null });

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

/** The Swagger UI page at /docs, which works offline: its assets are served from here too. */
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
