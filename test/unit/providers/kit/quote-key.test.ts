import { ALL_QUOTE_FIELDS, quoteKeyOf } from '../../../../src/providers/kit/quote-key';
import type { QuoteRequest } from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const request: QuoteRequest = {
  fiat: fiat('GBP'),
  crypto: crypto('BTC', 'bitcoin'),
  fiatAmount: '100.37',
  paymentMethod: 'card',
  country: 'GB',
  ip: '203.0.113.7',
  externalUserId: 'user=1\u0000x',
};

describe('quoteKeyOf', () => {
  test('writes field=value and a NUL per field, in the order given, an absent field empty', () => {
    const { id: fiatId } = request.fiat;
    const { id: cryptoId } = request.crypto;
    expect(quoteKeyOf(request, ALL_QUOTE_FIELDS)).toBe(
      `fiat=${fiatId}\u0000crypto=${cryptoId}\u0000fiatAmount=100.37\u0000paymentMethod=card\u0000country=GB\u0000state=\u0000ip=203.0.113.7\u0000externalUserId=user=1\u0000x\u0000`,
    );
    expect(quoteKeyOf(request, ['country', 'fiatAmount'])).toBe('country=GB\u0000fiatAmount=100.37\u0000');
    expect(quoteKeyOf(request, [])).toBe('');
  });

  test('requests alike in the fields read have one key; any difference in them another', () => {
    const fields = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod'] as const;
    expect(quoteKeyOf({ ...request, externalUserId: 'other' }, fields)).toBe(quoteKeyOf(request, fields));
    expect(quoteKeyOf({ ...request, fiatAmount: '100.370' }, fields)).not.toBe(quoteKeyOf(request, fields));
  });
});
