import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currencyDictionary } from '../../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../../src/domain/currency';
import {
  BanxaBuyOrderRequestSchema,
  BanxaCountryListSchema,
  BanxaCreatedOrderSchema,
  BanxaCryptoListSchema,
  BanxaFiatListSchema,
  BanxaOrderListSchema,
  BanxaOrderSchema,
  BanxaQuoteSchema,
  BanxaUsStatesSchema,
  BanxaWebhookSchema,
} from '../../../../src/providers/banxa/schemas';
import {
  fromCatalogue,
  fromCreatedOrder,
  fromOrder,
  fromQuote,
  fromWebhook,
  limitsRejection,
  toBuyOrderRequest,
  toQuoteParams,
} from '../../../../src/providers/banxa/transformers';
import { ProviderRejectedError, type CreateProviderOrderRequest, type QuoteRequest } from '../../../../src/providers/types';
import { currencyId as idOf } from '../../../helpers/currencies';

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8'));

const fiat = (ticker: string) => currencyDictionary.fiat(idOf(ticker)) as FiatCurrency;
const crypto = (ticker: string, network: string) => currencyDictionary.crypto(idOf(ticker, network)) as CryptoCurrency;

function quoteRequest(overrides: Partial<QuoteRequest> = {}): QuoteRequest {
  return {
    fiat: fiat('EUR'),
    crypto: crypto('USDT', 'tron'),
    fiatAmount: '150.00',
    paymentMethod: 'card',
    country: 'DE',
    externalUserId: 'user-42',
    ...overrides,
  };
}

describe('catalogue', () => {
  const catalogue = fromCatalogue(
    currencyDictionary,
    BanxaCryptoListSchema.parse(fixture('crypto.json')),
    BanxaFiatListSchema.parse(fixture('fiats.json')),
    BanxaCountryListSchema.parse(fixture('countries.json')),
    BanxaUsStatesSchema.parse(fixture('us-states.json')),
  );

  test('maps coins and blockchains to the broker IDs, leaving out unknown chains, coins and other contracts', () => {
    expect(catalogue.crypto.sort((a, b) => a - b)).toEqual(
      [
        idOf('BTC', 'bitcoin'),
        idOf('ETH', 'ethereum'),
        idOf('ETH', 'arbitrum'),
        idOf('ETH', 'base'),
        idOf('USDT', 'ethereum'),
        idOf('USDT', 'tron'),
        idOf('USDT', 'bsc'),
        idOf('USDC', 'solana'),
      ].sort((a, b) => a - b),
    );
    // USDC on MATIC is listed with the bridged contract, not the one the broker knows as USDC/polygon.
    expect(catalogue.crypto).not.toContain(idOf('USDC', 'polygon'));
  });

  test('fiat currencies the dictionary knows', () => {
    expect(catalogue.fiat).toEqual([idOf('EUR'), idOf('USD'), idOf('AUD')]);
  });

  test('countries, the US with the states Banxa serves', () => {
    expect(catalogue.countries).toEqual([{ code: 'AU' }, { code: 'DE' }, { code: 'GB' }, { code: 'US', states: ['AL', 'CA', 'TX'] }]);
  });

  test('payment methods under broker codes with limits per fiat; methods without a broker code are left out', () => {
    const byCode = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(Object.keys(byCode).sort()).toEqual(['ach', 'card', 'google_pay', 'payid', 'sepa']);
    expect(byCode.card?.limits).toEqual({ [idOf('EUR')]: { min: '20', max: '15000' }, [idOf('USD')]: { min: '20', max: '15000' } });
    expect(byCode.ach?.limits).toEqual({ [idOf('USD')]: { min: '50', max: '25000' } });
    expect(byCode.sepa).toMatchObject({
      name: 'Sepa bank transfer',
      icon_url: null,
      limits: { [idOf('EUR')]: { min: '46', max: '30000' } },
    });
  });
});

