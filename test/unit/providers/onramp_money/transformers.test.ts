import { currencyDictionary } from '../../../../src/domain/currencies';
import { onrampMoneyCurrencyIds } from '../../../../src/providers/onramp_money/reported';
import {
  OnrampMoneyChainMappingSchema,
  OnrampMoneyConfigMappingSchema,
  OnrampMoneyCountryConfigSchema,
  OnrampMoneyHistorySchema,
  OnrampMoneyLimitsSchema,
  OnrampMoneyQuoteSchema,
} from '../../../../src/providers/onramp_money/schemas';
import {
  fromCatalogue,
  fromQuote,
  fromTransaction,
  toQuoteBody,
  toWidgetParams,
} from '../../../../src/providers/onramp_money/transformers';
import { ProviderRejectedError, type CreateProviderOrderRequest, type QuoteRequest } from '../../../../src/providers/types';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { cryptoOf, currencyId as id, fiatOf } from '../../../helpers/currencies';
import mappingData from './fixtures/config-mapping.json';
import merchantHistory from './fixtures/merchant-history.json';

const mapping = OnrampMoneyConfigMappingSchema.parse({ status: 1, code: 200, data: mappingData }).data;
const ids = onrampMoneyCurrencyIds(currencyDictionary, mapping);

/** Excerpts of the documented answers (allChainMapping, limits, fetchAllCountryConfig). */
const chains = OnrampMoneyChainMappingSchema.parse({
  status: 1,
  code: 200,
  data: {
    allCoinConfig: {
      usdc: { coinId: 116, coinName: 'USD Coin', networks: [0, 1, 16] },
      usdt: { coinId: 54, coinName: 'Tether', networks: [0, 1, 2, 4, 15] },
    },
    networkConfig: {
      '0': { chainSymbol: 'erc20', networkId: 1 },
      '1': { chainSymbol: 'bep20', networkId: 56 },
      '2': { chainSymbol: 'trc20', networkId: -1 },
      '3': { chainSymbol: 'matic20', networkId: 137 },
      '4': { chainSymbol: 'spl', networkId: -1 },
      '13': { chainSymbol: 'arbitrum', networkId: 42161 },
      '15': { chainSymbol: 'ton', networkId: -1 },
    },
  },
}).data;
const limits = OnrampMoneyLimitsSchema.parse({
  status: 1,
  code: 200,
  data: {
    onramp: { '1': { min: 100, max: 500000 }, '2': { min: 300, max: 50000 }, '3': { min: 50, max: 75000 }, '7': { min: 55, max: 50000 } },
  },
}).data.onramp;
const countries = OnrampMoneyCountryConfigSchema.parse({
  status: 1,
  code: 200,
  data: {
    buy: {
      '1': { isActive: 1, paymentMethods: { UPI: 1, IMPS: 2 } },
      '2': { isActive: 1, paymentMethods: { TRY_BANK_TRANSFER: 2 } },
      '3': { isActive: 1, paymentMethods: { 'AED-BANK-TRANSFER': 2 } },
      '4': { isActive: 0, paymentMethods: { SPEI: 2 } },
      '5': { isActive: 1, paymentMethods: { 'VIET-QR': 1 } },
      '7': { isActive: 1, paymentMethods: { PIX: 2 } },
    },
  },
}).data.buy;

describe('Onramp.money catalogue', () => {
  const catalogue = fromCatalogue(currencyDictionary, { mapping, chains, limits, countries });

  test('serves the active fiat types that have limits, in the countries of their currencies', () => {
    // MXN is inactive, VND has no limits.
    expect(catalogue.fiat.sort()).toEqual([id('INR'), id('TRY'), id('AED'), id('BRL')].sort());
    expect(catalogue.countries.map((c) => c.code).sort()).toEqual(['AE', 'BR', 'IN', 'TR']);
  });

  test('lists each coin on each chain the broker knows; chains without a broker network (16) are left out', () => {
    expect(catalogue.crypto.sort()).toEqual(
      [
        id('USDC', 'ethereum'),
        id('USDC', 'bsc'),
        id('USDT', 'ethereum'),
        id('USDT', 'bsc'),
        id('USDT', 'tron'),
        id('USDT', 'solana'),
        id('USDT', 'ton'),
      ].sort(),
    );
  });

  test("gives each method its fiat type's limits; methods without a broker code are left out", () => {
    const methods = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(Object.keys(methods).sort()).toEqual(['bank_transfer', 'pix', 'upi']);
    expect(methods.upi!.limits).toEqual({ [id('INR')]: { min: '100', max: '500000' } });
    expect(methods.bank_transfer!.limits).toEqual({
      [id('INR')]: { min: '100', max: '500000' },
      [id('TRY')]: { min: '300', max: '50000' },
      [id('AED')]: { min: '50', max: '75000' },
    });
    expect(methods.pix!.fee).toBeUndefined();
  });
});

