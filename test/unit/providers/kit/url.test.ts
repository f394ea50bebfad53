import { formQuery, trimSlash } from '../../../../src/providers/kit/url';

describe('trimSlash', () => {
  test.each([
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com//', 'https://api.example.com'],
    ['http://127.0.0.1:4000/banxa/', 'http://127.0.0.1:4000/banxa'],
    ['https://api.example.com/v1.6', 'https://api.example.com/v1.6'],
    ['', ''],
  ])('%s → %s', (url, expected) => {
    expect(trimSlash(url)).toBe(expected);
  });
});

describe('formQuery', () => {
  const same = (params: Record<string, string>) => expect(formQuery(params)).toBe(new URLSearchParams(params).toString());

  test('writes a query exactly as URLSearchParams does', () => {
    same({});
    same({ fiat_currency: 'GBP', crypto_currency: 'BTC', fiat_amount: '100.50', payment_method: 'card', country: 'GB' });
    same({ 'filter[partnerOrderId]': 'a b', limit: '10' });
    same({ q: "!'()~*-._ +&=/?#%", e: 'é€😀', empty: '' });
    same({ lone: 'a\ud800b' });
  });

  test('every printable ASCII character and a few others, as keys and values', () => {
    for (let code = 0; code < 0x250; code++) {
      const c = String.fromCharCode(code);
      same({ [`k${c}`]: `v${c}w` });
    }
  });
});
