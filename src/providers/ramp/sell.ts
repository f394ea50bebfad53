import type { KeyObject } from 'node:crypto';
import type { CryptoCurrency, CurrencyDictionary, FiatCurrency } from '../../domain/currency';
import type { CallSignal } from '../kit/call-signal';
import type { SellAdapter } from '../sell-types';
import { ProviderRejectedError } from '../types';
import type { RampClient } from './client';
import type { RampConfig } from './config';
import {
  findOfframpAsset,
  fromSale,
  fromSaleProviderOrderId,
  fromSellCatalogue,
  fromSellQuote,
  noSaleYet,
  offrampFiat,
  payoutMethodByCode,
  saleLimits,
  toSellQuoteRequest,
  toSellWidgetUrl,
} from './sell-transformers';
import { isRampSellWebhook, parseRampSaleWebhook } from './sell-webhook';

/**
 * Ramp's off-ramp (docs/providers/ramp.md, "Sell (off-ramp)"): an order is the widget URL in its
 * OFFRAMP flow, with our order id and its MAC on offrampWebhookV3Url; Ramp creates the sale when the
 * customer accepts it there, posts signed sale webhooks to that URL, and the sale is read back with
 * the id and view token they bring. No snapshot carries a deposit address (see sell-transformers.ts).
 */
export function createRampSellAdapter(
  client: RampClient,
  config: RampConfig,
  publicKey: KeyObject,
  currencies: CurrencyDictionary,
): SellAdapter {
  /** The off-ramp asset for this crypto in this fiat currency and the sale's fiat range; the payout method known. */
  async function termsFor(request: { fiat: FiatCurrency; crypto: CryptoCurrency; payoutMethod: string }, signal?: CallSignal) {
    if (!payoutMethodByCode(request.payoutMethod)) {
      throw new ProviderRejectedError('payment_method', `Ramp does not pay out by ${request.payoutMethod}`);
    }
    const assets = await client.getOfframpAssets(request.fiat.ticker, signal);
    const asset = findOfframpAsset(assets, request.crypto);
    if (!asset) throw new ProviderRejectedError('currency', `Ramp does not buy ${request.crypto.ticker} on ${request.crypto.network}`);
    return { asset, limits: saleLimits(assets, asset, request.fiat) };
  }

  return {
    async getCatalogue(signal) {
      const [rampCurrencies, methods, countries] = await Promise.all([
        client.getCurrencies(signal),
        client.getPayoutMethods(signal),
        client.getCountries(signal),
      ]);
      const fiat = offrampFiat(currencies, rampCurrencies);
      const assets = await Promise.all(fiat.map(async (f) => [f.ticker, await client.getOfframpAssets(f.ticker, signal)] as const));
      return fromSellCatalogue(currencies, fiat, new Map(assets), methods, countries);
    },

    /** What reaches Ramp: the asset, fiat currency and amount, and the payout method the answer is read for. */
    quoteKey: ({ crypto, fiat, cryptoAmount, payoutMethod }) => [crypto.id, fiat.id, cryptoAmount, payoutMethod].join('\u0000'),
    async getQuote(request, signal) {
      const { asset, limits } = await termsFor(request, signal);
      const quote = await client.getSellQuote(toSellQuoteRequest(request.cryptoAmount, request.fiat, asset), signal);
      return fromSellQuote(quote, request, limits);
    },

    async createOrder(request) {
      // No call creates anything at Ramp: the same request always yields the same URL.
      const { asset } = await termsFor(request);
      return { ...noSaleYet(request.orderId), redirectUrl: toSellWidgetUrl(config, request, asset) };
    },

    async getOrder(orderId, providerOrderId) {
      const sale = providerOrderId === undefined ? undefined : fromSaleProviderOrderId(providerOrderId);
      if (!sale) return noSaleYet(orderId);
      return fromSale(orderId, await client.getSale(sale.saleId, sale.viewToken), currencies, sale.viewToken);
    },

    isSellWebhook: isRampSellWebhook,
    parseWebhook(webhook) {
      return Promise.resolve().then(() => parseRampSaleWebhook(webhook, publicKey, config.webhookUrlSecret, currencies));
    },
  };
}