const quoteRequest = (overrides: Partial<QuoteRequest> = {}): QuoteRequest => ({
  fiat: fiatOf('TRY'),
  crypto: cryptoOf('USDT', 'bsc'),
  fiatAmount: '200',
  paymentMethod: 'bank_transfer',
  country: 'TR',
  externalUserId: 'user-1',
  ...overrides,
});

describe('Onramp.money quote', () => {
  test('asks by coin code, chain symbol and fiatType, as the documented sample does', () => {
    expect(toQuoteBody(quoteRequest(), mapping)).toEqual({ coinCode: 'usdt', network: 'bep20', fiatAmount: 200, fiatType: 2, type: 1 });
  });

  test('refuses a fiat currency or network Onramp.money does not name', () => {
    expect(() => toQuoteBody(quoteRequest({ fiat: fiatOf('GBP') }), mapping)).toThrow(ProviderRejectedError);
    expect(() => toQuoteBody(quoteRequest({ crypto: cryptoOf('USDT', 'avalanche') }), mapping)).toThrow(ProviderRejectedError);
  });

  test("reads the documented answer: fees in fiat, gasFee the network's", () => {
    // The documented example: 200 TRY at 24.41 with 0.5 onramp fee and 7.08 gas fee gives 7.88 USDT.
    const answer = OnrampMoneyQuoteSchema.parse({
      status: 1,
      data: { rate: 24.41, quantity: 7.88, onrampFee: 0.5, clientFee: 0, gatewayFee: 0, gasFee: 7.08 },
      code: 200,
    }).data;
    expect(fromQuote(answer, quoteRequest())).toEqual({
      fiatAmount: '200',
      cryptoAmount: '7.88',
      processingFee: '0.5',
      networkFee: '7.08',
      paymentMethod: 'bank_transfer',
    });
  });
});

describe('Onramp.money widget parameters', () => {
  const order = (overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest => ({
    orderId: 'order-1',
    fiat: fiatOf('INR'),
    crypto: cryptoOf('USDT', 'polygon'),
    fiatAmount: '1500.00',
    walletAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
    paymentMethod: 'upi',
    country: 'IN',
    externalUserId: 'user-1',
    extras: { return_url: 'https://wallet.example/done' },
    ...overrides,
  });

  test('carry the order id as merchantRecognitionId and the method as its number', () => {
    expect(toWidgetParams(order(), mapping, '42')).toEqual({
      appId: '42',
      walletAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
      coinCode: 'usdt',
      network: 'matic20',
      fiatAmount: '1500.00',
      fiatType: 1,
      paymentMethod: '1',
      merchantRecognitionId: 'order-1',
      redirectUrl: 'https://wallet.example/done',
    });
    expect(toWidgetParams(order({ paymentMethod: 'bank_transfer' }), mapping, '42').paymentMethod).toBe('2');
  });

  test('refuse a method Onramp.money does not offer, and a return URL that is not https', () => {
    expect(() => toWidgetParams(order({ paymentMethod: 'card' }), mapping, '42')).toThrow(ProviderRejectedError);
    expect(toWidgetParams(order({ extras: { return_url: 'javascript:alert(1)' } }), mapping, '42').redirectUrl).toBeUndefined();
  });
});

describe('Onramp.money transaction (merchantHistory)', () => {
  // The documented onramp answer of Merchant Transaction History.
  const [tx] = OnrampMoneyHistorySchema.parse(merchantHistory).data;

  test('names the broker order by merchantRecognitionId and states its terms', () => {
    expect(fromTransaction(tx!, ids)).toEqual({
      orderId: '23',
      providerOrderId: '338',
      providerStatus: '5',
      status: 'complete',
      cryptoAmount: '2.87',
      transactionHash: tx!.transactionHash,
      reported: {
        walletAddress: '0x72c6668306f1d89425e86899b7444a0c2e5f25cf',
        cryptoCurrency: id('USDT', 'polygon'),
        fiatCurrency: id('INR'),
        fiatAmount: '250',
      },
      providerOrderCreatedAt: '2022-10-07T22:29:52.000Z',
    });
  });

  test('a createdAt that is not a time is left out, and the transaction is still read', () => {
    for (const createdAt of ['07/10/2022', null, undefined]) {
      const snapshot = fromTransaction({ ...tx!, createdAt }, ids);
      expect(snapshot).not.toHaveProperty('providerOrderCreatedAt');
      expect(snapshot.status).toBe('complete');
    }
  });

  test('reports the expected crypto amount until the actual one is known, and no empty hash', () => {
    const pending = fromTransaction({ ...tx!, status: 0, actualCryptoAmount: '0', transactionHash: '' }, ids);
    expect(pending).toMatchObject({ status: 'pending', cryptoAmount: '2.61', transactionHash: undefined });
  });

  test('a coin or chain the dictionary does not know is reported as null, not left out', () => {
    expect(fromTransaction({ ...tx!, coinId: 396 }, ids).reported?.cryptoCurrency).toBeNull();
  });

  test('a lookup in an undocumented status fails', () => {
    expect(() => fromTransaction({ ...tx!, status: 7 }, ids)).toThrow(UnknownProviderStatusError);
  });
});