describe('quotes', () => {
  test('request parameters use Banxa codes for coin, blockchain and payment method', () => {
    expect(toQuoteParams(quoteRequest({ ip: '203.0.113.9' }))).toEqual({
      fiat: 'EUR',
      crypto: 'USDT',
      blockchain: 'TRON',
      paymentMethodId: 'debit-credit-card',
      fiatAmount: '150.00',
      externalCustomerId: 'user-42',
      ipAddress: '203.0.113.9',
    });
  });

  test('an asset on a network Banxa does not serve, or a method it does not offer, is refused before any call', () => {
    expect(() => toQuoteParams(quoteRequest({ crypto: crypto('XTZ', 'tezos') }))).toThrow(ProviderRejectedError);
    expect(() => toQuoteParams(quoteRequest({ paymentMethod: 'revolut_pay' }))).toThrow(
      expect.objectContaining({ code: 'payment_method' }) as Error,
    );
  });

  test('the documented quote becomes decimal strings with fees in fiat', () => {
    expect(fromQuote(BanxaQuoteSchema.parse(fixture('quote.json')), 'card')).toEqual({
      fiatAmount: '200.00',
      cryptoAmount: '0.03564700',
      processingFee: '0.92',
      networkFee: '1.67',
      paymentMethod: 'card',
    });
  });

  test('a refusal outside the fiat list limits is a limits error with min and max', () => {
    const fiats = BanxaFiatListSchema.parse(fixture('fiats.json'));
    const rejection = limitsRejection(fiats, quoteRequest({ fiatAmount: '10' }));
    expect(rejection).toBeInstanceOf(ProviderRejectedError);
    expect(rejection).toMatchObject({ code: 'limits', details: { minAmount: '20.00', maxAmount: '15000.00' } });
    expect(rejection?.message).toBe('amount must be between 20.00 and 15000.00 EUR');
    expect(limitsRejection(fiats, quoteRequest({ fiatAmount: '150' }))).toBeUndefined();
  });
});

