import { currencyDictionary } from '../../../../src/domain/currencies';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import type { CryptoCurrency, FiatCurrency } from '../../../../src/domain/currency';
import {
  MercuryoBuyRateSchema,
  MercuryoCallbackSchema,
  MercuryoCountriesSchema,
  MercuryoCurrenciesSchema,
  MercuryoLimitsSchema,
  MercuryoTransactionsSchema,
} from '../../../../src/providers/mercuryo/schemas';
import {
  fromCallback,
  fromCatalogue,
  fromRate,
  fromTransactions,
  MERCURYO_WIDGET_NOT_OPENED,
  toRateQuery,
  toWidgetParams,
} from '../../../../src/providers/mercuryo/transformers';
import { mercuryoCurrencyIds, reportedTerms } from '../../../../src/providers/mercuryo/reported';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type CreateProviderOrderRequest,
  type QuoteRequest,
} from '../../../../src/providers/types';
import buyRate from './fixtures/buy-rate.json';
import callbackBuyPaid from './fixtures/callback-buy-card-paid.json';
import callbackMobileScheduled from './fixtures/callback-mobile-pay-order-scheduled.json';
import callbackWithdrawCompleted from './fixtures/callback-withdraw-completed.json';
import callbackWithdrawPending from './fixtures/callback-withdraw-pending.json';
import cardCountries from './fixtures/card-countries.json';
import currencyLimits from './fixtures/currency-limits.json';
import libCurrencies from './fixtures/lib-currencies.json';
import cancelledAfterWithdraw from './fixtures/transactions-buy-acquirer-cancelled-withdraw-failed.json';
import orderFailed from './fixtures/transactions-buy-order-failed.json';
import paidCompleted from './fixtures/transactions-buy-paid-withdraw-completed.json';
import empty from './fixtures/transactions-empty.json';
import mobilePending from './fixtures/transactions-mobile-pay-paid-withdraw-pending.json';
import { currencyId as id } from '../../../helpers/currencies';

const ids = mercuryoCurrencyIds(currencyDictionary);
const USD = currencyDictionary.fiat(id('USD')) as FiatCurrency;
const BTC = currencyDictionary.crypto(id('BTC', 'bitcoin')) as CryptoCurrency;
const USDT_TON = currencyDictionary.crypto(id('USDT', 'ton')) as CryptoCurrency;
const XLM = currencyDictionary.crypto(id('XLM', 'stellar')) as CryptoCurrency;
const ZEC = currencyDictionary.crypto(id('ZEC', 'zcash')) as CryptoCurrency;

const quoteRequest = (overrides: Partial<QuoteRequest> = {}): QuoteRequest => ({
  fiat: USD,
  crypto: BTC,
  fiatAmount: '150',
  paymentMethod: 'card',
  country: 'GB',
  externalUserId: 'u1',
  ...overrides,
});

