import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AUTHENTICATED, NOT_MODIFIED, ok } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI paths of the dictionary routes (./dictionaries.ts). */
export function registerDictionaryPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
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

  registry.registerPath({
    method: 'get',
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
}
