import type { CurrencyDictionary } from '../../domain/currency';
import { webhookReport } from '../kit/webhook';
import {
  IgnoredWebhookError,
  ProviderRejectedError,
  ProviderUnavailableError,
  type CreateProviderOrderRequest,
  type ProviderAdapter,
  type ProviderInfo,
} from '../types';
import { createdAtText } from '../kit/created-at';
import { defineProvider } from '../descriptor';
import { BANXA_LIST_LIMIT, BanxaClient } from './client';
import { banxaListDates, banxaListPage, banxaPageOf } from './listing';
import { banxaConfig, BanxaEnvSchema, BANXA_SIMULATOR_CREDENTIALS, type BanxaConfig } from './config';
import type { BanxaOrder } from './schemas';
import {
  externalOrderIdOf,
  fromCatalogue,
  fromCreatedOrder,
  fromListedOrder,
  fromOrder,
  fromQuote,
  fromWebhook,
  limitsRejection,
  toBuyOrderRequest,
  toQuoteParams,
} from './transformers';
import { banxaEventId, parseBanxaWebhookBody, verifyBanxaWebhook } from './webhook';
import { createBanxaSellAdapter } from './sell';
import { isBanxaSellOrder } from './sell-transformers';

/** How old a Banxa order found under the order id may be to be adopted (half the workflow's clock skew). */
const ADOPT_WITHIN_MS = 5 * 60_000;

export { banxaConfig, BanxaEnvSchema, BANXA_SIMULATOR_CREDENTIALS, type BanxaConfig, type BanxaCredentials } from './config';

export const BANXA_INFO = {
  code: 'banxa',
  name: 'Banxa',
  description:
    'Licensed fiat-to-crypto on-ramp with a hosted checkout: cards, Apple Pay, Google Pay and local bank transfers in many countries.',
  icon_url: 'https://cdn.jsdelivr.net/gh/spothq/cryptocurrency-icons@master/svg/color/generic.svg',
} as const satisfies ProviderInfo;

/**
 * Banxa documents no lookup by the partner's order id, and does not say whether it refuses a
 * repeated one. Its order list filters by date and by customer (`externalCustomerId`), so a repeated
 * create looks among this customer's orders of the last two days: one call unless the customer has
 * more than a page of orders in that window, and never more than MAX_PAGES.
 */
const CREATE_LOOKBACK_DAYS = 2;
const PAGE_SIZE = 100;
const MAX_PAGES = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Banxa documents 500 calls a minute per IP address for all endpoints together (about 8 a second);
 * the list keeps to 5, leaving the rest to quotes, orders and status lookups.
 */
const BANXA_LIST_RATE = 5;

