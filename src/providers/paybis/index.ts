import type { CurrencyDictionary } from '../../domain/currency';
import { defineProvider } from '../descriptor';
import { webhookReport } from '../kit/webhook';
import { PROVIDER_CLOCK_SKEW_MS } from '../../domain/integrity';
import {
  IgnoredWebhookError,
  ProviderRejectedError,
  ProviderUnavailableError,
  type OrderLookupContext,
  type ProviderAdapter,
  type ProviderInfo,
} from '../types';
import { PaybisClient, PAYBIS_LIST_LIMIT } from './client';
import { paybisConfig, PaybisEnvSchema, PAYBIS_PUBLISHED_VALUES, type PaybisConfig } from './config';
import { listedPage, toListRange } from './listing';
import { requestTransaction } from './lookup';
import type { PaybisTransaction } from './schemas';
import { paybisLeftToLookup } from './status-map';
import {
  fromCatalogue,
  fromQuote,
  fromTransaction,
  fromWebhook,
  limitsRejection,
  requestOnly,
  toQuoteRequest,
  toRequestBody,
  widgetUrl,
} from './transformers';
import { parsePaybisWebhookBody, paybisEventId, paybisWebhookKey, verifyPaybisWebhook } from './webhook';

export { paybisConfig, PaybisEnvSchema, PAYBIS_SIMULATOR_CREDENTIALS, type PaybisConfig, type PaybisCredentials } from './config';

export const PAYBIS_INFO = {
  code: 'paybis',
  name: 'Paybis',
  description: 'Crypto on-ramp with a hosted widget: cards, Apple Pay, Google Pay, SEPA, Faster Payments and PIX.',
  icon_url: 'https://cdn.jsdelivr.net/gh/spothq/cryptocurrency-icons@master/svg/color/generic.svg',
} as const satisfies ProviderInfo;

/**
 * Paybis documents no lookup by request id or by the partner's transaction id; its transaction list
 * goes by creation time, oldest first, with a cursor. A lookup reads at most MAX_PAGES pages from the
 * order's creation (less the provider clock skew the order allows: an older transaction is refused
 * anyway), so the order's transactions come first; a lookup that is not told when the order was
 * made (an order of an older release) reads from LOOKBACK_DAYS back.
 */
const LOOKBACK_DAYS = 7;
const MAX_PAGES = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The pace of the transaction list for the reconciliation. No rate for Paybis's partner API was found
 * documented (docs/providers/paybis.md): 5 calls a second, beside the status lookups, which read the
 * same list.
 */
const PAYBIS_LIST_RATE = 5;

/** Where a lookup's window starts: the order's creation less the clock skew, else LOOKBACK_DAYS back. */
export function lookupWindowStart(now: number, context?: OrderLookupContext): number {
  const created = context?.orderCreatedAt === undefined ? NaN : Date.parse(context.orderCreatedAt);
  return Number.isFinite(created) ? created - PROVIDER_CLOCK_SKEW_MS : now - LOOKBACK_DAYS * DAY_MS;
}

