import { rampWebhookQuery } from '../../../../src/providers/ramp/webhook-url';
import { currencyDictionary } from '../../../../src/domain/currencies';
import type { RampConfig } from '../../../../src/providers/ramp/config';
import {
  RampAssetsSchema,
  RampCountriesSchema,
  RampCurrenciesSchema,
  RampPaymentMethodsSchema,
  RampPurchaseSchema,
  RampQuoteSchema,
} from '../../../../src/providers/ramp/schemas';
import {
  checkLimits,
  findRampAsset,
  fromCatalogue,
  fromProviderOrderId,
  fromPurchase,
  fromQuote,
  onrampFiat,
  purchaseLimits,
  toProviderOrderId,
  toQuoteRequest,
  toWidgetUrl,
} from '../../../../src/providers/ramp/transformers';
import { ProviderRejectedError } from '../../../../src/providers/types';
import assetsEur from './fixtures/assets-eur.json';
import assetsGbp from './fixtures/assets-gbp.json';
import countries from './fixtures/countries.json';
import currencies from './fixtures/currencies.json';
import paymentMethods from './fixtures/payment-methods.json';
import purchase from './fixtures/purchase.json';
import quote from './fixtures/quote.json';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const EUR = fiat('EUR');
const GBP = fiat('GBP');
const eur = RampAssetsSchema.parse(assetsEur);
const gbp = RampAssetsSchema.parse(assetsGbp);

const config: RampConfig = {
  apiUrl: 'https://api.ramp.network/api',
  widgetUrl: 'https://app.ramp.network',
  hostApiKey: 'host_key_1',
  hostAppName: 'On-ramp broker',
  webhookPublicKey: '',
  brokerPublicUrl: 'https://broker.example.com',
  webhookUrlSecret: 'ramp-webhook-url-secret-0123456789abcdef',
};

describe('Ramp catalogue', () => {
  const known = onrampFiat(currencyDictionary, RampCurrenciesSchema.parse(currencies));
  const catalogue = fromCatalogue(
    currencyDictionary,
    known,
    new Map([
      ['EUR', eur],
      ['GBP', gbp],
    ]),
    RampPaymentMethodsSchema.parse(paymentMethods),
    RampCountriesSchema.parse(countries),
  );

  it('keeps the fiat currencies open for buying that the broker knows', () => {
    expect(known.map((f) => f.ticker)).toEqual(['EUR', 'GBP']);
    expect(catalogue.fiat).toEqual([EUR.id, GBP.id]);
  });

  it('maps listed assets by chain, symbol and contract, leaving out the rest', () => {
    expect(catalogue.crypto).toEqual(
      [crypto('ETH', 'ethereum').id, crypto('USDC', 'ethereum').id, crypto('USDC', 'polygon').id, crypto('BTC', 'bitcoin').id].sort(
        (a, b) => a - b,
      ),
    );
    // Disabled (SOL), hidden (TRX), unknown chain (ELROND) and a foreign contract (USDT) are not offered.
    expect(catalogue.crypto).not.toContain(crypto('SOL', 'solana').id);
    expect(catalogue.crypto).not.toContain(crypto('TRX', 'tron').id);
    expect(catalogue.crypto).not.toContain(crypto('USDT', 'ethereum').id);
  });

  it('lists countries in capitals', () => {
    expect(catalogue.countries).toEqual([{ code: 'GB' }, { code: 'DE' }, { code: 'US' }]);
  });

  it('reads a state list where one is given', () => {
    const withStates = fromCatalogue(
      currencyDictionary,
      [],
      new Map(),
      [],
      RampCountriesSchema.parse([{ code: 'us', states: ['CA', 'TX'] }]),
    );
    expect(withStates.countries).toEqual([{ code: 'US', states: ['CA', 'TX'] }]);
  });

  it('maps payment methods with the global limits of each currency and the published fee ceiling', () => {
    const byCode = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(Object.keys(byCode).sort()).toEqual(['apple_pay', 'bank_transfer', 'card', 'sepa']);
    expect(byCode.card).toEqual({
      code: 'card',
      name: 'Card',
      icon_url: null,
      fee: '3.9%',
      limits: { [EUR.id]: { min: '1.50', max: '10000.00' }, [GBP.id]: { min: '1.34', max: '8500.99' } },
    });
    expect(byCode.sepa!.limits).toEqual({ [EUR.id]: { min: '1.50', max: '10000.00' } });
    expect(byCode.bank_transfer!.limits).toEqual({ [GBP.id]: { min: '1.34', max: '8500.99' } });
  });

  it("carries an asset's own limits per currency as that crypto currency's limits, and nothing for assets at -1", () => {
    expect(catalogue.cryptoLimits).toEqual({
      [crypto('BTC', 'bitcoin').id]: { [EUR.id]: { min: '25.00', max: '10000.00' }, [GBP.id]: { min: '21.50', max: '8500.99' } },
      [crypto('USDC', 'ethereum').id]: { [EUR.id]: { min: '1.50', max: '5000.00' } },
    });
    expect(fromCatalogue(currencyDictionary, [], new Map(), [], []).cryptoLimits).toBeUndefined();
  });
});

