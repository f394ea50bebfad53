import { currencyDictionary } from '../../../../src/domain/currencies';
import type { CryptoCurrency } from '../../../../src/domain/currency';
import { TRANSAK_SIMULATOR_CREDENTIALS, type TransakConfig } from '../../../../src/providers/transak/config';
import {
  TransakCountriesSchema,
  TransakCryptoCurrenciesSchema,
  TransakFiatCurrenciesSchema,
  TransakOrderResponseSchema,
  TransakOrdersResponseSchema,
  TransakQuoteSchema,
  TransakWidgetParamsSchema,
  TransakWidgetSessionSchema,
} from '../../../../src/providers/transak/schemas';
import { fromCatalogue, fromOrder, fromQuote, toQuoteParams, toWidgetParams } from '../../../../src/providers/transak/transformers';
import { ProviderRejectedError, type CreateProviderOrderRequest, type QuoteRequest } from '../../../../src/providers/types';
import countries from './fixtures/countries.json';
import cryptoCurrencies from './fixtures/crypto-currencies.json';
import fiatCurrencies from './fixtures/fiat-currencies.json';
import orderById from './fixtures/order-by-id.json';
import ordersByPartnerOrderId from './fixtures/orders-by-partner-order-id.json';
import quote from './fixtures/quote.json';
import widgetSession from './fixtures/widget-session.json';
import { cryptoOf as crypto, currencyId as idOf, fiatOf as fiat } from '../../../helpers/currencies';

const config: TransakConfig = {
  apiUrl: 'https://api-stg.transak.com',
  gatewayUrl: 'https://api-gateway-stg.transak.com',
  ...TRANSAK_SIMULATOR_CREDENTIALS,
  referrerDomain: 'broker.example',
  brokerPublicUrl: 'https://broker.example',
};

const quoteRequest = (overrides: Partial<QuoteRequest> = {}): QuoteRequest => ({
  fiat: fiat('USD'),
  crypto: crypto('ETH', 'ethereum'),
  fiatAmount: '100',
  paymentMethod: 'card',
  country: 'US',
  state: 'CA',
  externalUserId: 'user-42',
  ...overrides,
});

describe('Transak quotes', () => {
  it('asks for a BUY quote with Transak names for asset, network and payment method', () => {
    expect(toQuoteParams(quoteRequest())).toEqual({
      fiatCurrency: 'USD',
      cryptoCurrency: 'ETH',
      network: 'ethereum',
      isBuyOrSell: 'BUY',
      paymentMethod: 'credit_debit_card',
      fiatAmount: '100',
      quoteCountryCode: 'US',
    });
    expect(toQuoteParams(quoteRequest({ crypto: crypto('BTC', 'bitcoin'), paymentMethod: 'sepa' }))).toMatchObject({
      cryptoCurrency: 'BTC',
      network: 'mainnet',
      paymentMethod: 'sepa_bank_transfer',
    });
    expect(toQuoteParams(quoteRequest({ crypto: crypto('AVAX', 'avalanche') })).network).toBe('avaxcchain');
  });

  it('refuses what Transak cannot be asked for before calling it', () => {
    expect(() => toQuoteParams(quoteRequest({ paymentMethod: 'revolut_pay' }))).toThrow(
      expect.objectContaining({ code: 'payment_method' }) as Error,
    );
    const unknownChain = { ...crypto('ETH', 'ethereum'), network: 'starknet' } as CryptoCurrency;
    expect(() => toQuoteParams(quoteRequest({ crypto: unknownChain }))).toThrow(ProviderRejectedError);
  });

  it('reads the documented quote: decimal strings, network fee from the breakdown, the rest processing', () => {
    const parsed = TransakQuoteSchema.parse(quote).response;
    expect(fromQuote(parsed)).toEqual({
      fiatAmount: '100',
      cryptoAmount: '0.02812345',
      processingFee: '3.99',
      networkFee: '1.46',
      paymentMethod: 'card',
      providerQuoteId: '5b42f946-47b4-4bea-9e7e-563488d03333',
    });
  });
});

