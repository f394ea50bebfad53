import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { ProviderRejectedError, type ProviderAdapter, type ProviderInfo, type QuoteRequest } from '../types';
import { defineProvider } from '../descriptor';
import { MercuryoClient, MERCURYO_LIST_LIMIT } from './client';
import { mercuryoConfig, MercuryoEnvSchema, MERCURYO_SIMULATOR_CREDENTIALS, type MercuryoConfig } from './config';
import { mercuryoCurrencyIds } from './reported';
import { fromCatalogue, fromRate, fromTransactions, MERCURYO_WIDGET_NOT_OPENED, toRateQuery, toWidgetParams } from './transformers';
import { listCursorOf, listedPage } from './listing';
import { parseMercuryoWebhook } from './webhook';
import { createMercuryoSellAdapter } from './sell';
import { buildWidgetUrl } from './widget';
import { windowDates } from '../kit/listed';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';
import type { CallSignal } from '../kit/call-signal';

export {
  MercuryoEnvSchema,
  MERCURYO_SIMULATOR_CREDENTIALS,
  mercuryoConfig,
  type MercuryoConfig,
  type MercuryoSimulatorCredentials,
} from './config';

export const MERCURYO_INFO = {
  code: 'mercuryo',
  name: 'Mercuryo',
  description: 'Buy crypto by card, Apple Pay, Google Pay and local methods in Mercuryo’s widget; crypto is sent straight to the wallet.',
  icon_url: 'https://mercuryo.io/favicon.ico',
} as const satisfies ProviderInfo;

/**
 * Mercuryo documents no rate for its partner API (nor for the transaction list): the list keeps to
 * 5 calls a second, beside the status lookups on the same token.
 */
const MERCURYO_LIST_RATE = 5;

/** The quote request's fields that reach the provider's quote call (its quoteKey). */
const QUOTE_FIELDS: readonly QuoteField[] = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod'];

export function createMercuryoAdapter(config: MercuryoConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new MercuryoClient(config);
  const ids = mercuryoCurrencyIds(currencies);

  /** Mercuryo's refusal of a rate says little; its published limits tell whether the amount was the reason. */
  async function explainRefusal(err: ProviderRejectedError, request: QuoteRequest, signal?: CallSignal): Promise<never> {
    const limits = await client.getLimits(request.fiat.ticker, request.crypto.ticker, signal).catch(() => undefined);
    const fiat = limits?.data[request.fiat.ticker];
    const amount = decimal(request.fiatAmount);
    if (fiat && (amount.lt(fiat.min) || amount.gt(fiat.max))) {
      throw ProviderRejectedError.outsideLimits(fiat.min, fiat.max, request.fiat);
    }
    throw err;
  }

  return {
    info: MERCURYO_INFO,
    sell: createMercuryoSellAdapter(client, config, currencies, ids),
    // The widget URL is signed for the customer's IP address (see toWidgetParams).
    requiresCustomerIp: true,
    async getCatalogue(signal) {
      const [assets, countries] = await Promise.all([client.getCurrencies(signal), client.getCountries(signal)]);
      return fromCatalogue(currencies, assets.data, countries);
    },
    /** What reaches Mercuryo: its rate query (currencies, amount) and the method the answer is read for. */
    quoteKey: (request) => quoteKeyOf(request, QUOTE_FIELDS),
    async getQuote(request, signal) {
      const query = toRateQuery(request);
      try {
        return fromRate((await client.getBuyRate(query, signal)).data, request);
      } catch (err) {
        if (err instanceof ProviderRejectedError) return explainRefusal(err, request, signal);
        throw err;
      }
    },
    createOrder(request) {
      // No server-side order: the signed widget URL is the order, and the same order id always
      // yields the same URL. Mercuryo creates its transaction when the customer opens it.
      return Promise.resolve().then(() => ({
        orderId: request.orderId,
        providerStatus: MERCURYO_WIDGET_NOT_OPENED,
        status: 'created' as const,
        redirectUrl: buildWidgetUrl(config.widgetUrl, toWidgetParams(request, config)),
      }));
    },
    async getOrder(orderId) {
      return fromTransactions(orderId, await client.getTransactions(orderId), ids);
    },
    parseWebhook(webhook) {
      return Promise.resolve().then(() => parseMercuryoWebhook(webhook, config.signKey, ids));
    },

    /**
     * `GET /sdk-partner/transactions` by dates (Mercuryo's filter is by day: YYYY-MM-DD, both ends
     * included), offset-paged by 50 items, newest first; each purchase read as the status lookup
     * reads it (listing.ts, which also says how a purchase cut by a page is listed once).
     */
    transactions: {
      callsPerSecond: MERCURYO_LIST_RATE,
      async list(window, cursor, signal) {
        const at = listCursorOf(cursor);
        const { first, last } = windowDates(window);
        const answer = await client.listTransactions(first, last, at.offset, signal);
        return listedPage(answer.data, window, at, MERCURYO_LIST_LIMIT, ids);
      },
    },
  };
}

/** Mercuryo in the provider manifest (src/providers/manifest.ts). */
export const mercuryoProvider = defineProvider({
  info: MERCURYO_INFO,
  env: MercuryoEnvSchema,
  resolve: mercuryoConfig,
  createAdapter: (config, { currencies }) => createMercuryoAdapter(config, currencies),
  publishedValues: Object.values(MERCURYO_SIMULATOR_CREDENTIALS),
});
