import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { defineProvider } from '../descriptor';
import type { CallSignal } from '../kit/call-signal';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';
import { customerUrl } from '../kit/url';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type CataloguePaymentMethod,
  type ProviderAdapter,
  type ProviderInfo,
} from '../types';
import { indexOptions, type CoinbaseAssetIndex } from './assets';
import { CoinbaseClient } from './client';
import { coinbaseConfig, CoinbaseEnvSchema, COINBASE_SIMULATOR_CREDENTIALS, type CoinbaseConfig } from './config';
import { onrampUrl } from './onramp-url';
import {
  catalogueMethods,
  cryptoCoverage,
  feeText,
  fromConfig,
  fromQuote,
  fromTransactionPage,
  fromTransactions,
  resolveTerms,
  toListRange,
  toQuoteBody,
  toTokenBody,
} from './transformers';
import { parseCoinbaseWebhook } from './webhook';

export { CoinbaseEnvSchema, coinbaseConfig, COINBASE_SIMULATOR_CREDENTIALS, type CoinbaseConfig, type CoinbaseCredentials } from './config';

export const COINBASE_INFO = {
  code: 'coinbase',
  name: 'Coinbase Onramp',
  description: 'Buy crypto with a debit card, Apple Pay or an ACH bank transfer in Coinbase Onramp, or from a Coinbase account.',
  icon_url: 'https://www.coinbase.com/favicon.ico',
} as const satisfies ProviderInfo;

/**
 * The pace of the transaction list. Coinbase documents a rate only for the buy quote (100 requests a
 * second per endpoint and app, docs.cdp.coinbase.com/pay-sdk/docs/api-overview); none for the list,
 * so it is asked no more than 5 times a second.
 */
const COINBASE_LIST_RATE = 5;

/** How long one place's buy options are reused for quotes and orders. */
const OPTIONS_TTL_MS = 10 * 60 * 1000;
/** Each method's fee is read from a quote of ten times its minimum in the first fiat that has it. */
const REFERENCE_AMOUNT_FACTOR = 10;

/** The quote request's fields that reach Coinbase's quote call or the buy options it is checked against. */
const QUOTE_FIELDS: readonly QuoteField[] = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod', 'country', 'state'];

