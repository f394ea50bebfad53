import type { CurrencyDictionary } from '../../domain/currency';
import type { SellAdapter, SellOrderSnapshot } from '../sell-types';
import type { TransakClient } from './client';
import type { TransakConfig } from './config';
import { fromSellCatalogue, fromSellOrder, fromSellQuote, sellQuoteKey, toSellQuoteParams, toSellWidgetParams } from './sell-transformers';
import { isTransakSellWebhook, parseTransakSellWebhook } from './sell-webhook';

/** The provider status reported before the customer has finished the sell in Transak's widget: no order, no deposit yet. */
export const NO_SELL_ORDER_YET = 'NO_ORDER_YET';

const notPlacedYet = (orderId: string): SellOrderSnapshot => ({ orderId, providerStatus: NO_SELL_ORDER_YET, status: 'created' });

/**
 * Transak's off-ramp (docs/providers/transak.md, "Sell (off-ramp)"): a widget session with
 * `productsAvailed=SELL` and our order id as `partnerOrderId`; Transak makes the order, with its
 * deposit address, once the customer finishes the widget, and the adapter finds it by that id. The
 * deposit comes from Transak's order alone (its Partner API answer or a verified webhook).
 */
export function createTransakSellAdapter(client: TransakClient, config: TransakConfig, currencies: CurrencyDictionary): SellAdapter {
  async function findOrder(orderId: string) {
    const orders = await client.getSellOrdersByPartnerOrderId(orderId);
    return orders.find((order) => order.partnerOrderId === orderId);
  }

  return {
    async getCatalogue(signal) {
      const [cryptos, fiats, countries] = await Promise.all([
        client.getCryptoCurrencies(signal),
        client.getFiatCurrencies(signal),
        client.getCountries(signal),
      ]);
      return fromSellCatalogue(currencies, cryptos.response, fiats.response, countries.response);
    },

    quoteKey: sellQuoteKey,
    async getQuote(request, signal) {
      return fromSellQuote(await client.getQuote(toSellQuoteParams(request), signal));
    },

    /**
     * A widget URL is single-use and short-lived, so each call opens a new session; the order exists
     * once, under our order id. No deposit before Transak has made the order (the session's answer
     * names none).
     */
    async createOrder(request) {
      const widgetParams = toSellWidgetParams(request, config);
      const existing = await findOrder(request.orderId);
      const redirectUrl = await client.createWidgetUrl(widgetParams);
      return existing ? { ...fromSellOrder(existing, currencies), redirectUrl } : { ...notPlacedYet(request.orderId), redirectUrl };
    },

    async getOrder(orderId, providerOrderId) {
      if (providerOrderId) return fromSellOrder(await client.getSellOrder(providerOrderId), currencies);
      const order = await findOrder(orderId);
      return order ? fromSellOrder(order, currencies) : notPlacedYet(orderId);
    },

    isSellWebhook: isTransakSellWebhook,
    parseWebhook(webhook) {
      return parseTransakSellWebhook(webhook, () => client.tokens.candidates(), currencies);
    },
  };
}
