/**
 * The OpenAPI 3.1 document of the API, generated with @asteasolutions/zod-to-openapi from the zod
 * schemas of src/api/schemas.ts and the paths each route registers beside itself
 * (src/api/routes/*.paths.ts).
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import packageJson from '../../../package.json';
import { registerCataloguePaths } from '../routes/catalogue.paths';
import { registerCustomerPaths } from '../routes/customers.paths';
import { registerDictionaryPaths } from '../routes/dictionaries.paths';
import { registerHealthPaths } from '../routes/health.paths';
import { registerOfferPaths } from '../routes/offers.paths';
import { registerOffRampCataloguePaths } from '../routes/off-ramp-catalogue.paths';
import { registerOffRampOfferPaths } from '../routes/off-ramp-offers.paths';
import { registerSellOrderPaths } from '../routes/sell-orders.paths';
import { registerOpenApiDocumentPaths } from '../routes/openapi-document.paths';
import { registerOperatorSummaryPaths } from '../routes/operator-summaries.paths';
import { registerOrderWebhookPaths } from '../routes/order-webhooks.paths';
import { registerOperatorReviewPaths } from '../routes/operator-reviews.paths';
import { registerOrderPaths } from '../routes/orders.paths';
import { registerValidateAddressPaths } from '../routes/validate-address.paths';
import { registerWebhookPaths } from '../routes/webhooks.paths';
import { registerWebhookTestPaths } from '../routes/webhook-test.paths';
import { HEADERS } from './headers';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const DESCRIPTION = `${packageJson.description}

Every /api call except provider webhooks and the operator API needs an integrator API key, in \`X-Api-Key\` or
\`Authorization: Bearer\`; the operator API (/api/operator) needs an operator's key instead, in \`Authorization: Bearer\`
or \`X-Operator-Key\`.
Bodies and answers are JSON; amounts are decimal strings, never JSON numbers; currencies are integer IDs from
GET /api/dict/currencies, never tickers (a ticker is \`400 ticker_not_allowed\`).

Each API key may make a limited number of requests per window: answers carry the \`RateLimit\` and
\`RateLimit-Policy\` headers, and a request over the limit is \`429 rate_limited\` with \`Retry-After\`. Each client address
has a budget of its own too, on every /api route (provider webhooks included), counted before the API key is checked.

Errors are \`application/problem+json\` (RFC 9457) with a stable \`code\`. A route called with another method
answers \`405 method_not_allowed\` with \`Allow\`; an unknown path answers \`404 not_found\`. Every answer carries
\`X-Request-Id\` (send your own to correlate logs).`;

/** In the order of the document's paths, which readers of the document (and its tests) see. */
const PATH_REGISTRATIONS: ((registry: OpenAPIRegistry) => void)[] = [
  registerDictionaryPaths,
  registerCataloguePaths,
  registerValidateAddressPaths,
  registerOfferPaths,
  registerOrderPaths,
  registerOffRampCataloguePaths,
  registerOffRampOfferPaths,
  registerSellOrderPaths,
  registerWebhookTestPaths,
  registerOrderWebhookPaths,
  registerCustomerPaths,
  registerWebhookPaths,
  registerOperatorReviewPaths,
  registerOperatorSummaryPaths,
  registerOpenApiDocumentPaths,
  registerHealthPaths,
];

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
  registry.registerComponent('securitySchemes', 'OperatorKey', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An operator\'s key (ONRAMP_OPERATORS_FILE, docs/operations.md "Review queue"), never an integrator\'s: `Authorization: Bearer <key>`.',
  });
  for (const [name, header] of Object.entries(HEADERS)) registry.registerComponent('headers', name, header);
  for (const register of PATH_REGISTRATIONS) register(registry);
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
      { name: 'Off-ramp', description: 'Selling crypto for fiat: what the providers buy where, their payout methods, and sell offers.' },
      { name: 'Integrator webhooks', description: 'Tools for your webhook endpoint.' },
      { name: 'Customers', description: "Your users' data the broker keeps for ranking offers." },
      { name: 'Provider webhooks', description: 'Events from the providers.' },
      {
        name: 'Operator',
        description: 'For the team running the broker, with operator keys: the review queue, its actions, and the daily summaries.',
      },
      { name: 'Documentation', description: 'This document.' },
      { name: 'Health', description: 'Liveness and readiness, outside /api.' },
    ],
  });
  return cached;
}
