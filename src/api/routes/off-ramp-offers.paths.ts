import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AUTHENTICATED, BAD_QUERY, ok, problem } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI path of the sell offers route (./off-ramp-offers.ts). */
export function registerOffRampOfferPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/off_ramp/offers',
    operationId: 'getSellOffers',
    tags: ['Off-ramp'],
    summary: 'Sell offers of every eligible provider',
    description:
      'Asks every eligible provider with a sell flow for a quote, in parallel, each under its own deadline (as the on-ramp offers); a ' +
      'slow or failing provider is left out (listed with the reason when include_errors=true). The broker remembers every sell ' +
      'offer until its expires_at, apart from buy offers: a sell order is accepted only while a matching sell offer is live.',
    request: { query: S.SellOffersParamsSchema },
    responses: {
      200: ok('Sell offers keyed by provider code, the highest payout first; `{}` when no provider can quote.', S.SellOffersSchema),
      400: BAD_QUERY(
        'a parameter is missing or malformed (`errors` names each), a ticker is given for a currency, the currency is unknown, currency_from is not crypto or currency_to not fiat (`validation_error` naming the field), or the country needs a state.',
      ),
      503: problem(503, '`service_unavailable`: the offer store cannot be reached.', ['Retry-After']),
      ...AUTHENTICATED,
    },
  });
}
