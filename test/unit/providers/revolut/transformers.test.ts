import { currencyDictionary } from '../../../../src/domain/currencies';
import { indexConfig } from '../../../../src/providers/revolut/assets';
import { RevolutConfigSchema, RevolutOrderSchema, RevolutQuoteSchema } from '../../../../src/providers/revolut/schemas';
import {
  fromCatalogue,
  fromOrder,
  fromQuote,
  parseOrderKey,
  reportedTerms,
  resolveTerms,
  revolutOrderKey,
} from '../../../../src/providers/revolut/transformers';
import type { ProviderRejectedError } from '../../../../src/providers/types';
import { ProviderUnavailableError } from '../../../../src/providers/types';
import { cryptoOf, currencyId as idOf, fiatOf } from '../../../helpers/currencies';

const CONFIG = RevolutConfigSchema.parse({
  version: '1.0.0',
  countries: ['GB', 'FR', 'gb'],
  fiat: [
    { currency: 'GBP', min_limit: 40, max_limit: 800 },
    { currency: 'XXX', min_limit: 1, max_limit: 2 },
  ],
  crypto: [
    { id: 'BTC', currency: 'BTC', blockchain: 'BITCOIN' },
    { id: 'USDC-ETH', currency: 'USDC', blockchain: 'ETHEREUM', smartContractAddress: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' },
    // A contract the broker knows under another address: a different token.
    { id: 'USDT-ETH', currency: 'USDT', blockchain: 'ETHEREUM', smartContractAddress: '0x1111111111111111111111111111111111111111' },
    { id: 'FLR', currency: 'FLR', blockchain: 'FLARE' },
  ],
  payment_methods: ['card', 'revolut', 'bank-transfer'],
});
const index = indexConfig(currencyDictionary, CONFIG);
const GBP = fiatOf('GBP');
const BTC = cryptoOf('BTC', 'bitcoin');
const request = { fiat: GBP, crypto: BTC, fiatAmount: '100', paymentMethod: 'card', country: 'GB' };

describe('catalogue', () => {
  test('assets by blockchain and contract, limits per fiat for every method, countries once', () => {
    const catalogue = fromCatalogue(currencyDictionary, index);
    expect(catalogue.crypto.sort()).toEqual([idOf('BTC', 'bitcoin'), idOf('USDC', 'ethereum')].sort());
    expect(catalogue.fiat).toEqual([idOf('GBP')]);
    expect(catalogue.countries).toEqual([{ code: 'GB' }, { code: 'FR' }]);
    expect(catalogue.paymentMethods.map((m) => [m.code, m.limits])).toEqual([
      ['card', { [idOf('GBP')]: { min: '40', max: '800' } }],
      ['revolut_pay', { [idOf('GBP')]: { min: '40', max: '800' } }],
    ]);
  });
});

describe('terms and quotes', () => {
  test("a request in Revolut's names", () => {
    expect(resolveTerms(index, request)).toEqual({ fiat: 'GBP', crypto: 'BTC', payment: 'card', region: 'GB' });
  });

  test('refused before any call when the configuration does not offer it', () => {
    const code = (r: object) => {
      try {
        resolveTerms(index, { ...request, ...r });
      } catch (err) {
        return (err as ProviderRejectedError).code;
      }
      return undefined;
    };
    expect(code({ country: 'US' })).toBe('country');
    expect(code({ fiat: fiatOf('EUR') })).toBe('currency');
    expect(code({ crypto: cryptoOf('USDT', 'ethereum') })).toBe('currency');
    expect(code({ paymentMethod: 'apple_pay' })).toBe('payment_method');
    expect(code({ fiatAmount: '39.99' })).toBe('limits');
    expect(code({ fiatAmount: '800.01' })).toBe('limits');
  });

  test('the service fee is the processing fee; an answer about other currencies is not taken', () => {
    const terms = resolveTerms(index, request);
    const quote = RevolutQuoteSchema.parse({
      service_fee: { amount: 1.99, currency: 'GBP' },
      network_fee: { amount: 0.4, currency: 'GBP' },
      crypto: { amount: 0.00118, currencyId: 'BTC' },
      partner_fee: { amount: 0, currency: 'GBP' },
    });
    expect(fromQuote(quote, terms, '100', 'card')).toEqual({
      fiatAmount: '100',
      cryptoAmount: '0.00118',
      processingFee: '1.99',
      networkFee: '0.4',
      paymentMethod: 'card',
    });
    expect(() => fromQuote({ ...quote, network_fee: { amount: '0.4', currency: 'EUR' } }, terms, '100', 'card')).toThrow(
      ProviderUnavailableError,
    );
  });
});

describe('orders', () => {
  const answer = {
    id: '5b1c2d3e-4f50-5a6b-8c7d-9e0f1a2b3c4d',
    fiat: { amount: 97.05, currency: 'GBP' },
    crypto: { amount: 0.00118, currencyId: 'BTC' },
    fees: {
      ramp_fee: { amount: 1.99, currency: 'GBP' },
      partner_fee: { amount: 0.5, currency: 'GBP' },
      network_fee: { amount: 0.46, currency: 'GBP' },
    },
    exchange_rate: 0.0000121,
    payment: 'card',
    created_at: '2026-01-02T10:00:00Z',
    updated_at: '2026-01-02T10:05:00Z',
    status: 'FAILED',
    fail_reason: 'PAYMENT_DECLINED',
    wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  };
  const order = RevolutOrderSchema.parse(answer);

  test('the paid amount adds the fees back to the fiat amount, which excludes them', () => {
    expect(reportedTerms(currencyDictionary, index, order)).toEqual({
      walletAddress: order.wallet,
      cryptoCurrency: BTC.id,
      fiatCurrency: GBP.id,
      fiatAmount: '100',
    });
    const otherFeeCurrency = { ...order, fees: { ...order.fees, network_fee: { amount: '0.5', currency: 'EUR' } } };
    expect(reportedTerms(currencyDictionary, index, otherFeeCurrency)).not.toHaveProperty('fiatAmount');
    expect(reportedTerms(currencyDictionary, index, { ...order, crypto: { amount: '1', currencyId: 'FLR' } }).cryptoCurrency).toBeNull();
  });

  test('a snapshot named by our id and the wallet; none before the customer starts', () => {
    expect(fromOrder(order.id, order.wallet, order, currencyDictionary, index)).toMatchObject({
      orderId: order.id,
      providerOrderId: `${order.id}:${order.wallet}`,
      providerStatus: 'FAILED:PAYMENT_DECLINED',
      status: 'failed',
      failureReason: 'payment_declined',
      providerOrderCreatedAt: '2026-01-02T10:00:00.000Z',
    });
    expect(fromOrder('id-1', 'w', undefined, currencyDictionary, index)).toEqual({
      orderId: 'id-1',
      providerOrderId: 'id-1:w',
      providerStatus: 'NO_ORDER_YET',
      status: 'created',
    });
  });

  test('a created_at that is not a time is left out (webhooks read the same order); the order is still read', () => {
    for (const created_at of ['02/01/2026', 1767348000000, null]) {
      const odd = RevolutOrderSchema.parse({ ...answer, created_at });
      const snapshot = fromOrder(odd.id, odd.wallet, odd, currencyDictionary, index);
      expect(snapshot).not.toHaveProperty('providerOrderCreatedAt');
      expect(snapshot.status).toBe('failed');
    }
  });

  test('the order key splits at its first colon (wallets carry none, some carry more)', () => {
    expect(parseOrderKey(revolutOrderKey('a', 'b:c'))).toEqual({ orderId: 'a', wallet: 'b:c' });
    expect(parseOrderKey('no-colon')).toBeUndefined();
    expect(parseOrderKey(':w')).toBeUndefined();
    expect(parseOrderKey('id:')).toBeUndefined();
  });
});
