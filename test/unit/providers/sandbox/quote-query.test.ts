import { formQuery } from '../../../../src/providers/kit/url';
import { toQuoteParams, toQuoteQuery } from '../../../../src/providers/sandbox/transformers';
import type { QuoteRequest } from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

function request(overrides: Partial<QuoteRequest> = {}): QuoteRequest {
  return {
    fiat: fiat('GBP'),
    crypto: crypto('BTC', 'bitcoin'),
    fiatAmount: '100.37',
    paymentMethod: 'card',
    country: 'GB',
    externalUserId: 'user-1',
    ...overrides,
  };
}

describe('toQuoteQuery', () => {
  test.each<[string, Partial<QuoteRequest>]>([
    ['plain', {}],
    ['with a state', { country: 'US', state: 'CA' }],
    ['with an empty state', { state: '' }],
    ['an amount to encode', { fiatAmount: '1 00&x=1' }],
    ['a method to encode', { paymentMethod: "apple pay!'()~" }],
    ['a state to encode', { country: 'US', state: 'C A' }],
    ['a lone surrogate', { paymentMethod: 'card\ud800' }],
    ['non-ASCII', { country: 'Ü' }],
  ])('%s: as formQuery(toQuoteParams(request)) writes it', (_name, overrides) => {
    expect(toQuoteQuery(request(overrides))).toBe(formQuery(toQuoteParams(request(overrides))));
  });

  test('the fields in order', () => {
    expect(toQuoteQuery(request({ country: 'US', state: 'CA' }))).toBe(
      'fiat_currency=GBP&crypto_currency=BTC&network=bitcoin&fiat_amount=100.37&payment_method=card&country=US&state=CA',
    );
  });
});
