import { generateOnRampURL } from '@coinbase/cbpay-js';
import { onrampUrl, type OnrampUrlParams } from '../../../../src/providers/coinbase/onramp-url';

/**
 * Cross-check against Coinbase's own URL builder (@coinbase/cbpay-js 2.4.0, generateOnRampURL): the
 * same parameters give the same URL. That version insists on `addresses` in the URL, which a session
 * token replaces (the token carries the wallet); it is passed to it and taken out of its URL before
 * comparing, so every other name, value, encoding and the order are Coinbase's.
 */
function coinbaseUrl(params: OnrampUrlParams): string {
  const built = generateOnRampURL({
    host: 'https://pay.coinbase.com',
    addresses: { '0x1': ['base'] },
    sessionToken: params.sessionToken,
    defaultAsset: params.defaultAsset,
    defaultNetwork: params.defaultNetwork,
    presetFiatAmount: Number(params.presetFiatAmount),
    fiatCurrency: params.fiatCurrency,
    defaultPaymentMethod: params.defaultPaymentMethod,
    ...(params.redirectUrl === undefined ? {} : { redirectUrl: params.redirectUrl }),
    // Coinbase's current name for the id (the package's type still says partnerUserId); it writes any parameter it is given.
    ...({ partnerUserRef: params.partnerUserRef } as object),
  });
  const url = new URL(built);
  url.searchParams.delete('addresses');
  return url.toString();
}

const BASE: OnrampUrlParams = {
  sessionToken: 'ZWJlMDI5YTktNjU2Zi02MTk3LWI0ZTQtOGU3ZTgyODYwNjg2',
  defaultAsset: 'USDC',
  defaultNetwork: 'base',
  presetFiatAmount: '100.50',
  fiatCurrency: 'USD',
  defaultPaymentMethod: 'CARD',
  partnerUserRef: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
};

describe('the one-click-buy URL', () => {
  test.each([
    ['the usual parameters', BASE],
    ['a redirect URL with its own query', { ...BASE, redirectUrl: 'https://wallet.example/return?order=1&x=a b' }],
    ['a whole amount', { ...BASE, presetFiatAmount: '250.00' }],
    [
      'an amount with one decimal',
      { ...BASE, presetFiatAmount: '20.10', fiatCurrency: 'EUR', defaultAsset: 'ETH', defaultNetwork: 'ethereum' },
    ],
  ])("is the URL Coinbase's generateOnRampURL builds (%s)", (_name, params) => {
    expect(onrampUrl('https://pay.coinbase.com', params)).toBe(coinbaseUrl(params));
  });

  test('goes to /buy/select-asset and carries our order id as partnerUserRef', () => {
    const url = new URL(onrampUrl('https://pay.coinbase.com', BASE));
    expect(url.pathname).toBe('/buy/select-asset');
    expect(url.searchParams.get('partnerUserRef')).toBe(BASE.partnerUserRef);
    expect(url.searchParams.get('presetFiatAmount')).toBe('100.5');
  });
});
