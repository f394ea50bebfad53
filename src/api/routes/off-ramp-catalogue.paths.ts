import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AUTHENTICATED, BAD_QUERY, ok, problem } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI paths of the off-ramp catalogue routes (./off-ramp-catalogue.ts). */
export function registerOffRampCataloguePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/off_ramp/countries',
    operationId: 'listOffRampCountries',
    tags: ['Off-ramp'],
    summary: 'Countries where at least one provider buys crypto',
    description: 'Only providers with a sell (off-ramp) flow take part.',
    request: { query: S.CatalogueCountriesQuerySchema },
    responses: {
      200: ok('The countries served, with the states served where the country has states.', S.ServedCountryListSchema),
      400: problem(400, '`validation_error`: `provider_codes` names a provider that is not enabled, or is given more than once.'),
      ...AUTHENTICATED,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/off_ramp/currency_pairs',
    operationId: 'listOffRampCurrencyPairs',
    tags: ['Off-ramp'],
    summary: 'Per provider buying crypto in the country (and state), the crypto it buys and the fiat it pays out',
    request: { query: S.CurrencyPairsQuerySchema },
    responses: {
      200: ok('One entry per provider with a sell flow serving the region.', S.CurrencyPairsListSchema),
      400: BAD_QUERY('country_code is missing or unknown, or the state is not one of the country.'),
      ...AUTHENTICATED,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/off_ramp/payout_methods',
    operationId: 'listPayoutMethods',
    tags: ['Off-ramp'],
    summary: 'How the providers pay the customer out, per provider, with payout limits per fiat currency',
    description:
      'Each provider with a sell flow serving the region (all of them without country_code) lists its payout methods for the fiat ' +
      'currency (every currency it pays out without `currency`), each with its payout limits in that currency. A rail that works ' +
      'only in its own region (ACH, SEPA) is listed only there when country_code is given.',
    request: { query: S.OffRampPayoutMethodsQuerySchema },
    responses: {
      200: ok('The payout methods, by provider and code.', S.PayoutMethodListSchema),
      400: BAD_QUERY(
        'a parameter is malformed, currency is a ticker, unknown or a crypto currency, the country or state does not exist, or state is given without country_code.',
      ),
      ...AUTHENTICATED,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/off_ramp/providers',
    operationId: 'listOffRampProviders',
    tags: ['Off-ramp'],
    summary: 'Providers buying a crypto currency for a fiat currency in a country',
    request: { query: S.OffRampProvidersQuerySchema },
    responses: {
      200: ok('The providers with a sell flow serving the region and the pair.', S.ProviderListSchema),
      400: BAD_QUERY(
        'a parameter is missing or malformed, the country or state does not exist, or from_currency is not crypto or to_currency not fiat (`validation_error` naming the field).',
      ),
      ...AUTHENTICATED,
    },
  });
}
