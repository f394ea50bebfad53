import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { indexCurrencies } from '../../../../src/providers/moonpay/assets';
import { MOONPAY_METHODS } from '../../../../src/providers/moonpay/payment-methods';
import {
  MoonpayBuyQuoteSchema,
  MoonpayCountriesSchema,
  MoonpayCurrenciesSchema,
  MoonpayTransactionSchema,
  MoonpayTransactionsSchema,
} from '../../../../src/providers/moonpay/schemas';
import {
  feeText,
  fromCountries,
  fromCryptoRestrictions,
  fromQuote,
  fromTransaction,
  fromTransactions,
  methodLimits,
  resolveTerms,
  toQuoteParams,
  toWidgetParams,
} from '../../../../src/providers/moonpay/transformers';
import { ProviderRejectedError } from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8'));

const currencies = MoonpayCurrenciesSchema.parse(fixture('currencies.json'));
const liveIndex = indexCurrencies(currencyDictionary, currencies, false);
const testIndex = indexCurrencies(currencyDictionary, currencies, true);

function rejection(fn: () => unknown): ProviderRejectedError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderRejectedError);
    return err as ProviderRejectedError;
  }
  throw new Error('expected a ProviderRejectedError');
}

describe('currency mapping', () => {
  test('fiat by code; crypto by network and contract (EVM case-insensitive) or by symbol for native coins', () => {
    expect([...liveIndex.fiat.keys()].sort((a, b) => a - b)).toEqual(
      [fiat('USD').id, fiat('EUR').id, fiat('GBP').id, fiat('IDR').id].sort((a, b) => a - b),
    );
    const mapped = Object.fromEntries([...liveIndex.crypto].map(([id, c]) => [c.code, id]));
    expect(mapped).toEqual({
      btc: crypto('BTC', 'bitcoin').id,
      usdc: crypto('USDC', 'ethereum').id,
      usdt_trx: crypto('USDT', 'tron').id,
      eth_base: crypto('ETH', 'base').id,
      ada: crypto('ADA', 'cardano').id,
    });
  });

  test('suspended assets, unknown networks and assets the dictionary lacks are left out; test keys also leave out non-test assets', () => {
    const codes = (index: typeof liveIndex) => [...index.crypto.values()].map((c) => c.code);
    expect(codes(liveIndex)).not.toContain('eth');
    expect(codes(liveIndex)).not.toContain('hbar');
    expect(codes(liveIndex)).not.toContain('1inch_eth');
    expect(codes(testIndex)).not.toContain('ada');
    expect(codes(testIndex)).toContain('btc');
  });
});

