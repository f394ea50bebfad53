import type { CurrencyDictionary } from '../../domain/currency';
import type { SellAdapter } from '../sell-types';
import type { SandboxProviderConfig } from './config';
import { SandboxSellClient } from './sell-client';
import { fromSellCatalogue, fromSellOrder, fromSellQuote, sellQuoteKey, toSellOrderBody, toSellQuoteQuery } from './sell-transformers';
import { isSandboxSellWebhook, parseSandboxSellWebhook } from './sell-webhook';

/**
 * Sandbox Pay's sell (off-ramp) flow (docs/providers.md, "Sell (off-ramp)"). `config.baseUrl` is the
 * simulated provider's own base URL (the simulator host and its path). The deposit of every snapshot
 * comes from the sandbox's answer or verified event alone.
 */
export function createSandboxSellAdapter(config: SandboxProviderConfig, code: string, currencies: CurrencyDictionary): SellAdapter {
  const client = new SandboxSellClient(config, undefined, code);
  return {
    async getCatalogue(signal) {
      const [assets, countries, methods] = await Promise.all([
        client.getCurrencies(signal),
        client.getCountries(signal),
        client.getPayoutMethods(signal),
      ]);
      return fromSellCatalogue(currencies, assets, countries, methods);
    },
    quoteKey: sellQuoteKey,
    getQuote(request, signal) {
      return client.getQuote(toSellQuoteQuery(request), signal).then(fromSellQuote);
    },
    async createOrder(request) {
      const order = await client.createOrder(toSellOrderBody(request));
      return { ...fromSellOrder(order, currencies), redirectUrl: order.checkout_url };
    },
    async getOrder(orderId, providerOrderId) {
      const order = providerOrderId ? await client.getOrder(providerOrderId) : await client.getOrderByPartnerId(orderId);
      return fromSellOrder(order, currencies);
    },
    isSellWebhook: isSandboxSellWebhook,
    parseWebhook(webhook) {
      return Promise.resolve().then(() => parseSandboxSellWebhook(webhook, config.webhookSecret, currencies));
    },
  };
}
