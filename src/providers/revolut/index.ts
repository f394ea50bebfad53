import type { CurrencyDictionary } from '../../domain/currency';
import { defineProvider } from '../descriptor';
import type { CallSignal } from '../kit/call-signal';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';
import { webhookReport } from '../kit/webhook';
import { ProviderRejectedError, ProviderUnavailableError, type ProviderAdapter, type ProviderInfo } from '../types';
import { indexConfig, type RevolutAssetIndex } from './assets';
import { RevolutClient } from './client';
import { revolutConfig, RevolutEnvSchema, REVOLUT_SIMULATOR_CREDENTIALS, type RevolutConfig } from './config';
import { mapRevolutStatus, revolutStatusOfEvent } from './status-map';
import { fromCatalogue, fromOrder, fromQuote, parseOrderKey, resolveTerms, toBuyQuery, toQuoteQuery } from './transformers';
import { parseRevolutWebhookBody, revolutEventId, verifyRevolutSignature } from './webhook';

export {
  revolutConfig,
  RevolutEnvSchema,
  REVOLUT_SIMULATOR_CREDENTIALS,
  revolutSimulatorCredentials,
  type RevolutConfig,
  type RevolutCredentials,
} from './config';

export const REVOLUT_INFO = {
  code: 'revolut',
  name: 'Revolut Ramp',
  description: 'Buy crypto with a card, Apple Pay, Google Pay or Revolut Pay in Revolut Ramp; the crypto is sent straight to the wallet.',
  icon_url: 'https://www.revolut.com/favicon.ico',
} as const satisfies ProviderInfo;

/** How long the `/config` answer is reused for quotes, orders and reports between catalogue fetches. */
const CONFIG_TTL_MS = 10 * 60 * 1000;

/** The quote request's fields that reach the provider's quote call, or that its configuration checks (its quoteKey). */
const QUOTE_FIELDS: readonly QuoteField[] = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod', 'country'];

export function createRevolutAdapter(config: RevolutConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new RevolutClient(config);
  let cached: { index: RevolutAssetIndex; at: number } | undefined;
  let refreshing: Promise<RevolutAssetIndex> | undefined;

  const remember = (index: RevolutAssetIndex) => {
    cached = { index, at: Date.now() };
    return index;
  };

  /** The configuration, shared by concurrent callers; a caller's own signal still ends its wait. */
  const assetIndex = (signal?: CallSignal): Promise<RevolutAssetIndex> => {
    if (cached && Date.now() - cached.at < CONFIG_TTL_MS) return Promise.resolve(cached.index);
    refreshing ??= client
      .getConfig()
      .then((answer) => remember(indexConfig(currencies, answer)))
      .finally(() => (refreshing = undefined));
    return untilAborted(refreshing, signal);
  };

  return {
    info: REVOLUT_INFO,

    async getCatalogue(signal) {
      return fromCatalogue(currencies, remember(indexConfig(currencies, await client.getConfig(signal))));
    },

    quoteKey: (request) => quoteKeyOf(request, QUOTE_FIELDS),
    async getQuote(request, signal) {
      const terms = resolveTerms(await assetIndex(signal), request);
      const quote = await client.getQuote(toQuoteQuery(terms, request.fiatAmount), signal);
      return fromQuote(quote, terms, request.fiatAmount, request.paymentMethod);
    },

    async createOrder(request) {
      const index = await assetIndex();
      const terms = resolveTerms(index, request);
      const { ramp_redirect_url: redirectUrl } = await client.getRedirectUrl(toBuyQuery(terms, request));
      // `/buy` makes no order; a repeated create finds the order the customer already started, if any.
      const existing = await client.findOrder(request.orderId, request.walletAddress);
      return { ...fromOrder(request.orderId, request.walletAddress, existing, currencies, index), redirectUrl };
    },

    async getOrder(orderId, providerOrderId) {
      const key = providerOrderId === undefined ? undefined : parseOrderKey(providerOrderId);
      // The order key is known from creation on: Revolut looks an order up by our id and its wallet together.
      if (!key) throw new ProviderRejectedError('not_found', `no Revolut Ramp order key is known for order ${orderId}`);
      const index = await assetIndex();
      return fromOrder(key.orderId, key.wallet, await client.findOrder(key.orderId, key.wallet), currencies, index);
    },

    async parseWebhook(webhook) {
      verifyRevolutSignature(webhook, config.webhookSecret, Date.now());
      const body = parseRevolutWebhookBody(webhook.rawBody);
      const announced = webhookReport(() => revolutStatusOfEvent(body.event));
      // The event names the order and its wallet only: the order itself states the terms, the hash and the fail reason.
      const [index, order] = await Promise.all([assetIndex(), client.findOrder(body.order_id, body.wallet)]);
      if (!order)
        throw new ProviderRejectedError('not_found', `Revolut Ramp shows no order ${body.order_id} for the wallet its event names`);
      const snapshot = fromOrder(body.order_id, body.wallet, order, currencies, index);
      if (snapshot.orderId !== body.order_id) throw new ProviderUnavailableError('/orders/{order_id}: answered about another order');
      const failReason = order.status === announced ? order.fail_reason : undefined;
      return {
        ...snapshot,
        providerStatus: body.event,
        ...webhookReport(() => mapRevolutStatus(announced, failReason)),
        eventId: revolutEventId(webhook.rawBody),
      };
    },
  };
}

function untilAborted<T>(promise: Promise<T>, signal?: CallSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new ProviderUnavailableError('Revolut Ramp configuration: aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ProviderUnavailableError('Revolut Ramp configuration: aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Revolut Ramp in the provider manifest (src/providers/manifest.ts). */
export const revolutProvider = defineProvider({
  info: REVOLUT_INFO,
  env: RevolutEnvSchema,
  resolve: revolutConfig,
  createAdapter: (config, { currencies }) => createRevolutAdapter(config, currencies),
  publishedValues: Object.values(REVOLUT_SIMULATOR_CREDENTIALS),
});
