import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type CataloguePaymentMethod,
  type ProviderAdapter,
  type ProviderInfo,
} from '../types';
import { indexCurrencies, type MoonpayAssetIndex } from './assets';
import { defineProvider } from '../descriptor';
import { MoonpayClient, MOONPAY_LIST_LIMIT } from './client';
import { offsetOf, offsetPage, windowDates } from '../kit/listed';
import { isTestKey, moonpayConfig, MoonpayEnvSchema, MOONPAY_SIMULATOR_CREDENTIALS, type MoonpayConfig } from './config';
import { MOONPAY_METHODS, type MoonpayMethod } from './payment-methods';
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
} from './transformers';
import { signedWidgetUrl } from './widget';
import { parseMoonpayWebhook } from './webhook';
import { createMoonpaySellAdapter } from './sell';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';
import type { CallSignal } from '../kit/call-signal';

export { MoonpayEnvSchema, moonpayConfig, MOONPAY_SIMULATOR_CREDENTIALS, type MoonpayConfig, type MoonpayCredentials } from './config';

export const MOONPAY_INFO = {
  code: 'moonpay',
  name: 'MoonPay',
  description:
    'Buy crypto with cards, Apple Pay, Google Pay, PayPal and bank transfers (SEPA, Faster Payments, ACH, PIX) in the MoonPay widget.',
  icon_url: 'https://www.moonpay.com/favicon.ico',
} as const satisfies ProviderInfo;

/** MoonPay documents 30 requests a second; the list keeps well under it, beside the status lookups. */
const MOONPAY_LIST_RATE = 10;

/** How long MoonPay's currency list is reused for quotes and orders between catalogue fetches. */
const ASSET_INDEX_TTL_MS = 10 * 60 * 1000;
/** Each method's fee is read from a quote of ten times the currency's minimum (the minimum fee would dominate smaller ones). */
const REFERENCE_AMOUNT_FACTOR = 10;
/** Currencies tried for a method's reference quote before it is left out of the catalogue. */
const REFERENCE_QUOTE_TRIES = 4;