describe('catalogue', () => {
  test('countries where buying is allowed, with the US states where it is', () => {
    expect(fromCountries(MoonpayCountriesSchema.parse(fixture('countries.json')))).toEqual([
      { code: 'US', states: ['CA', 'TX'] },
      { code: 'GB' },
      { code: 'DE' },
    ]);
  });

  test('each method takes its fiat currencies with the currency limits; fiat without limits is not offered', () => {
    const byCode = Object.fromEntries(MOONPAY_METHODS.map((m) => [m.code, methodLimits(liveIndex, m)]));
    expect(byCode.card).toEqual({
      [fiat('USD').id]: { min: '20', max: '30000' },
      [fiat('EUR').id]: { min: '30', max: '10000' },
      [fiat('GBP').id]: { min: '30', max: '9000' },
    });
    expect(byCode.sepa).toEqual({ [fiat('EUR').id]: { min: '30', max: '10000' } });
    expect(byCode.bank_transfer).toEqual({ [fiat('GBP').id]: { min: '30', max: '9000' } });
    expect(byCode.ach).toEqual({ [fiat('USD').id]: { min: '20', max: '30000' } });
    expect(byCode.pix).toEqual({});
  });

  test("each crypto currency's notAllowedCountries and notAllowedUSStates become the catalogue's exclusions", () => {
    expect(fromCryptoRestrictions(liveIndex)).toEqual({
      [crypto('USDC', 'ethereum').id]: { countries: ['CA'], states: { US: ['LA', 'VI'] } },
      [crypto('USDT', 'tron').id]: { countries: [], states: { US: ['VI', 'NY'] } },
      [crypto('ADA', 'cardano').id]: { countries: [], states: { US: ['VI'] } },
    });
    // Assets without restrictions, and assets not in the index (1inch_eth), are absent.
    expect(fromCryptoRestrictions(testIndex)[crypto('BTC', 'bitcoin').id]).toBeUndefined();
    expect(fromCryptoRestrictions(testIndex)[crypto('ADA', 'cardano').id]).toBeUndefined();
  });

  test('the exclusions are normalised to upper-case alpha-2 countries and bare state codes', () => {
    const [usdc] = MoonpayCurrenciesSchema.parse([
      {
        ...(fixture('currencies.json') as { code: string }[]).find((c) => c.code === 'usdc'),
        notAllowedCountries: ['ca'],
        notAllowedUSStates: ['US-NY', 'la'],
      },
    ]);
    const index = { fiat: new Map(), crypto: new Map([[crypto('USDC', 'ethereum').id, usdc!]]) };
    expect(fromCryptoRestrictions(index)).toEqual({ [crypto('USDC', 'ethereum').id]: { countries: ['CA'], states: { US: ['NY', 'LA'] } } });
  });

  test('payment method ids are the documented MoonPay ids, each onto one broker code', () => {
    expect(MOONPAY_METHODS.map((m) => `${m.id}=${m.code}`)).toEqual([
      'credit_debit_card=card',
      'apple_pay=apple_pay',
      'google_pay=google_pay',
      'paypal=paypal',
      'revolut_pay=revolut_pay',
      'sepa_bank_transfer=sepa',
      'gbp_bank_transfer=bank_transfer',
      'ach_bank_transfer=ach',
      'pix_instant_payment=pix',
    ]);
  });
});

describe('quotes', () => {
  const request = {
    fiat: fiat('USD'),
    crypto: crypto('BTC', 'bitcoin'),
    fiatAmount: '300',
    paymentMethod: 'card',
    country: 'GB',
  };

  test('the documented quote: what the customer pays, crypto, processing and network fees as decimal strings', () => {
    const quote = MoonpayBuyQuoteSchema.parse(fixture('buy-quote.json'));
    expect(fromQuote(quote, 'card')).toEqual({
      fiatAmount: '300',
      cryptoAmount: '0.0055',
      processingFee: '3.99',
      networkFee: '7.64',
      paymentMethod: 'card',
      expiresAt: new Date('2024-02-17T18:54:45.206Z'),
    });
    expect(feeText(quote)).toBe('1.33%');
  });

  test('expiresIn stands in when expiresAt is absent', () => {
    const { expiresAt: _ignored, ...rest } = fixture('buy-quote.json') as Record<string, unknown>;
    const quote = MoonpayBuyQuoteSchema.parse(rest);
    expect(fromQuote(quote, 'card', 1_000_000).expiresAt).toEqual(new Date(1_000_000 + 1800 * 1000));
  });

  test('the quote parameters: fees included, MoonPay codes and method id', () => {
    const terms = resolveTerms(liveIndex, request);
    expect(toQuoteParams(terms, '300')).toEqual({
      baseCurrencyCode: 'usd',
      baseCurrencyAmount: '300',
      areFeesIncluded: 'true',
      paymentMethod: 'credit_debit_card',
    });
  });

  test('refuses out of the currency limits with min and max', () => {
    const err = rejection(() => resolveTerms(liveIndex, { ...request, fiatAmount: '19.99' }));
    expect(err.code).toBe('limits');
    expect(err.details).toEqual({ minAmount: '20', maxAmount: '30000' });
    expect(rejection(() => resolveTerms(liveIndex, { ...request, fiatAmount: '30000.01' })).code).toBe('limits');
  });

  test("refuses the asset's excluded countries and US states", () => {
    const usdc = { ...request, crypto: crypto('USDC', 'ethereum') };
    expect(rejection(() => resolveTerms(liveIndex, { ...usdc, country: 'CA' })).code).toBe('country');
    expect(rejection(() => resolveTerms(liveIndex, { ...usdc, country: 'US', state: 'LA' })).code).toBe('state');
    expect(resolveTerms(liveIndex, { ...usdc, country: 'US', state: 'TX' }).crypto.code).toBe('usdc');
  });

  test('refuses unknown currencies and methods that do not take the fiat', () => {
    expect(rejection(() => resolveTerms(liveIndex, { ...request, crypto: crypto('SOL', 'solana') })).code).toBe('currency');
    expect(rejection(() => resolveTerms(liveIndex, { ...request, fiat: fiat('JPY') })).code).toBe('currency');
    expect(rejection(() => resolveTerms(liveIndex, { ...request, paymentMethod: 'sepa' })).code).toBe('payment_method');
    expect(rejection(() => resolveTerms(liveIndex, { ...request, paymentMethod: 'upi' })).code).toBe('payment_method');
  });
});