describe('Ramp limits', () => {
  it('uses the global limits where the asset says -1', () => {
    expect(purchaseLimits(eur, findRampAsset(eur, crypto('ETH', 'ethereum'))!, EUR)).toEqual({ min: '1.50', max: '10000.00' });
    expect(purchaseLimits(eur, findRampAsset(eur, crypto('USDC', 'ethereum'))!, EUR)).toEqual({ min: '1.50', max: '5000.00' });
    expect(purchaseLimits(eur, findRampAsset(eur, crypto('BTC', 'bitcoin'))!, EUR)).toEqual({ min: '25.00', max: '10000.00' });
  });

  it('refuses an amount outside them with both bounds', () => {
    expect(() => checkLimits('20', { min: '25.00', max: '10000.00' }, EUR)).toThrow(
      expect.objectContaining({ code: 'limits', details: { minAmount: '25.00', maxAmount: '10000.00' } }),
    );
    expect(() => checkLimits('25.00', { min: '25.00', max: '10000.00' }, EUR)).not.toThrow();
  });
});

describe('Ramp quote', () => {
  const request = {
    fiat: EUR,
    crypto: crypto('ETH', 'ethereum'),
    fiatAmount: '100.00',
    paymentMethod: 'card' as const,
    country: 'DE',
    externalUserId: 'u1',
  };
  const parsed = RampQuoteSchema.parse(quote);

  it('asks for the asset by its CHAIN_SYMBOL with the fiat amount', () => {
    expect(toQuoteRequest(request, findRampAsset(eur, request.crypto)!)).toEqual({
      cryptoAssetSymbol: 'ETH_ETH',
      fiatCurrency: 'EUR',
      fiatValue: 100,
    });
  });

  it('reads the chosen method: crypto from base units, Ramp fee, and the network fee as the rest of appliedFee', () => {
    expect(fromQuote(parsed, request)).toEqual({
      fiatAmount: '100.00',
      cryptoAmount: '0.035241287436719542',
      processingFee: '2.49',
      networkFee: '0.42',
      paymentMethod: 'card',
    });
    expect(fromQuote(parsed, { ...request, paymentMethod: 'sepa' })).toMatchObject({
      cryptoAmount: '0.036000012345678901',
      processingFee: '0.99',
      networkFee: '0.41',
    });
  });

  it('refuses a method the quote has no price for', () => {
    expect(() => fromQuote(parsed, { ...request, paymentMethod: 'apple_pay' })).toThrow(ProviderRejectedError);
  });
});

