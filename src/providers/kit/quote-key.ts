import type { QuoteRequest } from '../types';

/** The fields of a quote request that may reach a provider's quote call. */
export type QuoteField = 'fiat' | 'crypto' | 'fiatAmount' | 'paymentMethod' | 'country' | 'state' | 'ip' | 'externalUserId';

/** Every field: the key of an adapter that does not say which fields its quote reads. */
export const ALL_QUOTE_FIELDS: readonly QuoteField[] = [
  'fiat',
  'crypto',
  'fiatAmount',
  'paymentMethod',
  'country',
  'state',
  'ip',
  'externalUserId',
];

function fieldValue(request: QuoteRequest, field: QuoteField): string {
  switch (field) {
    case 'fiat':
      return String(request.fiat.id);
    case 'crypto':
      return String(request.crypto.id);
    default:
      return request[field] ?? '';
  }
}

/**
 * A quote request's key (ProviderAdapter.quoteKey) made of the fields the provider's quote reads:
 * two requests alike in those fields make the same call and get the same answer. Currencies count by
 * their dictionary id, from which the adapter derives its codes; the amount by its exact text.
 */
export function quoteKeyOf(request: QuoteRequest, fields: readonly QuoteField[]): string {
  let key = '';
  for (const field of fields) key += `${field}=${fieldValue(request, field)}\u0000`;
  return key;
}