describe('orders', () => {
  const orderRequest = {
    orderId: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
    fiat: fiat('EUR'),
    crypto: crypto('USDT', 'tron'),
    fiatAmount: '150.00',
    walletAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
    paymentMethod: 'sepa',
    country: 'DE',
    externalUserId: 'user-7',
    extras: { redirect_url: 'https://wallet.example/done' },
  };

  test('widget parameters carry our order id as externalTransactionId', () => {
    const terms = resolveTerms(liveIndex, orderRequest);
    expect(toWidgetParams('pk_live_key', terms, orderRequest)).toEqual({
      apiKey: 'pk_live_key',
      currencyCode: 'usdt_trx',
      baseCurrencyCode: 'eur',
      baseCurrencyAmount: '150.00',
      walletAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
      paymentMethod: 'sepa_bank_transfer',
      externalTransactionId: orderRequest.orderId,
      externalCustomerId: 'user-7',
      redirectURL: 'https://wallet.example/done',
    });
    expect(toWidgetParams('pk_live_key', terms, { ...orderRequest, extras: { redirect_url: 'javascript:alert(1)' } })).not.toHaveProperty(
      'redirectURL',
    );
  });

  /** What the documented transactions state: GBP 45.5 + 1.7 + 0.43 + 2.37 charged for USDC on Ethereum. */
  const reported = {
    walletAddress: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
    cryptoCurrency: crypto('USDC', 'ethereum').id,
    fiatCurrency: fiat('GBP').id,
    fiatAmount: '50',
  };

  test('the documented transaction reads as a completed order, with the terms it states', () => {
    expect(fromTransaction(MoonpayTransactionSchema.parse(fixture('transaction-completed.json')), currencyDictionary)).toEqual({
      orderId: orderRequest.orderId,
      providerOrderId: 'defb7c52-7bd3-422b-9052-374df50cc51a',
      providerStatus: 'completed',
      status: 'complete',
      cryptoAmount: '0.0154',
      transactionHash: '0x6751c8fce2e0fb5d57bb4801b31b35a7160fa362e0c5703d44cfd508317ee2f8',
      reported,
      providerOrderCreatedAt: '2024-02-17T18:24:45.206Z',
    });
  });

  test('a createdAt that is not a time leaves the creation time out, and the rest is read', () => {
    const transaction = MoonpayTransactionSchema.parse({ ...(fixture('transaction-completed.json') as object), createdAt: 'yesterday' });
    const snapshot = fromTransaction(transaction, currencyDictionary);
    expect(snapshot.providerOrderCreatedAt).toBeUndefined();
    expect(snapshot.status).toBe('complete');
  });

  test('the lookup by external id reports the most recently updated transaction, with its terms', () => {
    const snapshot = fromTransactions(
      orderRequest.orderId,
      MoonpayTransactionsSchema.parse(fixture('transactions-by-external-id.json')),
      currencyDictionary,
    );
    expect(snapshot.providerOrderId).toBe('defb7c52-7bd3-422b-9052-374df50cc51a');
    expect(snapshot.status).toBe('complete');
    expect(snapshot.reported).toEqual(reported);
  });

  test('an order holding a transaction follows that one, even when the customer started another', () => {
    const transactions = MoonpayTransactionsSchema.parse(fixture('transactions-by-external-id.json'));
    const held = fromTransactions(orderRequest.orderId, transactions, currencyDictionary, '0c0f7d4e-3f0a-4c55-9d1e-5b2a7c9e8f10');
    expect(held).toMatchObject({ providerOrderId: '0c0f7d4e-3f0a-4c55-9d1e-5b2a7c9e8f10', status: 'failed' });
    // A held transaction missing from the answer: the latest, which the order will refuse as another provider order.
    expect(fromTransactions(orderRequest.orderId, transactions, currencyDictionary, 'gone').providerOrderId).toBe(
      'defb7c52-7bd3-422b-9052-374df50cc51a',
    );
  });

  test("the lookup's transaction names the order, never the id asked about", () => {
    const transactions = MoonpayTransactionsSchema.parse(fixture('transactions-by-external-id.json'));
    expect(fromTransactions('another-order', transactions, currencyDictionary).orderId).toBe(orderRequest.orderId);
  });

  test('no transaction yet: the order is created, not an error, and nothing is reported', () => {
    expect(fromTransactions(orderRequest.orderId, [], currencyDictionary)).toEqual({
      orderId: orderRequest.orderId,
      providerStatus: 'noTransactionYet',
      status: 'created',
    });
  });

  test('the extra fee may be absent; without the base amount or a fee the charge is not reported', () => {
    const base = fixture('transaction-completed.json') as Record<string, unknown>;
    const noExtra = MoonpayTransactionSchema.parse({ ...base, extraFeeAmount: null });
    expect(fromTransaction(noExtra, currencyDictionary).reported?.fiatAmount).toBe('49.57');
    const noFee = MoonpayTransactionSchema.parse({ ...base, networkFeeAmount: null });
    expect(fromTransaction(noFee, currencyDictionary).reported).not.toHaveProperty('fiatAmount');
  });

  test('a transaction stating no terms reports none', () => {
    const stated = ['walletAddress', 'currency', 'baseCurrency', 'baseCurrencyAmount'];
    const bare = Object.fromEntries(
      Object.entries(fixture('transaction-completed.json') as Record<string, unknown>).filter(([key]) => !stated.includes(key)),
    );
    expect(fromTransaction(MoonpayTransactionSchema.parse(bare), currencyDictionary)).not.toHaveProperty('reported');
  });

  test('the legacy failure sentence is used when no stage says why', () => {
    const base = fixture('transaction-completed.json') as Record<string, unknown>;
    const expired = MoonpayTransactionSchema.parse({ ...base, status: 'failed', stages: [], failureReason: 'Bank transfer timeout' });
    expect(fromTransaction(expired, currencyDictionary).status).toBe('expired');
    const declined = MoonpayTransactionSchema.parse({
      ...base,
      status: 'failed',
      stages: null,
      failureReason: 'Card declined',
      quoteCurrencyAmount: null,
    });
    expect(fromTransaction(declined, currencyDictionary)).toMatchObject({ status: 'failed', failureReason: 'card_declined' });
    const silent = MoonpayTransactionSchema.parse({ ...base, status: 'failed', stages: null, failureReason: null });
    expect(fromTransaction(silent, currencyDictionary).failureReason).toBe('failed_at_moonpay');
  });
});
