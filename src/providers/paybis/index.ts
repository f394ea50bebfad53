import type { CurrencyDictionary } from '../../domain/currency';
import { defineProvider } from '../descriptor';
import { webhookReport } from '../kit/webhook';
import { IgnoredWebhookError, ProviderRejectedError, type ProviderAdapter, type ProviderInfo } from '../types';
import { PaybisClient } from './client';
import { paybisConfig, PaybisEnvSchema, PAYBIS_PUBLISHED_VALUES, type PaybisConfig } from './config';
import { requestTransaction } from './lookup';
import type { PaybisTransaction } from './schemas';
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
 * goes by creation time with a cursor. A lookup reads the last LOOKBACK_DAYS, at most MAX_PAGES pages.
 */
const LOOKBACK_DAYS = 7;
const PAGE_SIZE = 100;
const MAX_PAGES = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

export function createPaybisAdapter(config: PaybisConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new PaybisClient(config);
  const webhookKey = paybisWebhookKey(config.webhookPublicKey);

  async function findTransaction(requestId: string): Promise<PaybisTransaction | undefined> {
    const now = Date.now();
    const window = {
      from: new Date(now - LOOKBACK_DAYS * DAY_MS).toISOString(),
      to: new Date(now + DAY_MS).toISOString(),
      limit: PAGE_SIZE,
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

    async getOrder(orderId, providerOrderId) {
      // The order workflow keeps the request id from creation on; Paybis's transactions name it.
      if (!providerOrderId) throw new ProviderRejectedError('not_found', `no Paybis request id is known for order ${orderId}`);
      const tx = await findTransaction(providerOrderId);
      return tx ? fromTransaction(orderId, providerOrderId, tx, currencies) : requestOnly(orderId, providerOrderId);
    },

    parseWebhook(webhook) {
      return Promise.resolve().then(() => {
        verifyPaybisWebhook(webhook, webhookKey);
        const body = parsePaybisWebhookBody(webhook.rawBody);
        const event = webhookReport(() => fromWebhook(body, currencies));
        // Every request the broker makes carries its order id: a transaction without one is not the broker's.
        if (!event) throw new IgnoredWebhookError('a Paybis transaction that names no partner transaction id: no request the broker made');
        return { ...event, eventId: paybisEventId(webhook.rawBody) };
      });
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
