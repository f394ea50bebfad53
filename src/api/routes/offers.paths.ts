import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { AUTHENTICATED, BAD_QUERY, ok, problem } from '../openapi/responses';
import * as S from '../schemas';

/**
 * From an offer to the order that takes it (OpenAPI links; schemathesis's stateful phase follows
 * them): the order repeats the offer request's user, currencies, country and state, and the
 * sandbox offer's amount and first payment method, so that a live offer matches it.
 */
const OFFER_LINKS: NonNullable<ResponseConfig['links']> = {
  CreateOrderFromSandboxOffer: {
    operationId: 'createOrder',
    description: "Creates the order that takes the `sandbox` provider's offer.",
    requestBody: {
      provider_code: 'sandbox',
      external_user_id: '$request.query.external_user_id',
      from_currency: '$request.query.currency_from',
      to_currency: '$request.query.currency_to',
      from_amount: '$response.body#/sandbox/amount_from',
      payment_method: '$response.body#/sandbox/payment_methods/0/payment_method_code',
      country_code: '$request.query.country',
      state_code: '$request.query.state',
    },
  },
};

/** The OpenAPI path of the offers route (./offers.ts). */
export function registerOfferPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
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
      200: {
        ...ok('Offers keyed by provider code; `{}` when no provider can quote.', S.OffersSchema),
        links: OFFER_LINKS,
      },
      400: BAD_QUERY(
        'a parameter is missing or malformed (`errors` names each), a ticker is given for a currency, the currency is unknown, or the country needs a state.',
      ),
      422: problem(422, '`unsupported_pair`: currency_from is not fiat or currency_to is not crypto.'),
      503: problem(503, '`service_unavailable`: the offer store cannot be reached.', ['Retry-After']),
      ...AUTHENTICATED,
    },
  });
}
