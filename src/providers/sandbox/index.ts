import type { SandboxProviderConfig } from '../../config';
import type { ProviderAdapter } from '../types';
import { SandboxClient } from './client';
import { fromOrder, fromQuote, toOrderBody, toQuoteParams } from './transformers';
import { parseSandboxWebhook } from './webhook';

export const SANDBOX_PROVIDER_INFO = {
  code: 'sandbox',
  name: 'Sandbox Pay',
  description: 'Local simulator of a card and bank-transfer provider, for development and tests. No real money moves.',
  icon_url: 'https://cdn.jsdelivr.net/gh/spothq/cryptocurrency-icons@master/svg/color/generic.svg',
};

export function createSandboxAdapter(config: SandboxProviderConfig): ProviderAdapter {
  const client = new SandboxClient(config);
  return {
    info: SANDBOX_PROVIDER_INFO,
    async getQuote(request, signal) {
      return fromQuote(await client.getQuote(toQuoteParams(request), signal));
    },
    async createOrder(request) {
      const order = await client.createOrder(toOrderBody(request));
      return { ...fromOrder(order), redirectUrl: order.checkout_url };
    },
    async getOrder(orderId, providerOrderId) {
      const order = providerOrderId ? await client.getOrder(providerOrderId) : await client.getOrderByPartnerId(orderId);
      return fromOrder(order);
    },
    parseWebhook(webhook) {
      return parseSandboxWebhook(webhook, config.webhookSecret);
    },
  };
}
