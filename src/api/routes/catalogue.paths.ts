import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AUTHENTICATED, BAD_QUERY, ok, problem } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI paths of the catalogue routes (./catalogue.ts). */
export function registerCataloguePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
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

  registry.registerPath({
    method: 'get',
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

  registry.registerPath({
    method: 'get',
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

  registry.registerPath({
    method: 'get',
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

  registry.registerPath({
    method: 'get',
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
}