describe('Transak catalogue', () => {
  const catalogue = fromCatalogue(
    currencyDictionary,
    TransakCryptoCurrenciesSchema.parse(cryptoCurrencies).response,
    TransakFiatCurrenciesSchema.parse(fiatCurrencies).response,
    TransakCountriesSchema.parse(countries).response,
  );

  it('maps assets to broker IDs, mainnet coins by symbol, and leaves out the rest', () => {
    expect(catalogue.crypto.sort((a, b) => a - b)).toEqual(
      [idOf('BTC', 'bitcoin'), idOf('ETH', 'ethereum'), idOf('USDT', 'tron'), idOf('USDC', 'polygon'), idOf('AVAX', 'avalanche')].sort(
        (a, b) => a - b,
      ),
    );
    // a USDC with another contract, a chain the broker lacks, a disallowed and a suspended asset
    expect(catalogue.crypto).not.toContain(idOf('USDC', 'ethereum'));
    expect(catalogue.crypto).not.toContain(idOf('SOL', 'solana'));
    expect(catalogue.crypto).not.toContain(idOf('TRX', 'tron'));
  });

  it('lists allowed fiat the broker knows, and payment methods with limits per fiat ID', () => {
    expect(catalogue.fiat).toEqual([idOf('EUR'), idOf('GBP')]);
    const byCode = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(Object.keys(byCode).sort()).toEqual(['bank_transfer', 'card', 'sepa']);
    expect(byCode.card!.limits).toEqual({ [idOf('EUR')]: { min: '30', max: '3000' }, [idOf('GBP')]: { min: '25', max: '2500' } });
    expect(byCode.sepa!.limits).toEqual({ [idOf('EUR')]: { min: '25', max: '15000' } });
    expect(byCode.bank_transfer).toMatchObject({ name: 'Faster Payments', limits: { [idOf('GBP')]: { min: '20', max: '12000' } } });
    // Transak publishes no fee per method: the catalogue service reads one from a reference quote.
    expect(catalogue.paymentMethods.every((m) => m.fee === undefined)).toBe(true);
  });

  it('lists allowed countries, and US states where only some are served', () => {
    expect(catalogue.countries).toEqual([{ code: 'US', states: ['CA', 'TX'] }, { code: 'GB' }, { code: 'DE' }]);
  });
});

