import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AUTHENTICATED, BAD_QUERY, BODY_ERRORS, ok, problem } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI path of the address validation route (./validate-address.ts). */
export function registerValidateAddressPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
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
}