describe('orders', () => {
  const request: CreateProviderOrderRequest = {
    orderId: '3b0f7c2e-5d6a-5f4b-9c1d-2e8a7b6c5d4f',
    fiat: fiat('EUR'),
    crypto: crypto('USDT', 'tron'),
    fiatAmount: '150.00',
    walletAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    paymentMethod: 'card',
    country: 'DE',
    externalUserId: 'user-42',
    extras: { return_url: 'https://wallet.example/return' },
  };

  test('the buy order carries our id as externalOrderId, the user as externalCustomerId (documented request)', () => {
    const body = toBuyOrderRequest(request, 'https://broker.example');
    expect(body).toEqual(fixture('create-order-request.json'));
    expect(BanxaBuyOrderRequestSchema.parse(body)).toEqual(body);
  });

  test("without the integrator's return_url the customer returns to the broker", () => {
    expect(toBuyOrderRequest({ ...request, extras: { return_url: 'not a url' } }, 'https://broker.example').redirectUrl).toBe(
      'https://broker.example',
    );
  });

  test('the created order answer gives the Banxa id, its status, the checkout URL and the terms it states', () => {
    const created = BanxaCreatedOrderSchema.parse(fixture('create-order-response.json'));
    expect(created.checkoutUrl).toMatch(/^https:\/\/checkout\.banxa-sandbox\.com\//);
    expect(fromCreatedOrder(created, request.orderId, currencyDictionary)).toEqual({
      orderId: request.orderId,
      providerOrderId: '6e9c1b7f8a2d4c3b9e0f1a2b3c4d5e6f',
      providerStatus: 'pendingPayment',
      status: 'created',
      cryptoAmount: '158.214',
      reported: { fiatCurrency: idOf('EUR'), fiatAmount: '150.00' },
    });
    const { status: _status, ...withoutStatus } = created;
    expect(fromCreatedOrder(withoutStatus, request.orderId, currencyDictionary)).toMatchObject({
      providerStatus: 'pendingPayment',
      status: 'created',
    });
  });

  test('a looked-up order becomes a snapshot under the externalOrderId it names, with its terms', () => {
    expect(fromOrder(BanxaOrderSchema.parse(fixture('order.json')), currencyDictionary)).toEqual({
      orderId: '9d8c7b6a-5f4e-5d3c-8b2a-1f0e9d8c7b6a',
      providerOrderId: '1a0e15cbede2cd3776617683bd35b0f0',
      providerStatus: 'complete',
      status: 'complete',
      cryptoAmount: '1.2975',
      transactionHash: '0x5ea06c4724e8119704a1b57c918acf31742eb06cdf3f8678fdb17f41bbaf968e',
      reported: {
        walletAddress: '0x75b8d4d81377d4b0f11798779563462264914a24',
        cryptoCurrency: idOf('ETH', 'ethereum'),
        fiatCurrency: idOf('USD'),
        fiatAmount: '3986',
      },
      providerOrderCreatedAt: '2025-04-07T02:36:22.000Z',
    });
  });

  test('a createdAt that is not a time (or names no zone) is left out, and the order is still read', () => {
    for (const createdAt of ['2025-04-07 02:36:22', 'soon', 1744000000]) {
      const order = BanxaOrderSchema.parse({ ...(fixture('order.json') as object), createdAt });
      expect(fromOrder(order, currencyDictionary)).toMatchObject({ status: 'complete' });
      expect(fromOrder(order, currencyDictionary)).not.toHaveProperty('providerOrderCreatedAt');
    }
  });

  test('an order naming no partner reference is no snapshot: it is never given the id asked about', () => {
    const { externalOrderId: _ref, ...order } = BanxaOrderSchema.parse(fixture('order.json'));
    expect(fromOrder(order, currencyDictionary)).toBeUndefined();
  });

  test('an order of the list carries the reference as externalId', () => {
    const [listed] = BanxaOrderListSchema.parse(fixture('order-list.json')).orders;
    expect(listed && fromOrder(listed, currencyDictionary)).toMatchObject({
      orderId: 'a4b427ccb872a1744b317456bd0d165f',
      providerStatus: 'complete',
      status: 'complete',
      cryptoAmount: '696.63',
      reported: { walletAddress: '0x75b8d4d81377d4b0f11798779563462264914a24', fiatCurrency: idOf('CAD'), fiatAmount: '1000.00' },
    });
  });

  test('reported currencies: unknown coins, chains, fiat and another contract are null', () => {
    const order = BanxaOrderSchema.parse(fixture('order.json'));
    const reported = (change: object) => fromOrder({ ...order, ...change }, currencyDictionary)?.reported;
    expect(reported({ crypto: { id: 'USDT', blockchain: 'TRON', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' } })).toMatchObject({
      cryptoCurrency: idOf('USDT', 'tron'),
    });
    expect(reported({ crypto: { id: 'USDT', blockchain: 'TRON', address: 'TSomeOtherToken000000000000000000' } })).toMatchObject({
      cryptoCurrency: null,
    });
    expect(reported({ crypto: { id: 'NOTACOIN', blockchain: 'ETH' } })).toMatchObject({ cryptoCurrency: null });
    expect(reported({ crypto: { id: 'ETH', blockchain: 'NOCHAIN' } })).toMatchObject({ cryptoCurrency: null });
    expect(reported({ fiat: 'XXX' })).toMatchObject({ fiatCurrency: null });
    expect(reported({ crypto: { id: 'ETH' }, walletAddress: null, fiat: null, fiatAmount: null })).toBeUndefined();
  });
});

describe('webhook payloads', () => {
  test('a v2 webhook is a full event on its own, with its coin and fiat; "0" is no transaction hash', () => {
    expect(fromWebhook(BanxaWebhookSchema.parse(fixture('webhook-v2.json')), undefined, currencyDictionary)).toEqual({
      orderId: '0c5f1d2e-3a4b-5c6d-8e7f-9a0b1c2d3e4f',
      providerOrderId: 'd9efc5d228cb7edfc4b6bb82f7b39f94',
      providerStatus: 'complete',
      status: 'complete',
      cryptoAmount: '67.1',
      reported: { cryptoCurrency: idOf('USDT', 'ethereum'), fiatCurrency: idOf('AUD'), fiatAmount: '100' },
    });
  });

  test('a status-only webhook keeps its status and takes the rest, terms included, from the order', () => {
    const order = BanxaOrderSchema.parse({ ...(fixture('order.json') as object), status: 'paymentReceived' });
    expect(fromWebhook(BanxaWebhookSchema.parse(fixture('webhook-status.json')), order, currencyDictionary)).toMatchObject({
      orderId: '9d8c7b6a-5f4e-5d3c-8b2a-1f0e9d8c7b6a',
      providerOrderId: 'e82c57b2cba367069dfef4f866c7bc87',
      providerStatus: 'expired',
      status: 'expired',
      reported: {
        walletAddress: '0x75b8d4d81377d4b0f11798779563462264914a24',
        cryptoCurrency: idOf('ETH', 'ethereum'),
        fiatAmount: '3986',
      },
      // The order's creation time, not the body's zoneless created_at.
      providerOrderCreatedAt: '2025-04-07T02:36:22.000Z',
    });
  });

  test("the webhook's own terms win over the order's", () => {
    const order = BanxaOrderSchema.parse(fixture('order.json'));
    const webhook = BanxaWebhookSchema.parse({ ...(fixture('webhook-v2.json') as object), fiat_amount: '120.50' });
    expect(fromWebhook(webhook, order, currencyDictionary)?.reported).toEqual({
      walletAddress: '0x75b8d4d81377d4b0f11798779563462264914a24',
      cryptoCurrency: idOf('USDT', 'ethereum'),
      fiatCurrency: idOf('AUD'),
      fiatAmount: '120.50',
    });
  });

  test('a legacy webhook (order id only) takes status and reference from the order', () => {
    const order = BanxaOrderSchema.parse(fixture('order.json'));
    expect(fromWebhook(BanxaWebhookSchema.parse(fixture('webhook-legacy.json')), order, currencyDictionary)).toMatchObject({
      orderId: '9d8c7b6a-5f4e-5d3c-8b2a-1f0e9d8c7b6a',
      providerStatus: 'complete',
      status: 'complete',
    });
    expect(fromWebhook(BanxaWebhookSchema.parse(fixture('webhook-legacy.json')), undefined, currencyDictionary)).toBeUndefined();
  });
});
