import { createPublicKey } from 'node:crypto';
import type { CryptoCurrency, CurrencyDictionary, FiatCurrency } from '../../domain/currency';
import { ProviderRejectedError, type ProviderAdapter, type ProviderInfo } from '../types';
import { defineProvider } from '../descriptor';
import { RampClient } from './client';
import { isBrokerMethod, type RampBrokerMethod } from './codes';
import { rampConfig, RampEnvSchema, RAMP_SIMULATOR_CREDENTIALS, RAMP_SIMULATOR_WEBHOOK_URL_SECRET, type RampConfig } from './config';
import {
  checkLimits,
  findRampAsset,
  fromCatalogue,
  fromProviderOrderId,
  fromPurchase,
  fromQuote,
  noPurchaseYet,
  onrampFiat,
  purchaseLimits,
  toQuoteRequest,
  toWidgetUrl,
} from './transformers';
import { parseRampWebhook } from './webhook';
import { createRampSellAdapter } from './sell';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';
import type { CallSignal } from '../kit/call-signal';

export { RampEnvSchema, rampConfig, RAMP_SIMULATOR_CREDENTIALS, type RampConfig, type RampSimulatorCredentials } from './config';

export const RAMP_INFO = {
  code: 'ramp',
  name: 'Ramp Network',
  description: 'Buy crypto by card, Apple Pay, Google Pay and bank transfer in Europe, the UK, the US and beyond, in Ramp’s own checkout.',
  icon_url: 'https://ramp.network/favicon.ico',
} as const satisfies ProviderInfo;

function brokerMethod(code: string): RampBrokerMethod {
  if (!isBrokerMethod(code)) throw new ProviderRejectedError('payment_method', `Ramp does not offer ${code}`);
  return code;
}

/** The quote request's fields that reach the provider's quote call (its quoteKey). */
const QUOTE_FIELDS: readonly QuoteField[] = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod'];

/**
 * Ramp Network: catalogue and quotes from its REST API; an order is the widget URL (Ramp creates the
 * purchase when the customer opens it); the purchase is followed by webhooks to webhookStatusUrl and
 * read back with the id and view token the first webhook brings.
 */
export function createRampAdapter(config: RampConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new RampClient(config);
  const publicKey = createPublicKey(config.webhookPublicKey);

  /** The asset Ramp sells for this crypto in this fiat currency, and its purchase limits. */
  async function assetFor(request: { fiat: FiatCurrency; crypto: CryptoCurrency }, signal?: CallSignal) {
    const assets = await client.getAssets(request.fiat.ticker, signal);
    const asset = findRampAsset(assets, request.crypto);
    if (!asset) throw new ProviderRejectedError('currency', `Ramp does not sell ${request.crypto.ticker} on ${request.crypto.network}`);
    return { asset, limits: purchaseLimits(assets, asset, request.fiat) };
  }

  return {
    info: RAMP_INFO,
    claimsProviderOrders: true,
    async getCatalogue(signal) {
      const [rampCurrencies, methods, countries] = await Promise.all([
        client.getCurrencies(signal),
        client.getPaymentMethods(signal),
        client.getCountries(signal),
      ]);
      const fiat = onrampFiat(currencies, rampCurrencies);
      const assets = await Promise.all(fiat.map(async (f) => [f.ticker, await client.getAssets(f.ticker, signal)] as const));
      return fromCatalogue(currencies, fiat, new Map(assets), methods, countries);
    },
    /** What reaches Ramp: its quote body (asset, fiat, amount) and the method the answer is read for. */
    quoteKey: (request) => quoteKeyOf(request, QUOTE_FIELDS),
    async getQuote(request, signal) {
      const paymentMethod = brokerMethod(request.paymentMethod);
      const { asset, limits } = await assetFor(request, signal);
      checkLimits(request.fiatAmount, limits, request.fiat);
      const quote = await client.getQuote(toQuoteRequest(request, asset), signal);
      return fromQuote(quote, { ...request, paymentMethod });
    },
    async createOrder(request) {
      // No call creates anything at Ramp: the same request always yields the same URL.
      const paymentMethod = brokerMethod(request.paymentMethod);
      const { asset, limits } = await assetFor(request);
      checkLimits(request.fiatAmount, limits, request.fiat);
      return { ...noPurchaseYet(request.orderId), redirectUrl: toWidgetUrl(config, { ...request, paymentMethod }, asset) };
    },
    async getOrder(orderId, providerOrderId) {
      const purchase = providerOrderId === undefined ? undefined : fromProviderOrderId(providerOrderId);
      if (!purchase) return noPurchaseYet(orderId);
      return fromPurchase(orderId, await client.getPurchase(purchase.purchaseId, purchase.viewToken), currencies, purchase.viewToken);
    },
    parseWebhook(webhook) {
      return Promise.resolve().then(() => parseRampWebhook(webhook, publicKey, config.webhookUrlSecret, currencies));
    },
    sell: createRampSellAdapter(client, config, publicKey, currencies),
  };
}

/** Ramp in the provider manifest (src/providers/manifest.ts). */
export const rampProvider = defineProvider({
  info: RAMP_INFO,
  env: RampEnvSchema,
  resolve: rampConfig,
  createAdapter: (config, { currencies }) => createRampAdapter(config, currencies),
  publishedValues: [RAMP_SIMULATOR_CREDENTIALS.hostApiKey, RAMP_SIMULATOR_CREDENTIALS.webhookPublicKey, RAMP_SIMULATOR_WEBHOOK_URL_SECRET],
});
