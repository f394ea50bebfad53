import type { SharedValues } from '../shared-values';
import type { CurrencyDictionary } from '../../domain/currency';
import { ProviderRejectedError, type ProviderAdapter, type ProviderInfo, type ProviderOrderSnapshot } from '../types';
import { defineProvider } from '../descriptor';
import { TransakClient, TRANSAK_LIST_LIMIT } from './client';
import { transakConfig, TransakEnvSchema, TRANSAK_SIMULATOR_CREDENTIALS, type TransakConfig } from './config';
import { fromCatalogue, fromListedOrder, fromOrder, fromQuote, toQuoteParams, toWidgetParams } from './transformers';
import { parseTransakWebhook } from './webhook';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';
import { offsetPage, windowDates } from '../kit/listed';
import { listPosition, nextListCursor } from './order-list';
import type { TransakOrder } from './schemas';
import { createTransakSellAdapter } from './sell';

export { TransakEnvSchema, TRANSAK_SIMULATOR_CREDENTIALS, transakConfig, type TransakConfig } from './config';

/**
 * The provider status reported before the customer has confirmed the order in Transak's widget:
 * Transak has no order yet, so the broker's order stays `created`.
 */
export const NO_ORDER_YET = 'NO_ORDER_YET';

export const TRANSAK_INFO = {
  code: 'transak',
  name: 'Transak',
  description: 'Buy crypto with cards, Apple Pay, Google Pay and local bank transfers through the Transak widget.',
  icon_url: 'https://assets.transak.com/images/website/transak-logo.svg',
} as const satisfies ProviderInfo;

const notPlacedYet = (orderId: string): ProviderOrderSnapshot => ({ orderId, providerStatus: NO_ORDER_YET, status: 'created' });

/** Transak documents no rate for its partner API: the list keeps to 5 calls a second, beside the status lookups. */
const TRANSAK_LIST_RATE = 5;
/**
 * The widest window one walk asks for: 90 days. Transak's order list searches the last 90 days when
 * no dates are given (docs.transak.com/api/public/get-orders) and documents no wider bound.
 */
const TRANSAK_LIST_MAX_WINDOW_MS = 90 * 86_400_000;

/** The quote request's fields that reach the provider's quote call (its quoteKey). */
const QUOTE_FIELDS: readonly QuoteField[] = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod', 'country'];

/**
 * Transak through its partner APIs. Orders are placed by the customer in Transak's widget: the
 * adapter opens a widget session fixed to the order, with our order id as `partnerOrderId`, and
 * finds the order by that id afterwards.
 */
/** `shared` (Redis) lets every process of the broker use one access token; see access-token.ts. */
export function createTransakAdapter(config: TransakConfig, currencies: CurrencyDictionary, shared?: SharedValues): ProviderAdapter {
  const client = new TransakClient(config, shared);

  async function findOrder(orderId: string) {
    const orders = await client.getOrdersByPartnerOrderId(orderId);
    return orders.find((order) => order.partnerOrderId === orderId && order.isBuyOrSell !== 'SELL');
  }

  /** A buy order's lookup never reports a sell order (the sell adapter reads those). */
  const bought = (order: TransakOrder): TransakOrder => {
    if (order.isBuyOrSell === 'SELL')
      throw new ProviderRejectedError('not_found', `Transak order ${order.id ?? order._id} is a SELL order`);
    return order;
  };

  return {
    info: TRANSAK_INFO,
    sell: createTransakSellAdapter(client, config, currencies),

    async getCatalogue(signal) {
      const [cryptos, fiats, countries] = await Promise.all([
        client.getCryptoCurrencies(signal),
        client.getFiatCurrencies(signal),
        client.getCountries(signal),
      ]);
      return fromCatalogue(currencies, cryptos.response, fiats.response, countries.response);
    },

    /** What reaches Transak: its public pricing query, from currencies, method, amount and quote country. */
    quoteKey: (request) => quoteKeyOf(request, QUOTE_FIELDS),
    async getQuote(request, signal) {
      return fromQuote(await client.getQuote(toQuoteParams(request), signal));
    },

    /**
     * A widget URL is single-use and short-lived, so each call opens a new session; the order itself
     * exists once, under our order id, whichever session the customer completes it in.
     */
    async createOrder(request) {
      const widgetParams = toWidgetParams(request, config);
      const existing = await findOrder(request.orderId);
      const redirectUrl = await client.createWidgetUrl(widgetParams);
      return existing ? { ...fromOrder(existing, currencies), redirectUrl } : { ...notPlacedYet(request.orderId), redirectUrl };
    },

    async getOrder(orderId, providerOrderId) {
      if (providerOrderId) return fromOrder(bought(await client.getOrder(providerOrderId)), currencies);
      const order = await findOrder(orderId);
      return order ? fromOrder(order, currencies) : notPlacedYet(orderId);
    },

    async parseWebhook(webhook) {
      return parseTransakWebhook(webhook, () => client.tokens.candidates(), currencies);
    },

    /**
     * `GET /partners/api/v2/orders` by dates (Transak's filter is by day), skip-paged, one status
     * after another (its default status filter is COMPLETED alone: order-list.ts), 5 calls a second.
     */
    transactions: {
      callsPerSecond: TRANSAK_LIST_RATE,
      maxWindowMs: TRANSAK_LIST_MAX_WINDOW_MS,
      async list(window, cursor, signal) {
        const position = listPosition(cursor);
        const { first, last } = windowDates(window);
        const rows = await client.listOrders(first, last, position.status, position.skip, signal);
        const page = offsetPage(
          rows.map((row) => fromListedOrder(row, currencies)),
          window,
          position.skip,
          TRANSAK_LIST_LIMIT,
        );
        const next = nextListCursor(position, page.cursor);
        return { transactions: page.transactions, unreadable: page.unreadable, ...(next === undefined ? {} : { cursor: next }) };
      },
    },
  };
}

/** Transak in the provider manifest (src/providers/manifest.ts). */
export const transakProvider = defineProvider({
  info: TRANSAK_INFO,
  env: TransakEnvSchema,
  resolve: transakConfig,
  createAdapter: (config, { currencies, shared }) => createTransakAdapter(config, currencies, shared),
  publishedValues: Object.values(TRANSAK_SIMULATOR_CREDENTIALS),
});