export function createPaybisAdapter(config: PaybisConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new PaybisClient(config);
  const webhookKey = paybisWebhookKey(config.webhookPublicKey);

  async function findTransaction(requestId: string, context?: OrderLookupContext): Promise<PaybisTransaction | undefined> {
    const now = Date.now();
    const window = {
      from: new Date(lookupWindowStart(now, context)).toISOString(),
      to: new Date(now + DAY_MS).toISOString(),
      limit: PAYBIS_LIST_LIMIT,
    };
    // Every page of the window: a request may have more than one transaction (lookup.ts).
    const matches: PaybisTransaction[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const list = await client.listTransactions({ ...window, ...(cursor ? { cursor } : {}) });
      matches.push(...list.data.filter((tx) => tx.request.id === requestId));
      cursor = list.meta.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return requestTransaction(matches);
  }

  return {
    info: PAYBIS_INFO,

    async getCatalogue(signal) {
      const [pairs, methods] = await Promise.all([client.getPairs(signal), client.getPaymentMethods(signal)]);
      return fromCatalogue(currencies, pairs, methods);
    },

    async getQuote(request, signal) {
      try {
        return fromQuote(await client.getQuote(toQuoteRequest(request), signal), request.paymentMethod);
      } catch (err) {
        // Paybis's refusal bodies state no limits; its payment method list does.
        if (!(err instanceof ProviderRejectedError) || (err.code !== 'limits' && err.code !== 'rejected')) throw err;
        throw limitsRejection(await client.getPaymentMethods(signal), request) ?? err;
      }
    },

    quoteKey: (request) =>
      [request.fiat.ticker, request.crypto.ticker, request.crypto.network, request.fiatAmount, request.paymentMethod].join('|'),

    async createOrder(request) {
      // The request locks the quote's rate: quote first, then the request with its id (docs.payb.is, "Create request").
      const quote = await client.getQuote(toQuoteRequest(request));
      const offered = fromQuote(quote, request.paymentMethod);
      const { requestId } = await client.createRequest(toRequestBody(request, quote.id));
      return {
        ...requestOnly(request.orderId, requestId),
        cryptoAmount: offered.cryptoAmount,
        redirectUrl: widgetUrl(config.widgetUrl, requestId),
      };
    },

    async getOrder(orderId, providerOrderId, context) {
      // The order workflow keeps the request id from creation on; Paybis's transactions name it.
      if (!providerOrderId) throw new ProviderRejectedError('not_found', `no Paybis request id is known for order ${orderId}`);
      const tx = await findTransaction(providerOrderId, context);
      return tx ? fromTransaction(orderId, providerOrderId, tx, currencies) : requestOnly(orderId, providerOrderId);
    },

    parseWebhook(webhook) {
      return Promise.resolve().then(() => {
        verifyPaybisWebhook(webhook, webhookKey);
        const body = parsePaybisWebhookBody(webhook.rawBody);
        const event = webhookReport(() => fromWebhook(body, currencies));
        // Every request the broker makes carries its order id: a transaction without one is not the broker's.
        if (!event) throw new IgnoredWebhookError('a Paybis transaction that names no partner transaction id: no request the broker made');
        // All transactions of a request carry its id: an attempt that ended unpaid (or was rejected,
        // which the webhook cannot tell paid or not) does not end the order while another may still
        // be paid. The order's lookup, which reads every transaction of the request and whether it
        // was paid, decides (docs/providers/paybis.md, Several transactions in one request).
        if (paybisLeftToLookup(event.providerStatus))
          throw new IgnoredWebhookError(`a Paybis transaction ${event.providerStatus}: left to the order's lookup`, event.orderId);
        return { ...event, eventId: paybisEventId(webhook.rawBody) };
      });
    },

    /**
     * The status lookup's own list, `GET /v2/transactions?from&to&limit&cursor` (docs.payb.is,
     * reference "gettransactionslistv2"), over the reconciliation's window: oldest first, paged by
     * Paybis's `meta.nextCursor` (the cursor, passed on as it is), 5 calls a second. Each
     * transaction is its own row, read as a lookup reads it (listing.ts): the request id as the
     * provider order id, `partnerTransactionId` as our order id.
     */
    transactions: {
      callsPerSecond: PAYBIS_LIST_RATE,
      async list(window, cursor, signal) {
        const params = { ...toListRange(window), limit: PAYBIS_LIST_LIMIT, ...(cursor ? { cursor } : {}) };
        const page = listedPage(await client.listTransactions(params, 'transactions', signal), window, currencies);
        // A cursor that asks for the same page again would walk it for ever.
        if (cursor !== undefined && page.cursor === cursor) {
          throw new ProviderUnavailableError('Paybis transaction list: the next cursor is the one just asked with');
        }
        return page;
      },
    },
  };
}

/** Paybis in the provider manifest (src/providers/manifest.ts). */
export const paybisProvider = defineProvider({
  info: PAYBIS_INFO,
  env: PaybisEnvSchema,
  resolve: paybisConfig,
  createAdapter: (config, { currencies }) => createPaybisAdapter(config, currencies),
  publishedValues: PAYBIS_PUBLISHED_VALUES,
});