function untilAborted<T>(promise: Promise<T>, signal?: CallSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new ProviderUnavailableError('MoonPay currency list: aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ProviderUnavailableError('MoonPay currency list: aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The quote request's fields that reach the provider's quote call (its quoteKey). */
const QUOTE_FIELDS: readonly QuoteField[] = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod', 'country', 'state'];

export function createMoonpayAdapter(config: MoonpayConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new MoonpayClient(config);
  const testMode = isTestKey(config.publishableKey);
  let cached: { index: MoonpayAssetIndex; at: number } | undefined;
  let refreshing: Promise<MoonpayAssetIndex> | undefined;

  const remember = (index: MoonpayAssetIndex) => {
    cached = { index, at: Date.now() };
    return index;
  };

  /** The currency list, shared by concurrent callers; each caller's own signal still ends its wait. */
  const assetIndex = (signal?: CallSignal): Promise<MoonpayAssetIndex> => {
    if (cached && Date.now() - cached.at < ASSET_INDEX_TTL_MS) return Promise.resolve(cached.index);
    refreshing ??= client
      .getCurrencies()
      .then((list) => remember(indexCurrencies(currencies, list, testMode)))
      .finally(() => (refreshing = undefined));
    return untilAborted(refreshing, signal);
  };

  /**
   * A catalogue entry for the method, its fee read from a reference quote. MoonPay does not say which
   * currencies a method takes, so a refused quote is tried again in the next currency (a few at most),
   * and a currency it was refused in is taken out of the method's limits; a method refused in all of
   * them is left out.
   */
  const catalogueMethod = async (
    index: MoonpayAssetIndex,
    method: MoonpayMethod,
    signal?: CallSignal,
  ): Promise<CataloguePaymentMethod | undefined> => {
    const limits = methodLimits(index, method);
    const [crypto] = index.crypto.values();
    if (!crypto) return undefined;
    for (const [fiatId, limit] of Object.entries(limits).slice(0, REFERENCE_QUOTE_TRIES)) {
      const fiat = index.fiat.get(Number(fiatId));
      if (!fiat) continue;
      const amount = decimal(limit.min).times(REFERENCE_AMOUNT_FACTOR);
      const reference = amount.gt(limit.max) ? limit.max : amount.toFixed();
      try {
        const quote = await client.getBuyQuote(crypto.code, toQuoteParams({ fiat, crypto, method }, reference), signal);
        return { code: method.code, name: method.name, icon_url: null, fee: feeText(quote), limits };
      } catch (err) {
        if (!(err instanceof ProviderRejectedError)) throw err;
        delete limits[Number(fiatId)];
      }
    }
    return undefined;
  };

  /** The currency list fetched now (a catalogue call), remembered for quotes and orders. */
  const freshIndex = async (signal?: AbortSignal) => remember(indexCurrencies(currencies, await client.getCurrencies(signal), testMode));

  return {
    info: MOONPAY_INFO,
    sell: createMoonpaySellAdapter(client, config, currencies, assetIndex, freshIndex),

    async getCatalogue(signal) {
      const [list, countries] = await Promise.all([client.getCurrencies(signal), client.getCountries(signal)]);
      const index = remember(indexCurrencies(currencies, list, testMode));
      const methods = await Promise.all(MOONPAY_METHODS.map((method) => catalogueMethod(index, method, signal)));
      return {
        fiat: [...index.fiat.keys()],
        crypto: [...index.crypto.keys()],
        countries: fromCountries(countries),
        paymentMethods: methods.filter((m): m is CataloguePaymentMethod => m !== undefined),
        cryptoNotSoldIn: fromCryptoRestrictions(index),
      };
    },

    /**
     * What decides the answer: MoonPay's buy quote (currencies, amount, method), and the country and
     * state its asset index may refuse (resolveTerms). No user or IP.
     */
    quoteKey: (request) => quoteKeyOf(request, QUOTE_FIELDS),
    async getQuote(request, signal) {
      const terms = resolveTerms(await assetIndex(signal), request);
      const quote = await client.getBuyQuote(terms.crypto.code, toQuoteParams(terms, request.fiatAmount), signal);
      return fromQuote(quote, request.paymentMethod);
    },

    async createOrder(request) {
      const terms = resolveTerms(await assetIndex(), request);
      const redirectUrl = signedWidgetUrl(config.widgetUrl, config.secretKey, toWidgetParams(config.publishableKey, terms, request));
      // Nothing is created at MoonPay until the customer submits the widget; a repeated call finds what exists.
      return { ...fromTransactions(request.orderId, await client.findTransactions(request.orderId), currencies), redirectUrl };
    },

    async getOrder(orderId, providerOrderId) {
      return fromTransactions(orderId, await client.findTransactions(orderId), currencies, providerOrderId);
    },

    parseWebhook(webhook) {
      return Promise.resolve().then(() => parseMoonpayWebhook(webhook, config.webhookKey, currencies));
    },

    /** `GET /v1/transactions` by dates (MoonPay's filter is by day), offset-paged, 30 calls a second at most. */
    transactions: {
      callsPerSecond: MOONPAY_LIST_RATE,
      async list(window, cursor, signal) {
        const offset = offsetOf(cursor);
        const { first, last } = windowDates(window);
        const rows = await client.listTransactions(first, last, offset, signal);
        return offsetPage(
          rows.map((row) => fromTransaction(row, currencies)),
          window,
          offset,
          MOONPAY_LIST_LIMIT,
        );
      },
    },
  };
}

/** MoonPay in the provider manifest (src/providers/manifest.ts). */
export const moonpayProvider = defineProvider({
  info: MOONPAY_INFO,
  env: MoonpayEnvSchema,
  resolve: moonpayConfig,
  createAdapter: (config, { currencies }) => createMoonpayAdapter(config, currencies),
  publishedValues: [
    MOONPAY_SIMULATOR_CREDENTIALS.publishableKey,
    MOONPAY_SIMULATOR_CREDENTIALS.secretKey,
    MOONPAY_SIMULATOR_CREDENTIALS.webhookKey,
  ],
});
