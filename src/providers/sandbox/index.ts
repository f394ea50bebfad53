import type { CurrencyDictionary } from '../../domain/currency';
import type { ProviderAdapter, ProviderInfo } from '../types';
import { defineProvider } from '../descriptor';
import { SandboxClient } from './client';
import { DEV_SANDBOX_API_KEY, DEV_SANDBOX_WEBHOOK_SECRET, sandboxConfig, SandboxEnvSchema, type SandboxProviderConfig } from './config';
import { fromCatalogue, fromOrder, fromQuote, toOrderBody, toQuoteQuery } from './transformers';
import { parseSandboxWebhook } from './webhook';
import { createSandboxSellAdapter } from './sell';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';

const ICON = 'https://cdn.jsdelivr.net/gh/spothq/cryptocurrency-icons@master/svg/color/generic.svg';

/** The generic simulated provider (the simulator host's `sandbox` profile). */
export const SANDBOX_INFO = {
  code: 'sandbox',
  name: 'Sandbox Pay',
  description: 'Simulated card and bank-transfer provider in North America, Europe, Australia and Brazil. No real money moves.',
  icon_url: ICON,
} as const satisfies ProviderInfo;

/** What reaches the simulated provider: its quote query, from currencies, amount, method, country and state. */
const QUOTE_FIELDS: readonly QuoteField[] = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod', 'country', 'state'];

export function createSandboxAdapter(config: SandboxProviderConfig, info: ProviderInfo, currencies: CurrencyDictionary): ProviderAdapter {
  // A simulated provider lives under its own path of the simulator host.
  const providerConfig = { ...config, baseUrl: `${config.baseUrl}/${info.code}` };
  const client = new SandboxClient(providerConfig, undefined, info.code);
  return {
    info,
    sell: createSandboxSellAdapter(providerConfig, info.code, currencies),
    async getCatalogue(signal) {
      const [assets, countries, methods] = await Promise.all([
        client.getCurrencies(signal),
        client.getCountries(signal),
        client.getPaymentMethods(signal),
      ]);
      return fromCatalogue(currencies, assets, countries, methods);
    },
    quoteKey: (request) => quoteKeyOf(request, QUOTE_FIELDS),
    getQuote(request, signal) {
      return client.getQuote(toQuoteQuery(request), signal).then(fromQuote);
    },
    async createOrder(request) {
      const order = await client.createOrder(toOrderBody(request));
      return { ...fromOrder(order, currencies), redirectUrl: order.checkout_url };
    },
    async getOrder(orderId, providerOrderId) {
      const order = providerOrderId ? await client.getOrder(providerOrderId) : await client.getOrderByPartnerId(orderId);
      return fromOrder(order, currencies);
    },
    /**
     * The sandbox's cancel of an unpaid order (`POST /v1/orders/{id}/cancel`), found by the broker's
     * order id when the provider order id is not known yet. It ends the order `FAILED`
     * (`cancelled_by_partner`), reported by its webhook and the next lookup; an order paid or ended
     * is refused (`rejected`), an unknown one too (`not_found`).
     */
    async cancelOrder(orderId, providerOrderId, signal) {
      const id = providerOrderId ?? (await client.getOrderByPartnerId(orderId, signal)).id;
      await client.cancelOrder(id, signal);
    },
    parseWebhook(webhook) {
      return Promise.resolve().then(() => parseSandboxWebhook(webhook, config.webhookSecret, currencies));
    },
  };
}

/** The sandbox in the provider manifest (src/providers/manifest.ts). */
export const sandboxProvider = defineProvider({
  info: SANDBOX_INFO,
  env: SandboxEnvSchema,
  resolve: sandboxConfig,
  createAdapter: (config, { currencies }) => createSandboxAdapter(config, SANDBOX_INFO, currencies),
  publishedValues: [DEV_SANDBOX_API_KEY, DEV_SANDBOX_WEBHOOK_SECRET],
});
