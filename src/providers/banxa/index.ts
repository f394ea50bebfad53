import type { CurrencyDictionary } from '../../domain/currency';
import { ProviderRejectedError, type ProviderAdapter, type ProviderInfo } from '../types';
import { BanxaClient } from './client';
import type { BanxaConfig } from './config';
import type { BanxaOrder } from './schemas';
import {
  externalOrderIdOf,
  fromCatalogue,
  fromOrder,
  fromQuote,
  fromWebhook,
  limitsRejection,
  toBuyOrderRequest,
  toQuoteParams,
} from './transformers';
import { banxaEventId, parseBanxaWebhookBody, verifyBanxaWebhook } from './webhook';

export { banxaConfig, BanxaEnvSchema, BANXA_SIMULATOR_CREDENTIALS, type BanxaConfig, type BanxaCredentials } from './config';

export const BANXA_INFO: ProviderInfo = {
  code: 'banxa',
  name: 'Banxa',
  description: 'Licensed fiat-to-crypto on-ramp with a hosted checkout: cards, Apple Pay, Google Pay and local bank transfers in many countries.',
  icon_url: 'https://cdn.jsdelivr.net/gh/spothq/cryptocurrency-icons@master/svg/color/generic.svg',
};

/**
 * Banxa documents no lookup by the partner's order id, only a list by date range; the broker finds
 * its orders there. A repeated create looks back two days, a status lookup by our id thirty.
 */
const CREATE_LOOKBACK_DAYS = 2;
const STATUS_LOOKBACK_DAYS = 30;
const PAGE_SIZE = 100;
const MAX_PAGES = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function createBanxaAdapter(config: BanxaConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new BanxaClient(config);

  async function findByExternalId(orderId: string, lookbackDays: number): Promise<BanxaOrder | undefined> {
    const now = Date.now();
    const window = { start: isoDate(now - lookbackDays * DAY_MS), end: isoDate(now + DAY_MS), limit: PAGE_SIZE };
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { orders, pageTotal } = await client.listOrders({ ...window, page });
      const match = orders.find((o) => externalOrderIdOf(o) === orderId);
      if (match) return match;
      if (orders.length < PAGE_SIZE || (pageTotal !== undefined && page >= pageTotal)) return undefined;
    }
    return undefined;
  }

  return {
    info: BANXA_INFO,

    async getCatalogue(signal) {
      const [crypto, fiats, countries, usStates] = await Promise.all([
        client.getCrypto(signal),
        client.getFiats(signal),
        client.getCountries(signal),
        client.getUsStates(signal),
      ]);
      return fromCatalogue(currencies, crypto, fiats, countries, usStates);
    },

    async getQuote(request, signal) {
      const params = toQuoteParams(request);
      try {
        return fromQuote(await client.getQuote(params, signal), request.paymentMethod);
      } catch (err) {
        // Banxa's refusal bodies state no limits; its fiat list does.
        if (!(err instanceof ProviderRejectedError) || err.code !== 'rejected') throw err;
        throw limitsRejection(await client.getFiats(signal), request) ?? err;
      }
    },

    async createOrder(request) {
      const existing = await findByExternalId(request.orderId, CREATE_LOOKBACK_DAYS);
      if (existing) {
        // The one-time checkout URL is not returned again; the order's status page is.
        const redirectUrl = existing.checkoutUrl ?? existing.orderStatusUrl;
        if (!redirectUrl) throw new ProviderRejectedError('rejected', `Banxa order ${existing.id} exists but has no customer link`);
        return { ...fromOrder(existing, request.orderId), redirectUrl };
      }
      const created = await client.createBuyOrder(toBuyOrderRequest(request, config.brokerPublicUrl));
      // Banxa's first status of a new order is pendingPayment.
      return { ...fromOrder({ ...created, status: created.status ?? 'pendingPayment' }, request.orderId), redirectUrl: created.checkoutUrl };
    },

    async getOrder(orderId, providerOrderId) {
      const order = providerOrderId ? await client.getOrder(providerOrderId) : await findByExternalId(orderId, STATUS_LOOKBACK_DAYS);
      if (!order) throw new ProviderRejectedError('not_found', `Banxa has no order with external id ${orderId}`);
      return fromOrder(order, orderId);
    },

    async parseWebhook(webhook) {
      verifyBanxaWebhook(webhook, config, config.webhookPath);
      const body = parseBanxaWebhookBody(webhook.rawBody);
      const selfContained = body.status !== undefined && Boolean(body.external_id) && Boolean(body.crypto_amount);
      const order = selfContained ? undefined : await client.getOrder(body.order_id);
      const event = fromWebhook(body, order);
      if (!event) throw new ProviderRejectedError('not_found', `Banxa order ${body.order_id} carries no external order id`);
      return { ...event, eventId: banxaEventId(webhook.rawBody) };
    },
  };
}