function untilAborted<T>(promise: Promise<T>, signal?: CallSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new ProviderUnavailableError('Coinbase buy options: aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ProviderUnavailableError('Coinbase buy options: aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Buy options are asked per country, and for the US per state (Coinbase requires the subdivision there). */
const placeKey = (country: string, state?: string) => (country === 'US' ? `US-${state ?? ''}` : country);

export function createCoinbaseAdapter(config: CoinbaseConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new CoinbaseClient(config);
  const cached = new Map<string, { index: CoinbaseAssetIndex; at: number }>();
  const refreshing = new Map<string, Promise<CoinbaseAssetIndex>>();

  const remember = (key: string, index: CoinbaseAssetIndex) => {
    cached.set(key, { index, at: Date.now() });
    return index;
  };

  /** One place's buy options, shared by concurrent callers; each caller's own signal still ends its wait. */
  const placeIndex = (country: string, state: string | undefined, signal?: CallSignal): Promise<CoinbaseAssetIndex> => {
    const key = placeKey(country, state);
    const hit = cached.get(key);
    if (hit && Date.now() - hit.at < OPTIONS_TTL_MS) return Promise.resolve(hit.index);
    let pending = refreshing.get(key);
    if (!pending) {
      pending = client
        .getBuyOptions(country, country === 'US' ? state : undefined)
        .then((options) => remember(key, indexOptions(currencies, options)))
        .finally(() => refreshing.delete(key));
      refreshing.set(key, pending);
    }
    return untilAborted(pending, signal);
  };

  return {
    info: COINBASE_INFO,

    /**
     * The countries of the buy config, each country's buy options (the US's for its first served
     * state), and each method's fee from a reference quote.
     */
    async getCatalogue(signal) {
      const buyConfig = await client.getBuyConfig(signal);
      const places = await Promise.all(
        buyConfig.countries.map(async (c) => {
          const state = c.id === 'US' ? (c.subdivisions ?? [])[0] : undefined;
          const options = await client.getBuyOptions(c.id, state, signal);
          return { country: c.id, state, index: remember(placeKey(c.id, state), indexOptions(currencies, options)) };
        }),
      );
      const coverage = cryptoCoverage(places);
      const methods = await Promise.all(
        catalogueMethods(places.map((p) => p.index)).map(async ({ method, limits }): Promise<CataloguePaymentMethod> => {
          const place = places.find((p) => [...p.index.fiat.values()].some((byMethod) => byMethod.has(method.id)));
          const fiatEntry = place && [...place.index.fiat].find(([, byMethod]) => byMethod.has(method.id));
          const [asset] = place ? place.index.crypto.values() : [];
          const fiat = fiatEntry && currencies.fiat(fiatEntry[0]);
          const entry = { code: method.code, name: method.name, icon_url: null, limits };
          if (!place || !fiatEntry || !asset || !fiat) return entry;
          const limit = fiatEntry[1].get(method.id)!;
          const amount = decimal(limit.min).times(REFERENCE_AMOUNT_FACTOR);
          const reference = (amount.gt(limit.max) ? decimal(limit.max) : amount).toFixed(2);
          try {
            const terms = { fiatCode: fiat.ticker, asset, method };
            const quote = await client.getBuyQuote(
              toQuoteBody(terms, { fiatAmount: reference, country: place.country, state: place.state }),
              signal,
            );
            return { ...entry, fee: feeText(quote) };
          } catch (err) {
            if (err instanceof ProviderRejectedError) return entry;
            throw err;
          }
        }),
      );
      return {
        fiat: [...new Set(places.flatMap((p) => [...p.index.fiat.keys()]))],
        crypto: coverage.crypto,
        countries: fromConfig(buyConfig),
        paymentMethods: methods,
        cryptoNotSoldIn: coverage.notSoldIn,
      };
    },

    quoteKey: (request) => quoteKeyOf(request, QUOTE_FIELDS),
    async getQuote(request, signal) {
      const terms = resolveTerms(await placeIndex(request.country, request.state, signal), request);
      return fromQuote(await client.getBuyQuote(toQuoteBody(terms, request), signal), request.paymentMethod);
    },

    /**
     * A session token for the order's wallet and asset, and the one-click-buy URL carrying our order
     * id as `partnerUserRef`. The token is single use and lasts 5 minutes; nothing exists at Coinbase
     * until the customer opens the page, so a repeated call finds what exists.
     */
    async createOrder(request) {
      const terms = resolveTerms(await placeIndex(request.country, request.state), request);
      const sessionToken = await client.createSessionToken(toTokenBody(terms, request));
      const redirect = customerUrl(request.extras, 'redirect_url');
      const redirectUrl = onrampUrl(config.payUrl, {
        sessionToken,
        defaultAsset: terms.asset.currency.symbol,
        defaultNetwork: terms.asset.network.name,
        presetFiatAmount: request.fiatAmount,
        fiatCurrency: terms.fiatCode,
        defaultPaymentMethod: terms.method.id,
        partnerUserRef: request.orderId,
        ...(redirect === undefined ? {} : { redirectUrl: redirect }),
      });
      return { ...fromTransactions(request.orderId, await client.findTransactions(request.orderId), currencies), redirectUrl };
    },

    async getOrder(orderId, providerOrderId) {
      return fromTransactions(orderId, await client.findTransactions(orderId), currencies, providerOrderId);
    },

    parseWebhook(webhook) {
      return Promise.resolve().then(() => parseCoinbaseWebhook(webhook, config.webhookSecret, currencies));
    },

    /**
     * `GET /onramp/v1/buy/transactions` ("Get all onramp transactions", every buy transaction the app
     * made in a period, newest first: docs.cdp.coinbase.com/api-reference/rest-api/onramp-offramp/get-all-onramp-transactions),
     * by `startDate` and `endDate`, paged by Coinbase's own `pageKey` (the cursor, passed on as it
     * is), 5 calls a second. Each row names our order id as `partnerUserRef`, as the status lookup does.
     */
    transactions: {
      callsPerSecond: COINBASE_LIST_RATE,
      async list(window, cursor, signal) {
        const page = fromTransactionPage(await client.listTransactions(toListRange(window), cursor, signal), window, currencies);
        // A key that asks for the same page again would walk it for ever.
        if (cursor !== undefined && page.cursor === cursor) {
          throw new ProviderUnavailableError('Coinbase transaction list: the next page key is the one just asked with');
        }
        return page;
      },
    },
  };
}

/** Coinbase Onramp in the provider manifest (src/providers/manifest.ts). */
export const coinbaseProvider = defineProvider({
  info: COINBASE_INFO,
  env: CoinbaseEnvSchema,
  resolve: coinbaseConfig,
  createAdapter: (config, { currencies }) => createCoinbaseAdapter(config, currencies),
  publishedValues: [COINBASE_SIMULATOR_CREDENTIALS.apiKeySecret, COINBASE_SIMULATOR_CREDENTIALS.webhookSecret],
});