export function createBanxaAdapter(config: BanxaConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new BanxaClient(config);

  /** The Banxa order an earlier attempt created for this broker order, if any. */
  /**
   * A Banxa order found under this order id but made long before this call: an earlier run's, whose
   * answer was lost (the run failed; the integrator asked again later), or one a long worker outage
   * separated from this attempt. The order workflow refuses reports about a provider order made
   * before the order (by more than its clock skew, 10 minutes), so adopting it would leave a paid
   * order stuck; refused here, the integrator orders again under a new external_order_id.
   */
  function refuseStaleOrder(existing: BanxaOrder): void {
    const madeAt = Date.parse(createdAtText(existing.createdAt).providerOrderCreatedAt ?? '');
    if (madeAt < Date.now() - ADOPT_WITHIN_MS) {
      throw new ProviderRejectedError(
        'rejected',
        `Banxa order ${existing.id} was made for this order id at ${new Date(madeAt).toISOString()}, too long ago to be this order's: order again under a new external_order_id`,
      );
    }
  }

  /**
   * The Banxa order an earlier attempt created for broker order `orderId` of customer
   * `externalUserId`, of one side: buys (`sell` false) or sells.
   */
  async function findCreated(
    request: Pick<CreateProviderOrderRequest, 'orderId' | 'externalUserId'>,
    sell = false,
  ): Promise<BanxaOrder | undefined> {
    const now = Date.now();
    const window = {
      start: isoDate(now - CREATE_LOOKBACK_DAYS * DAY_MS),
      end: isoDate(now + DAY_MS),
      externalCustomerId: request.externalUserId,
      limit: PAGE_SIZE,
    };
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { orders, pageTotal } = await client.listOrders({ ...window, page });
      const match = orders.find((o) => externalOrderIdOf(o) === request.orderId && isBanxaSellOrder(o) === sell);
      if (match) return match;
      if (orders.length < PAGE_SIZE || (pageTotal !== undefined && page >= pageTotal)) return undefined;
    }
    // Creating now could make a second Banxa order for this one: refusing is the lesser harm.
    throw new ProviderRejectedError(
      'rejected',
      `Banxa lists more than ${MAX_PAGES * PAGE_SIZE} orders of customer ${request.externalUserId} in ${CREATE_LOOKBACK_DAYS + 1} days; cannot check this order was not created already`,
    );
  }

  /** A buy order's lookup never reports a sell order (the sell adapter reads those). */
  const bought = (order: BanxaOrder): BanxaOrder => {
    if (isBanxaSellOrder(order)) throw new ProviderRejectedError('not_found', `Banxa order ${order.id} is a SELL order`);
    return order;
  };

  return {
    info: BANXA_INFO,
    sell: createBanxaSellAdapter(client, config, currencies, (request) => findCreated(request, true), refuseStaleOrder),

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
      const existing = await findCreated(request);
      if (existing) {
        refuseStaleOrder(existing);
        // The one-time checkout URL is not returned again; the order's status page is.
        const redirectUrl = existing.checkoutUrl ?? existing.orderStatusUrl;
        if (!redirectUrl) throw new ProviderRejectedError('rejected', `Banxa order ${existing.id} exists but has no customer link`);
        return { ...fromCreatedOrder(existing, request.orderId, currencies), redirectUrl };
      }
      const created = await client.createBuyOrder(toBuyOrderRequest(request, config.brokerPublicUrl));
      return { ...fromCreatedOrder(created, request.orderId, currencies), redirectUrl: created.checkoutUrl };
    },

    async getOrder(orderId, providerOrderId) {
      // The order workflow keeps the Banxa id from creation on; Banxa looks orders up by it alone.
      if (!providerOrderId) throw new ProviderRejectedError('not_found', `no Banxa order id is known for order ${orderId}`);
      const snapshot = fromOrder(bought(await client.getOrder(providerOrderId)), currencies);
      if (!snapshot) throw new ProviderUnavailableError(`/v2/orders/${providerOrderId}: the order names no partner reference`);
      return snapshot;
    },

    async parseWebhook(webhook) {
      verifyBanxaWebhook(webhook, config, config.webhookPath);
      const body = parseBanxaWebhookBody(webhook.rawBody);
      // A sell order's event is the sell adapter's: nothing of a sell reaches a buy order.
      if (body.order_type === 'SELL') throw new IgnoredWebhookError(`Banxa order ${body.order_id} is a SELL order`);
      // Always read the order: a v2 body never names the wallet, which every report is checked against.
      const order = await client.getOrder(body.order_id);
      if (isBanxaSellOrder(order)) throw new IgnoredWebhookError(`Banxa order ${body.order_id} is a SELL order`);
      const event = webhookReport(() => fromWebhook(body, order, currencies));
      if (!event) throw new ProviderRejectedError('not_found', `Banxa order ${body.order_id} carries no external order id`);
      return { ...event, eventId: banxaEventId(webhook.rawBody) };
    },

    /**
     * `GET /v2/orders` by creation dates (Banxa's filter is by day), page-numbered, 5 calls a second.
     * Each order reads as its status lookup reads it (fromListedOrder); one naming no partner
     * reference is listed by Banxa's id alone.
     */
    transactions: {
      callsPerSecond: BANXA_LIST_RATE,
      async list(window, cursor, signal) {
        const page = banxaPageOf(cursor);
        const { start, end } = banxaListDates(window);
        const { orders, pageTotal } = await client.listTransactions(start, end, page, signal);
        // Banxa's one list holds both sides: a sell order is no buy transaction.
        return banxaListPage(
          orders.filter((order) => !isBanxaSellOrder(order)).map((order) => fromListedOrder(order, currencies)),
          window,
          page,
          BANXA_LIST_LIMIT,
          pageTotal,
          orders.length,
        );
      },
    },
  };
}

/** Banxa in the provider manifest (src/providers/manifest.ts). */
export const banxaProvider = defineProvider({
  info: BANXA_INFO,
  env: BanxaEnvSchema,
  resolve: banxaConfig,
  createAdapter: (config, { currencies }) => createBanxaAdapter(config, currencies),
  publishedValues: [BANXA_SIMULATOR_CREDENTIALS.apiKey, BANXA_SIMULATOR_CREDENTIALS.apiSecret],
});
