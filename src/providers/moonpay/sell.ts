import type { CurrencyDictionary } from '../../domain/currency';
import type { SellAdapter } from '../sell-types';
import type { MoonpayAssetIndex } from './assets';
import type { MoonpayClient } from './client';
import { sellWidgetUrlOf, type MoonpayConfig } from './config';
import {
  fromSellCatalogue,
  fromSellQuote,
  fromSellTransaction,
  fromSellTransactions,
  resolveSellTerms,
  toSellQuoteParams,
  toSellWidgetParams,
} from './sell-transformers';
import { isMoonpaySellWebhook, parseMoonpaySellWebhook } from './sell-webhook';
import { signedWidgetUrl } from './widget';
import type { CallSignal } from '../kit/call-signal';

/**
 * MoonPay's off-ramp (docs/providers/moonpay.md, "Sell (off-ramp)"): a signed sell-widget URL with
 * our order id as `externalTransactionId`; MoonPay makes the sell transaction once the customer
 * confirms the sale, and the adapter finds it by that id. MoonPay's documented server-side messages
 * name no deposit address, so no snapshot carries one: the customer sees it in MoonPay's widget.
 */
export function createMoonpaySellAdapter(
  client: MoonpayClient,
  config: MoonpayConfig,
  currencies: CurrencyDictionary,
  assetIndex: (signal?: CallSignal) => Promise<MoonpayAssetIndex>,
  remember: (signal?: AbortSignal) => Promise<MoonpayAssetIndex>,
): SellAdapter {
  return {
    async getCatalogue(signal) {
      const [index, countries] = await Promise.all([remember(signal), client.getCountries(signal)]);
      return fromSellCatalogue(index, countries);
    },

    /** The sell quote's inputs (currencies, amount, payout method) and the place its currency rules refuse; no user or IP. */
    quoteKey: ({ crypto, fiat, cryptoAmount, payoutMethod, country, state }) =>
      [crypto.id, fiat.id, cryptoAmount, payoutMethod, country, state ?? ''].join('\u0000'),
    async getQuote(request, signal) {
      const terms = resolveSellTerms(await assetIndex(signal), request);
      const quote = await client.getSellQuote(terms.crypto.code, toSellQuoteParams(terms, request.cryptoAmount), signal);
      return fromSellQuote(quote, request.payoutMethod);
    },

    async createOrder(request) {
      const terms = resolveSellTerms(await assetIndex(), request);
      const redirectUrl = signedWidgetUrl(
        sellWidgetUrlOf(config),
        config.secretKey,
        toSellWidgetParams(config.publishableKey, terms, request),
      );
      // Nothing exists at MoonPay until the customer confirms the sale; a repeated call finds what does.
      return { ...fromSellTransactions(request.orderId, await client.findSellTransactions(request.orderId), currencies), redirectUrl };
    },

    async getOrder(orderId, providerOrderId) {
      if (providerOrderId) return fromSellTransaction(await client.getSellTransaction(providerOrderId), currencies);
      return fromSellTransactions(orderId, await client.findSellTransactions(orderId), currencies);
    },

    isSellWebhook: isMoonpaySellWebhook,
    parseWebhook(webhook) {
      return Promise.resolve().then(() => parseMoonpaySellWebhook(webhook, config.webhookKey, currencies));
    },
  };
}