const orderRequest = (overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest => ({
  orderId: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
  fiat: USD,
  crypto: USDT_TON,
  fiatAmount: '150',
  walletAddress: 'UQByrYTVrJMttx88DbubyjV4nKy3waokfenb4QGJOP55Nn99',
  paymentMethod: 'google_pay',
  country: 'GB',
  externalUserId: 'u1',
  ip: '203.0.113.7',
  extras: {},
  ...overrides,
});

describe('fromCatalogue (lib/currencies + card-countries)', () => {
  const catalogue = fromCatalogue(
    currencyDictionary,
    MercuryoCurrenciesSchema.parse(libCurrencies).data,
    MercuryoCountriesSchema.parse(cardCountries),
  );

  test('maps fiat and (ticker, network) pairs to broker ids, leaving out what the dictionary lacks', () => {
    expect(catalogue.fiat.sort((a, b) => a - b)).toEqual(['USD', 'EUR', 'GBP', 'BRL', 'IDR'].map((t) => id(t)).sort((a, b) => a - b));
    expect(catalogue.crypto.sort((a, b) => a - b)).toEqual(
      [
        id('BTC', 'bitcoin'),
        id('ETH', 'ethereum'),
        id('ETH', 'base'),
        id('USDT', 'ethereum'),
        id('USDT', 'tron'),
        id('USDT', 'ton'),
        id('USDC', 'bsc'),
        id('TON', 'ton'),
        id('POL', 'polygon'),
      ].sort((a, b) => a - b),
    );
  });

  test('countries are upper-case alpha-2, without states', () => {
    expect(catalogue.countries).toEqual([{ code: 'US' }, { code: 'GB' }, { code: 'DE' }, { code: 'FR' }, { code: 'BR' }]);
  });

  test('payment methods use broker codes with the per-fiat limits; unmapped methods are left out', () => {
    const byCode = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(Object.keys(byCode).sort()).toEqual(['apple_pay', 'card', 'google_pay', 'pix', 'revolut_pay', 'sepa']);
    expect(byCode.card).toMatchObject({ name: 'Card', icon_url: null });
    expect(byCode.card!.limits).toEqual({
      [id('BRL')]: { min: '158.56', max: '31711.64' },
      [id('EUR')]: { min: '25', max: '5000' },
      [id('GBP')]: { min: '21.70', max: '4339.37' },
      [id('IDR')]: { min: '480406', max: '96081065' },
      [id('USD')]: { min: '25.00', max: '5000.00' },
    });
    expect(byCode.sepa!.limits).toEqual({ [id('EUR')]: { min: '25', max: '5000' } });
    expect(byCode.pix!.limits).toEqual({ [id('BRL')]: { min: '158.56', max: '31711.64' } });
    expect(
      Object.keys(byCode.apple_pay!.limits)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([id('EUR'), id('GBP'), id('USD')].sort((a, b) => a - b));
  });
});

describe('quotes (widget/buy/rate)', () => {
  test('the rate query names the fiat, the ticker and Mercuryo network', () => {
    expect(toRateQuery(quoteRequest({ crypto: USDT_TON }))).toEqual({ from: 'USD', to: 'USDT', amount: '150', network: 'NEWTON' });
  });

  test('a network Mercuryo has no name for is refused as a currency', () => {
    expect(() => toRateQuery(quoteRequest({ crypto: ZEC }))).toThrow(ProviderRejectedError);
  });

  test('the documented rate answer becomes decimal strings with the fee in fiat', () => {
    const rate = MercuryoBuyRateSchema.parse(buyRate).data;
    expect(fromRate(rate, quoteRequest())).toEqual({
      fiatAmount: '150.00',
      cryptoAmount: '0.00243930',
      processingFee: '14.72',
      networkFee: '0',
      paymentMethod: 'card',
      providerQuoteId: rate.buy_token,
    });
  });

  test('an answer for another pair is not trusted', () => {
    const rate = MercuryoBuyRateSchema.parse(buyRate).data;
    expect(() => fromRate(rate, quoteRequest({ crypto: XLM }))).toThrow(ProviderUnavailableError);
  });

  test('the documented limits answer parses', () => {
    expect(MercuryoLimitsSchema.parse(currencyLimits).data.USD).toEqual({ min: '123.08', max: '4856.4' });
  });
});

describe('widget parameters', () => {
  test('carry the order id, Mercuryo names and a return URL from extras', () => {
    const params = toWidgetParams(orderRequest({ extras: { return_url: 'https://wallet.example/done' } }), { widgetId: 'w', secret: 's' });
    expect(params).toEqual({
      widgetId: 'w',
      secret: 's',
      address: 'UQByrYTVrJMttx88DbubyjV4nKy3waokfenb4QGJOP55Nn99',
      ip: '203.0.113.7',
      merchantTransactionId: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
      currency: 'USDT',
      network: 'NEWTON',
      fiatCurrency: 'USD',
      fiatAmount: '150',
      paymentMethod: 'google',
      returnUrl: 'https://wallet.example/done',
    });
  });

  test('refuse an order without the customer IP, or with a method Mercuryo lacks', () => {
    expect(() => toWidgetParams(orderRequest({ ip: undefined }), { widgetId: 'w', secret: 's' })).toThrow(/IP address/);
    expect(() => toWidgetParams(orderRequest({ paymentMethod: 'ach' }), { widgetId: 'w', secret: 's' })).toThrow(ProviderRejectedError);
  });
});

describe('the currency IDs of what Mercuryo names', () => {
  test('a fiat code is its broker ID, an unknown one null', () => {
    expect(ids.fiat('EUR')).toBe(id('EUR'));
    expect(ids.fiat('XXX')).toBeNull();
  });

  test('a ticker on one Mercuryo network is its ID; unknown is null; on several networks it is not reported (no network in the message)', () => {
    expect(ids.crypto('BTC')).toBe(id('BTC', 'bitcoin'));
    expect(ids.crypto('TON')).toBe(id('TON', 'ton'));
    expect(ids.crypto('NOTACOIN')).toBeNull();
    expect(ids.crypto('USDT')).toBeUndefined();
    expect(ids.crypto('ETH')).toBeUndefined();
  });

  test('reportedTerms keeps only what the message states', () => {
    expect(reportedTerms(ids, {})).toBeUndefined();
    expect(reportedTerms(ids, { currency: 'USDT' })).toBeUndefined();
    expect(reportedTerms(ids, { address: 'bc1q', currency: 'BTC', fiatCurrency: 'GBP', fiatAmount: '100.00' })).toEqual({
      walletAddress: 'bc1q',
      cryptoCurrency: id('BTC', 'bitcoin'),
      fiatCurrency: id('GBP'),
      fiatAmount: '100.00',
    });
    expect(reportedTerms(ids, { currency: 'NOTACOIN', fiatCurrency: 'XXX' })).toEqual({ cryptoCurrency: null, fiatCurrency: null });
  });
});

describe('fromTransactions (sdk-partner/transactions)', () => {
  const parse = (json: unknown) => MercuryoTransactionsSchema.parse(json);

  test('a documented declined card payment is failed, with the terms the payment leg states', () => {
    expect(fromTransactions('qq1122ww', parse(orderFailed), ids)).toEqual({
      orderId: 'qq1122ww',
      providerOrderId: '058dc74303d2d0459',
      providerStatus: 'buy:order_failed',
      status: 'failed',
      failureReason: 'payment_declined',
      cryptoAmount: '0.00300',
      transactionHash: undefined,
      reported: { cryptoCurrency: id('BTC', 'bitcoin'), fiatCurrency: id('EUR'), fiatAmount: '27.77' },
      // The payment leg's created_at, "2020-12-11 10:41:07", read as UTC.
      providerOrderCreatedAt: '2020-12-11T10:41:07.000Z',
    });
  });

  test('paid payment plus completed withdraw is complete, with the withdraw hash and wallet', () => {
    expect(fromTransactions('2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90', parse(paidCompleted), ids)).toEqual({
      orderId: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
      providerOrderId: '0dbd28d5208d1a411',
      providerStatus: 'withdraw:completed',
      status: 'complete',
      cryptoAmount: '0.057312834222948850',
      transactionHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
      // ETH is on several networks and Mercuryo names none: the crypto currency is not reported.
      reported: { walletAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e', fiatCurrency: id('USD'), fiatAmount: '99.00' },
      // The payment leg's, not the later withdraw leg's (19:56:21).
      providerOrderCreatedAt: '2025-04-18T19:56:08.000Z',
    });
  });

  test("the lookup reads the payment leg's created_at as UTC; one that is not a time is left out", () => {
    const [item] = parse(paidCompleted).data;
    const payment = Object.keys(item!).find((type) => type !== 'withdraw')!;
    const odd = { data: [{ ...item!, [payment]: { ...item![payment]!, created_at: '18/04/2025' } }] };
    const snapshot = fromTransactions('2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90', odd, ids);
    expect(snapshot).not.toHaveProperty('providerOrderCreatedAt');
    expect(snapshot.status).toBe('complete');
  });

  test('a paid mobile payment stays processing while the withdraw is pending', () => {
    expect(fromTransactions('036fecc9-0b73-4875-bd6f-2b868e30cf55', parse(mobilePending), ids)).toMatchObject({
      providerStatus: 'withdraw:pending',
      status: 'processing',
      transactionHash: undefined,
      reported: {
        walletAddress: 'UQByrYTVrJMttx88DbubyjV4nKy3waokfenb4QGJOP55Nn99',
        cryptoCurrency: id('TON', 'ton'),
        fiatCurrency: id('USD'),
        fiatAmount: '20.00',
      },
    });
  });

  test('a payment cancelled after its withdraw leg existed was returned: refunded', () => {
    // Constructed from documented statuses: cancelled = "funds returned if charged", and a withdraw
    // leg exists only once the payment was paid.
    expect(fromTransactions('7b1e0c52-4d6f-4e8a-9c3b-2a1f0e9d8c7b', parse(cancelledAfterWithdraw), ids)).toMatchObject({
      providerStatus: 'buy_acquirer:cancelled',
      status: 'refunded',
    });
  });

  test('no transaction yet (widget not opened) is created; operations of other orders are ignored', () => {
    const notOpened = { orderId: 'order-1', providerStatus: MERCURYO_WIDGET_NOT_OPENED, status: 'created' };
    expect(fromTransactions('order-1', parse(empty), ids)).toEqual(notOpened);
    expect(fromTransactions('order-1', parse(orderFailed), ids)).toEqual(notOpened);
  });

  test('a leg in a status Mercuryo does not document says nothing: the other leg decides', () => {
    const json = structuredClone(paidCompleted) as { data: { withdraw: { status: string } }[] };
    json.data[0]!.withdraw.status = 'brand_new_status';
    expect(fromTransactions('2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90', parse(json), ids)).toMatchObject({
      providerStatus: 'buy:paid',
      status: 'processing',
    });
  });

  test('when no leg is in a documented status the lookup fails, never guessing a status', () => {
    const json = structuredClone(orderFailed) as { data: { buy: { status: string } }[] };
    json.data[0]!.buy.status = 'brand_new_status';
    expect(() => fromTransactions('qq1122ww', parse(json), ids)).toThrow(ProviderUnavailableError);
    expect(() => fromTransactions('qq1122ww', parse(json), ids)).toThrow(/buy:brand_new_status/);
  });
});

describe('fromCallback', () => {
  const data = (json: unknown) => {
    const parsed = MercuryoCallbackSchema.parse(json);
    return 'data' in parsed ? parsed.data : parsed.payload.data;
  };

  test('the documented withdraw callback (payload wrapper) is processing, with the terms it states', () => {
    expect(fromCallback(data(callbackWithdrawPending), ids)).toEqual({
      orderId: 'merchant_transaction_id',
      providerStatus: 'withdraw:pending',
      status: 'processing',
      cryptoAmount: '0.02833',
      transactionHash: 'blockchain_transaction_id',
      reported: { walletAddress: 'blockchain_address', fiatCurrency: id('USD'), fiatAmount: '47.86' },
      providerOrderCreatedAt: '2021-03-09T20:05:20.000Z',
    });
  });

  test('a callback without a readable created_at_ts reports no creation time, and is still read', () => {
    const documented = data(callbackWithdrawPending);
    for (const created_at_ts of [undefined, Number.NaN, -5]) {
      const snapshot = fromCallback({ ...documented, created_at_ts }, ids);
      expect(snapshot).not.toHaveProperty('providerOrderCreatedAt');
      expect(snapshot.status).toBe('processing');
    }
  });

  test('a paid card payment is processing; the completed withdraw is complete with its hash', () => {
    expect(fromCallback(data(callbackBuyPaid), ids)).toMatchObject({
      providerStatus: 'buy:paid',
      status: 'processing',
      transactionHash: undefined,
      reported: { fiatCurrency: id('USD'), fiatAmount: '99.00' },
    });
    expect(fromCallback(data(callbackWithdrawCompleted), ids)).toMatchObject({
      orderId: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
      providerStatus: 'withdraw:completed',
      status: 'complete',
      transactionHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
    });
  });

  test('a mobile payment awaiting KYC is on hold, named as the lookup names it', () => {
    expect(fromCallback(data(callbackMobileScheduled), ids)).toMatchObject({
      providerStatus: 'mobile_pay:order_scheduled',
      status: 'hold',
      reported: { cryptoCurrency: id('BTC', 'bitcoin'), fiatCurrency: id('USD'), fiatAmount: '1500.00' },
    });
  });

  test('a callback without the partner reference names no order; it is never given another', () => {
    const { merchant_transaction_id: _omitted, ...rest } = data(callbackBuyPaid);
    expect(fromCallback(rest, ids)?.orderId).toBe('');
  });

  test('an undocumented status or type is no snapshot', () => {
    expect(() => fromCallback({ ...data(callbackBuyPaid), status: 'brand_new_status' }, ids)).toThrow(UnknownProviderStatusError);
    expect(() => fromCallback({ ...data(callbackBuyPaid), type: 'spend_card' }, ids)).toThrow(UnknownProviderStatusError);
  });
});
