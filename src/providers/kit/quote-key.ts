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

/** Each field's text in a key: `field=` first, `\0field=` after another field's value. */
const FIRST = Object.fromEntries(ALL_QUOTE_FIELDS.map((field) => [field, `${field}=`])) as Record<QuoteField, string>;
const NEXT = Object.fromEntries(ALL_QUOTE_FIELDS.map((field) => [field, `\u0000${field}=`])) as Record<QuoteField, string>;

/**
 * A quote request's key (ProviderAdapter.quoteKey) made of the fields the provider's quote reads:
 * two requests alike in those fields make the same call and get the same answer. Currencies count by
 * their dictionary id, from which the adapter derives its codes; the amount by its exact text.
 * Written `field=value\0` per field, in one join (a string added to field by field made an
 * intermediate string per part: about 650 bytes a quote call, against about 350).
 */
export function quoteKeyOf(request: QuoteRequest, fields: readonly QuoteField[]): string {
  if (fields.length === 0) return '';
  const parts = new Array<string>(2 * fields.length + 1);
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    parts[2 * i] = i === 0 ? FIRST[field] : NEXT[field];
    parts[2 * i + 1] = fieldValue(request, field);
  }
  parts[2 * fields.length] = '\u0000';
  return parts.join('');
}