describe('Ramp widget URL', () => {
  const order = {
    orderId: '6f1f2a7e-0000-5000-8000-000000000001',
    fiat: GBP,
    crypto: crypto('USDC', 'polygon'),
    fiatAmount: '250.00',
    walletAddress: '0xe2e0256d6785d49ec7badcd1d44adbd2dc3fd8b6',
    paymentMethod: 'card' as const,
    country: 'GB',
    externalUserId: 'u1',
    extras: { return_url: 'https://wallet.example.com/done' },
  };

  it('carries the purchase terms and our order id in webhookStatusUrl', () => {
    const url = new URL(toWidgetUrl(config, order, findRampAsset(eur, order.crypto)!));
    expect(url.origin).toBe('https://app.ramp.network');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      hostApiKey: 'host_key_1',
      hostAppName: 'On-ramp broker',
      defaultFlow: 'ONRAMP',
      swapAsset: 'MATIC_USDC',
      userAddress: order.walletAddress,
      fiatCurrency: 'GBP',
      fiatValue: '250.00',
      paymentMethodType: 'CARD',
      finalUrl: 'https://wallet.example.com/done',
      webhookStatusUrl: `https://broker.example.com/api/webhooks/ramp?order_id=${order.orderId}&order_mac=${rampWebhookQuery('ramp-webhook-url-secret-0123456789abcdef', order.orderId).order_mac}`,
    });
  });

  it('leaves out what the widget has no parameter for, and return URLs that are not web pages', () => {
    const url = new URL(
      toWidgetUrl(
        config,
        { ...order, paymentMethod: 'bank_transfer', extras: { return_url: 'javascript:alert(1)' } },
        findRampAsset(eur, order.crypto)!,
      ),
    );
    expect(url.searchParams.has('paymentMethodType')).toBe(false);
    expect(url.searchParams.has('finalUrl')).toBe(false);
  });
});

describe('Ramp purchase', () => {
  const parsed = RampPurchaseSchema.parse(purchase);

  it('keeps the purchase id and view token together', () => {
    expect(toProviderOrderId('abc-1', 'tok')).toBe('abc-1:tok');
    expect(fromProviderOrderId('abc-1:tok')).toEqual({ purchaseId: 'abc-1', viewToken: 'tok' });
    expect(fromProviderOrderId('no-token')).toBeUndefined();
    expect(fromProviderOrderId(':tok')).toBeUndefined();
  });

  it('reports a purchase in broker terms, with the terms it states: fiatValue is the total paid', () => {
    expect(fromPurchase('order-1', parsed, currencyDictionary, 'tok')).toEqual({
      orderId: 'order-1',
      providerOrderId: `${parsed.id}:tok`,
      providerStatus: 'PAYMENT_EXECUTED',
      status: 'processing',
      cryptoAmount: '0.03',
      reported: {
        walletAddress: '0xe2e0256d6785d49ec7badcd1d44adbd2dc3fd8b6',
        cryptoCurrency: crypto('ETH', 'ethereum').id,
        fiatCurrency: fiat('GBP').id,
        fiatAmount: '0.05',
      },
      providerOrderCreatedAt: parsed.createdAt,
    });
  });

  it('a createdAt that is not a time with its zone is left out; the purchase is still read', () => {
    for (const createdAt of ['yesterday', '2024-05-01 10:20:30']) {
      const snapshot = fromPurchase('order-1', { ...parsed, createdAt }, currencyDictionary, 'tok');
      expect(snapshot).not.toHaveProperty('providerOrderCreatedAt');
      expect(snapshot.status).toBe('processing');
    }
  });

  it('names a purchase without a view token by its id alone, so that an order holding another purchase refuses it', () => {
    const { purchaseViewToken: _token, ...withoutToken } = parsed;
    expect(fromPurchase('order-1', withoutToken, currencyDictionary, undefined).providerOrderId).toBe(parsed.id);
  });

  it('matches a token by its contract: another contract under the same symbol is null', () => {
    const usdc = {
      ...parsed,
      asset: { ...parsed.asset, symbol: 'USDC', type: 'TOKEN', decimals: 6, address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' },
    };
    expect(fromPurchase('order-1', usdc, currencyDictionary, 'tok').reported?.cryptoCurrency).toBe(crypto('USDC', 'ethereum').id);
    const lookalike = { ...usdc, asset: { ...usdc.asset, address: '0x1111111111111111111111111111111111111111' } };
    expect(fromPurchase('order-1', lookalike, currencyDictionary, 'tok').reported?.cryptoCurrency).toBeNull();
  });

  it('says why a purchase failed and treats a RETURNED event as a refund', () => {
    expect(fromPurchase('order-1', { ...parsed, status: 'CANCELLED' }, currencyDictionary, 'tok')).toMatchObject({
      status: 'failed',
      failureReason: 'cancelled_at_provider',
    });
    expect(fromPurchase('order-1', parsed, currencyDictionary, 'tok', 'RETURNED')).toMatchObject({
      status: 'refunded',
      providerStatus: 'PAYMENT_EXECUTED',
    });
  });
});