describe('Transak orders', () => {
  const request: CreateProviderOrderRequest = {
    orderId: '6f1c2b7e-3d4a-4e8f-9a0b-1c2d3e4f5a6b',
    fiat: fiat('EUR'),
    crypto: crypto('USDT', 'tron'),
    fiatAmount: '250.50',
    walletAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    paymentMethod: 'sepa',
    country: 'DE',
    externalUserId: 'user-42',
    extras: { redirect_url: 'https://wallet.example/done' },
  };

  it('fixes the widget to the order, with our order id as partnerOrderId', () => {
    const params = toWidgetParams(request, config);
    expect(TransakWidgetParamsSchema.parse(params)).toEqual(params);
    expect(params).toEqual({
      apiKey: TRANSAK_SIMULATOR_CREDENTIALS.apiKey,
      referrerDomain: 'broker.example',
      productsAvailed: 'BUY',
      fiatCurrency: 'EUR',
      fiatAmount: '250.50',
      cryptoCurrencyCode: 'USDT',
      network: 'tron',
      walletAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
      disableWalletAddressForm: true,
      paymentMethod: 'sepa_bank_transfer',
      partnerOrderId: request.orderId,
      partnerCustomerId: 'user-42',
      redirectURL: 'https://wallet.example/done',
    });
    expect(toWidgetParams({ ...request, extras: { redirect_url: 'javascript:alert(1)' } }, config)).not.toHaveProperty('redirectURL');
  });

  it('reads the documented widget session answer', () => {
    expect(TransakWidgetSessionSchema.parse(widgetSession).data.widgetUrl).toMatch(
      /^https:\/\/global-stg\.transak\.com\?apiKey=.+&sessionId=/,
    );
  });

  it('reads an order looked up by partnerOrderId, named by its own partnerOrderId, with the terms it states', () => {
    const [order] = TransakOrdersResponseSchema.parse(ordersByPartnerOrderId).data;
    expect(fromOrder(order!, currencyDictionary)).toEqual({
      orderId: '6f1c2b7e-3d4a-4e8f-9a0b-1c2d3e4f5a6b',
      providerOrderId: '7d8e0655-728e-458c-9c15-b3e9f2aa66ed',
      providerStatus: 'PENDING_DELIVERY_FROM_TRANSAK',
      status: 'processing',
      cryptoAmount: '0.01596979',
      reported: {
        walletAddress: '0x12d8885e0F0BFc487d93A9e3DcB5c23cB86EE9ae',
        cryptoCurrency: crypto('ETH', 'ethereum').id,
        fiatCurrency: fiat('GBP').id,
        fiatAmount: '50',
      },
      providerOrderCreatedAt: '2024-04-23T14:41:14.063Z',
    });
  });

  it("reads an order looked up by its Transak id; without a partnerOrderId (the documented example) Transak's id names it", () => {
    const order = TransakOrderResponseSchema.parse(orderById).data;
    expect(fromOrder(order, currencyDictionary)).toEqual({
      orderId: '322dc79c-fad2-4df1-bf50-b292191fc953',
      providerOrderId: '322dc79c-fad2-4df1-bf50-b292191fc953',
      providerStatus: 'COMPLETED',
      status: 'complete',
      cryptoAmount: '0.01788752',
      transactionHash: '0x5e1f0c4b1a9d2f7e3c8b6a4d0e9f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b',
      reported: {
        walletAddress: '0xD902d7eBF7bc5eCa9EEA22a6Ee9F1A30EBeBEFeE',
        cryptoCurrency: crypto('ETH', 'ethereum').id,
        fiatCurrency: fiat('EUR').id,
        fiatAmount: '45',
      },
      providerOrderCreatedAt: '2024-10-15T14:29:11.104Z',
    });
  });

  it('a createdAt that is not a time is left out, and the order is still read', () => {
    const order = TransakOrderResponseSchema.parse({
      data: { id: 't-1', partnerOrderId: 'o-1', status: 'COMPLETED', createdAt: { $date: 1 } },
    }).data;
    expect(fromOrder(order, currencyDictionary)).not.toHaveProperty('providerOrderCreatedAt');
    expect(fromOrder({ ...order, createdAt: 'not a time' }, currencyDictionary)).toMatchObject({ orderId: 'o-1', status: 'complete' });
    expect(fromOrder({ ...order, createdAt: 'not a time' }, currencyDictionary)).not.toHaveProperty('providerOrderCreatedAt');
  });

  it('reports only the terms an order states; a crypto currency needs its network', () => {
    const order = TransakOrderResponseSchema.parse({
      data: { id: 't-1', partnerOrderId: 'o-1', status: 'AWAITING_PAYMENT_FROM_USER' },
    }).data;
    expect(fromOrder(order, currencyDictionary)).not.toHaveProperty('reported');
    expect(fromOrder({ ...order, cryptoCurrency: 'ETH' }, currencyDictionary)).not.toHaveProperty('reported');
    expect(fromOrder({ ...order, fiatAmount: '100.5' }, currencyDictionary).reported).toEqual({ fiatAmount: '100.5' });
  });

  it('gives failed orders a reason', () => {
    const order = TransakOrderResponseSchema.parse(orderById).data;
    expect(fromOrder({ ...order, status: 'CANCELLED' }, currencyDictionary)).toMatchObject({
      status: 'failed',
      failureReason: 'cancelled',
    });
    expect(fromOrder({ ...order, status: 'FAILED' }, currencyDictionary)).toMatchObject({
      status: 'failed',
      failureReason: 'payment_failed',
    });
    expect(fromOrder({ ...order, status: 'EXPIRED' }, currencyDictionary)).not.toHaveProperty('failureReason');
  });
});
