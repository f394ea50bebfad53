import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { defineProvider } from '../descriptor';
import type { CallSignal } from '../kit/call-signal';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';
import { ProviderRejectedError, type ProviderAdapter, type ProviderInfo, type QuoteRequest } from '../types';
import { HISTORY_PAGE_SIZE, OnrampMoneyClient } from './client';
import { onrampMoneyConfig, OnrampMoneyEnvSchema, ONRAMP_MONEY_SIMULATOR_CREDENTIALS, type OnrampMoneyConfig } from './config';
import { historyListPage, historyPageOf, historySince } from './listing';
import { findOrderTransaction } from './lookup';
import { onrampMoneyCurrencyIds, type OnrampMoneyCurrencyIds } from './reported';
import type { OnrampMoneyConfigMapping } from './schemas';
import {
  fiatTypeOf,
  fromCatalogue,
  fromQuote,
  fromTransaction,
  ONRAMP_MONEY_WIDGET_NOT_OPENED,
  toQuoteBody,
  toWidgetParams,
} from './transformers';
import { onrampMoneyEvent, verifyOnrampMoneyWebhook } from './webhook';
import { buildWidgetUrl } from './widget';

export {
  OnrampMoneyEnvSchema,
  ONRAMP_MONEY_SIMULATOR_CREDENTIALS,
  onrampMoneyConfig,
  type OnrampMoneyConfig,
  type OnrampMoneySimulatorCredentials,
} from './config';

export const ONRAMP_MONEY_INFO = {
  code: 'onramp_money',
  name: 'Onramp.money',
  description: 'Buy crypto by local bank transfer (UPI, SEPA, PIX and more) in Onramp.money’s widget; crypto is sent to the wallet.',
  icon_url: 'https://onramp.money/favicon.ico',
} as const satisfies ProviderInfo;

/** The quote request's fields that reach the provider's quote call, and the method the answer is read for. */
const QUOTE_FIELDS: readonly QuoteField[] = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod'];

/** How long Onramp.money's id mapping (fiatType, coinId, chainId) is kept before it is asked again. */
const MAPPING_TTL_MS = 60 * 60 * 1000;

/** merchantHistory pages searched for an order, newest first: the broker's recent orders. */
const HISTORY_PAGES = 4;

/**
 * Onramp.money documents no rate for merchantHistory (only allConfigMapping's 10 calls a minute):
 * the transaction list keeps to 5 calls a second, beside the status lookups on the same endpoint.
 */
const ONRAMP_MONEY_LIST_RATE = 5;

export function createOnrampMoneyAdapter(config: OnrampMoneyConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new OnrampMoneyClient(config);
  let cached: { at: number; mapping: Promise<OnrampMoneyConfigMapping> } | undefined;

  /** allConfigMapping, kept for an hour (its rate limit is 10 requests a minute); a failed fetch is not kept. */
  function mapping(signal?: CallSignal): Promise<OnrampMoneyConfigMapping> {
    if (cached && Date.now() - cached.at < MAPPING_TTL_MS) return cached.mapping;
    const fetched = client.getConfigMapping(signal).then((answer) => answer.data);
    const entry = { at: Date.now(), mapping: fetched };
    cached = entry;
    fetched.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return fetched;
  }

  /** The merchant's latest transactions, page by page: at most HISTORY_PAGES pages. */
  async function* historyPages() {
    for (let page = 1; page <= HISTORY_PAGES; page++) {
      const { data } = await client.getHistory(page);
      yield data;
      if (data.length < HISTORY_PAGE_SIZE) return;
    }
  }

  const ids = async (signal?: CallSignal): Promise<OnrampMoneyCurrencyIds> => onrampMoneyCurrencyIds(currencies, await mapping(signal));

  /** A refusal of the amount says no more; the published limits of the fiatType tell the range. */
  async function explainRefusal(err: ProviderRejectedError, request: QuoteRequest, signal?: CallSignal): Promise<never> {
    if (err.code !== 'limits') throw err;
    const fiatType = fiatTypeOf(await mapping(signal), request.fiat.ticker);
    const limits = (await client.getLimits(signal).catch(() => undefined))?.data.onramp[String(fiatType)];
    const amount = decimal(request.fiatAmount);
    if (limits && (amount.lt(limits.min) || amount.gt(limits.max))) {
      throw ProviderRejectedError.outsideLimits(limits.min, limits.max, request.fiat);
    }
    throw err;
  }

  return {
    info: ONRAMP_MONEY_INFO,
    async getCatalogue(signal) {
      const [configMapping, chains, limits, countries] = await Promise.all([
        mapping(signal),
        client.getChainMapping(signal),
        client.getLimits(signal),
        client.getCountryConfig(signal),
      ]);
      return fromCatalogue(currencies, {
        mapping: configMapping,
        chains: chains.data,
        limits: limits.data.onramp,
        countries: countries.data.buy,
      });
    },
    quoteKey: (request) => quoteKeyOf(request, QUOTE_FIELDS),
    async getQuote(request, signal) {
      const body = toQuoteBody(request, await mapping(signal));
      try {
        return fromQuote((await client.getQuote(body, signal)).data, request);
      } catch (err) {
        if (err instanceof ProviderRejectedError) return explainRefusal(err, request, signal);
        throw err;
      }
    },
    async createOrder(request) {
      // No server-side order: the widget URL is the order, and the same order id always yields the
      // same URL. Onramp.money creates its transaction when the customer goes through the widget.
      const params = toWidgetParams(request, await mapping(), config.appId);
      return {
        orderId: request.orderId,
        providerStatus: ONRAMP_MONEY_WIDGET_NOT_OPENED,
        status: 'created' as const,
        redirectUrl: buildWidgetUrl(config.widgetUrl, params),
      };
    },
    async getOrder(orderId, providerOrderId) {
      // Onramp.money's order status call takes its own orderId only, and returns no terms; its
      // merchantHistory lists merchantRecognitionId (our order id) with every term, newest first.
      const currencyIds = await ids();
      const tx = await findOrderTransaction(historyPages(), orderId, providerOrderId);
      if (tx) return fromTransaction(tx, currencyIds);
      return { orderId, providerStatus: ONRAMP_MONEY_WIDGET_NOT_OPENED, status: 'created' };
    },
    async parseWebhook(webhook) {
      const tx = verifyOnrampMoneyWebhook(webhook, config.apiSecret);
      return onrampMoneyEvent(tx, await ids());
    },

    /**
     * `merchantHistory` `{page, pageSize: 500, since, order: "DESC", type: 1}`: the onramp
     * transactions from the window's start, newest first, page-numbered, 5 calls a second. Each row
     * reads as the status lookup reads it (listing.ts); the walk ends at a short page or at a page
     * reaching transactions made before the window.
     */
    transactions: {
      callsPerSecond: ONRAMP_MONEY_LIST_RATE,
      async list(window, cursor, signal) {
        const page = historyPageOf(cursor);
        const currencyIds = await ids(signal);
        const { data } = await client.listHistory(page, historySince(window), signal);
        return historyListPage(data, window, page, HISTORY_PAGE_SIZE, currencyIds);
      },
    },
  };
}

/** Onramp.money in the provider manifest (src/providers/manifest.ts). */
export const onrampMoneyProvider = defineProvider({
  info: ONRAMP_MONEY_INFO,
  env: OnrampMoneyEnvSchema,
  resolve: onrampMoneyConfig,
  createAdapter: (config, { currencies }) => createOnrampMoneyAdapter(config, currencies),
  publishedValues: Object.values(ONRAMP_MONEY_SIMULATOR_CREDENTIALS),
});
