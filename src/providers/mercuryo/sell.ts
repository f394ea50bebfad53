import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import type { CallSignal } from '../kit/call-signal';
import type { SellAdapter, SellQuoteRequest } from '../sell-types';
import { ProviderRejectedError } from '../types';
import type { MercuryoClient } from './client';
import type { MercuryoConfig } from './config';
import type { MercuryoCurrencyIds } from './reported';
import { buildSellWidgetUrl } from './sell-widget';
import { isMercuryoSellWebhook, parseMercuryoSellWebhook } from './sell-webhook';
import {
  fromSellCallback,
  fromSellConvert,
  fromSellCatalogue,
  fromSellTransactions,
  sellLegsOf,
  toSellConvertQuery,
  toSellWidgetParams,
} from './sell-transformers';

/**
 * Mercuryo's off-ramp (docs/providers/mercuryo.md, "Sell (off-ramp)"): a signed `type=sell` widget
 * URL with our order id as `merchant_transaction_id`, which Mercuryo echoes on the sell's two legs
 * (`deposit`, `sell`), looked up and called back as the buy legs are. No snapshot carries a deposit
 * address: the customer sees it in Mercuryo's widget (sell-transformers.ts says why).
 */
export function createMercuryoSellAdapter(
  client: MercuryoClient,
  config: MercuryoConfig,
  currencies: CurrencyDictionary,
  ids: MercuryoCurrencyIds,
): SellAdapter {
  /** Mercuryo's refusal of a quote says little; the pair's published sell limits tell whether the amount was the reason. */
  async function explainRefusal(err: ProviderRejectedError, request: SellQuoteRequest, signal?: CallSignal): Promise<never> {
    const limits = await client.getSellLimits(request.fiat.ticker, request.crypto.ticker, signal).catch(() => undefined);
    const crypto = limits?.data[request.crypto.ticker];
    const amount = decimal(request.cryptoAmount);
    if (crypto && (amount.lt(crypto.min) || amount.gt(crypto.max))) {
      throw new ProviderRejectedError('limits', `Mercuryo buys ${crypto.min} to ${crypto.max} ${request.crypto.ticker}`, {
        minAmount: crypto.min,
        maxAmount: crypto.max,
      });
    }
    throw err;
  }

  return {
    async getCatalogue(signal) {
      const [assets, limits, countries] = await Promise.all([
        client.getSellCurrencies(signal),
        client.getSellLimitsList(signal),
        client.getCountries(signal),
      ]);
      return fromSellCatalogue(currencies, assets.data, limits.data, countries.data);
    },

    /** What reaches Mercuryo's sell quote: the currencies, the amount, the payout method it is read for; no place, user or IP. */
    quoteKey: ({ crypto, fiat, cryptoAmount, payoutMethod }) => [crypto.id, fiat.id, cryptoAmount, payoutMethod].join('\u0000'),
    async getQuote(request, signal) {
      const query = toSellConvertQuery(request);
      try {
        return fromSellConvert((await client.getSellConvert(query, signal)).data, request);
      } catch (err) {
        if (err instanceof ProviderRejectedError) return explainRefusal(err, request, signal);
        throw err;
      }
    },

    async createOrder(request) {
      const redirectUrl = buildSellWidgetUrl(config.widgetUrl, toSellWidgetParams(request, config));
      // Mercuryo makes nothing until the customer opens the widget; a repeated call finds what it made.
      return { ...fromSellTransactions(request.orderId, await client.getTransactions(request.orderId), ids), redirectUrl };
    },

    async getOrder(orderId) {
      return fromSellTransactions(orderId, await client.getTransactions(orderId), ids);
    },

    isSellWebhook: isMercuryoSellWebhook,
    parseWebhook(webhook) {
      return parseMercuryoSellWebhook(webhook, config.signKey, async (data) => {
        const orderId = data.merchant_transaction_id;
        if (data.type !== 'sell' || data.status !== 'failed' || !orderId) return fromSellCallback(data, ids);
        // A failed sell leg is a refund after a received deposit and the lapsed deposit window without
        // one: the callback names one leg, the (authenticated) lookup shows the deposit leg beside it.
        const { deposit } = sellLegsOf(orderId, await client.getTransactions(orderId));
        return fromSellCallback(data, ids, deposit);
      });
    },
  };
}
