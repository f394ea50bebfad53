import type { SharedValues } from '../shared-values';
import type { CurrencyDictionary } from '../../domain/currency';
import type { ProviderAdapter, ProviderInfo, ProviderOrderSnapshot } from '../types';
import { defineProvider } from '../descriptor';
import { TransakClient } from './client';
import { transakConfig, TransakEnvSchema, TRANSAK_SIMULATOR_CREDENTIALS, type TransakConfig } from './config';
import { fromCatalogue, fromOrder, fromQuote, toQuoteParams, toWidgetParams } from './transformers';
import { parseTransakWebhook } from './webhook';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';

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
    return orders.find((order) => order.partnerOrderId === orderId);
  }

  return {
    info: TRANSAK_INFO,

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
      if (providerOrderId) return fromOrder(await client.getOrder(providerOrderId), currencies);
      const order = await findOrder(orderId);
      return order ? fromOrder(order, currencies) : notPlacedYet(orderId);
    },

    async parseWebhook(webhook) {
      return parseTransakWebhook(webhook, () => client.tokens.candidates(), currencies);
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
