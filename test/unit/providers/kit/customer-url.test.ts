/**
 * The one rule for the URLs an integrator gives in `extras` and a provider sends the customer to
 * (`https:`, or `http:` to loopback where allowed), and each adapter that passes one on applying it.
 */
import { toBuyOrderRequest } from '../../../../src/providers/banxa/transformers';
import { CUSTOMER_URL_MAX_BYTES, isCustomerUrl } from '../../../../src/providers/kit/url';
import { toWidgetParams as mercuryoWidget } from '../../../../src/providers/mercuryo/transformers';
import type { MoonpayTerms } from '../../../../src/providers/moonpay/transformers';
import { toWidgetParams as moonpayWidget } from '../../../../src/providers/moonpay/transformers';
import type { TransakConfig } from '../../../../src/providers/transak/config';
import { toWidgetParams as transakWidget } from '../../../../src/providers/transak/transformers';
import type { CreateProviderOrderRequest } from '../../../../src/providers/types';
import { currencyDictionary } from '../../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../../src/domain/currency';
import { currencyId as idOf } from '../../../helpers/currencies';

const REFUSED = [
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'ftp://wallet.example/done',
  'http://wallet.example/done',
  'https://user:secret@wallet.example/done',
  'not a url',
];
const LOOPBACK_HTTP = ['http://localhost:8080/done', 'http://app.localhost/done', 'http://127.0.0.1/done', 'http://[::1]/done'];

describe('isCustomerUrl', () => {
  test.each(REFUSED)('%s is refused', (url) => {
    expect(isCustomerUrl(url, { loopbackHttp: true })).toBe(false);
  });

  test.each(LOOPBACK_HTTP)('%s passes only where loopback http: is allowed', (url) => {
    expect(isCustomerUrl(url, { loopbackHttp: true })).toBe(true);
    expect(isCustomerUrl(url, { loopbackHttp: false })).toBe(false);
  });

  test.each(['https://wallet.example/done?x=1', 'https://127.0.0.1/done'])('%s passes', (url) => {
    expect(isCustomerUrl(url, { loopbackHttp: false })).toBe(true);
  });

  test(`at most ${CUSTOMER_URL_MAX_BYTES} bytes of UTF-8`, () => {
    const head = 'https://wallet.example/';
    expect(isCustomerUrl(`${head}${'a'.repeat(CUSTOMER_URL_MAX_BYTES - head.length)}`, { loopbackHttp: false })).toBe(true);
    expect(isCustomerUrl(`${head}${'a'.repeat(CUSTOMER_URL_MAX_BYTES - head.length + 1)}`, { loopbackHttp: false })).toBe(false);
    // é is two bytes.
    expect(isCustomerUrl(`${head}${'é'.repeat((CUSTOMER_URL_MAX_BYTES - head.length + 1) / 2)}`, { loopbackHttp: false })).toBe(false);
  });

  test.each([undefined, 42, { href: 'https://wallet.example' }])('a non-string (%p) is refused', (value) => {
    expect(isCustomerUrl(value, { loopbackHttp: true })).toBe(false);
  });
});

const order = (extras: Record<string, unknown>): CreateProviderOrderRequest => ({
  orderId: '3b0f7c2e-5d6a-5f4b-9c1d-2e8a7b6c5d4f',
  fiat: currencyDictionary.fiat(idOf('EUR')) as FiatCurrency,
  crypto: currencyDictionary.crypto(idOf('BTC', 'bitcoin')) as CryptoCurrency,
  fiatAmount: '150.00',
  walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  paymentMethod: 'card',
  country: 'DE',
  externalUserId: 'user-42',
  ip: '203.0.113.7',
  extras,
});

const transakConfig = { apiKey: 'k', referrerDomain: 'broker.example' } as TransakConfig;
const moonpayTerms = { crypto: { code: 'btc' }, fiat: { code: 'eur' }, method: { id: 'credit_debit_card' } } as MoonpayTerms;

/** The URL each adapter would send the customer to, given the order's extras. */
const passedOn: Record<string, (extras: Record<string, unknown>) => string | undefined> = {
  banxa: (extras) => toBuyOrderRequest({ ...order({ return_url: extras.url }) }, 'https://broker.example').redirectUrl,
  mercuryo: (extras) => mercuryoWidget(order({ return_url: extras.url }), { widgetId: 'w', secret: 's' }).returnUrl,
  moonpay: (extras) => moonpayWidget('pk', moonpayTerms, order({ redirect_url: extras.url })).redirectURL,
  transak: (extras) => transakWidget(order({ redirect_url: extras.url }), transakConfig).redirectURL,
};
const fallback: Record<string, string | undefined> = { banxa: 'https://broker.example' };

describe.each(Object.keys(passedOn))('%s', (provider) => {
  test.each(REFUSED)('drops %s', (url) => {
    expect(passedOn[provider]!({ url })).toBe(fallback[provider]);
  });

  test('passes an https: URL on', () => {
    expect(passedOn[provider]!({ url: 'https://wallet.example/done' })).toBe('https://wallet.example/done');
  });
});
