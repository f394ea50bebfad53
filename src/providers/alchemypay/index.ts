import type { CurrencyDictionary } from '../../domain/currency';
import type { ProviderAdapter, ProviderInfo } from '../types';
import { defineProvider } from '../descriptor';
import { quoteKeyOf, type QuoteField } from '../kit/quote-key';
import { AlchemypayClient } from './client';
import { alchemypayConfig, AlchemypayEnvSchema, ALCHEMYPAY_SIMULATOR_CREDENTIALS, type AlchemypayConfig } from './config';
import { brokerCrypto } from './mappings';
import { signedRampUrl } from './ramp-url';
import { fromFiats, fromLookup, fromMethods, fromQuote, resolveTerms, toQuoteBody, toRampParams } from './transformers';
import { parseAlchemypayWebhook } from './webhook';
import type { CallSignal } from '../kit/call-signal';

export {
  AlchemypayEnvSchema,
  alchemypayConfig,
  ALCHEMYPAY_SIMULATOR_CREDENTIALS,
  type AlchemypayConfig,
  type AlchemypayCredentials,
} from './config';

export const ALCHEMYPAY_INFO = {
  code: 'alchemypay',
  name: 'Alchemy Pay',
  description: 'Buy crypto with cards and local payment methods on the Alchemy Pay (ACH) ramp page.',
  icon_url: 'https://alchemypay.org/favicon.ico',
} as const satisfies ProviderInfo;

/** The quote request's fields that reach Alchemy Pay's quote (its quoteKey): no country, user or IP. */
const QUOTE_FIELDS: readonly QuoteField[] = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod'];

/** The crypto currency whose fiat currencies and methods stand for all (Alchemy Pay lists them per crypto and network). */
const REFERENCE_ASSETS = [
  { crypto: 'USDT', network: 'TRX' },
  { crypto: 'USDT', network: 'ETH' },
];

/** Where Alchemy Pay sends the webhooks of an order placed through the broker. */
export function alchemypayCallbackUrl(config: Pick<AlchemypayConfig, 'brokerPublicUrl'>): string {
  return `${config.brokerPublicUrl}/api/webhooks/alchemypay`;
}

export function createAlchemypayAdapter(config: AlchemypayConfig, currencies: CurrencyDictionary): ProviderAdapter {
  const client = new AlchemypayClient(config);
  const callbackUrl = alchemypayCallbackUrl(config);
  const callbackPath = new URL(callbackUrl).pathname;

  const catalogue = async (signal?: CallSignal) => {
    const list = (await client.getCryptoList(signal)).filter((c) => c.buyEnable);
    const crypto = [...new Set(list.map((c) => brokerCrypto(currencies, c.crypto, c.network)?.id).filter((id) => id !== undefined))];
    const reference =
      REFERENCE_ASSETS.find((r) => list.some((c) => c.crypto === r.crypto && c.network === r.network)) ??
      list.find((c) => brokerCrypto(currencies, c.crypto, c.network));
    if (!reference) return { fiat: [], crypto, countries: [], paymentMethods: [] };
    const fiats = fromFiats(currencies, await client.getFiats(reference.crypto, reference.network, signal));
    const currenciesSold = [...new Set(fiats.buyable.map((f) => f.currency))];
    const perFiat = await Promise.all(
      currenciesSold.map(async (fiat) => ({ fiat, methods: await client.getMethods(fiat, reference.crypto, reference.network, signal) })),
    );
    return { fiat: fiats.fiat, crypto, countries: fiats.countries, paymentMethods: fromMethods(currencies, perFiat) };
  };

  return {
    info: ALCHEMYPAY_INFO,

    getCatalogue: (signal) => catalogue(signal),

    quoteKey: (request) => quoteKeyOf(request, QUOTE_FIELDS),
    async getQuote(request, signal) {
      const terms = resolveTerms(request);
      const quote = await client.getQuote(toQuoteBody(terms, request.fiatAmount), signal);
      return fromQuote(quote, request.fiatAmount, request.paymentMethod);
    },

    async createOrder(request) {
      const terms = resolveTerms(request);
      const params = toRampParams(config.appId, callbackUrl, terms, request, String(Date.now()));
      const redirectUrl = signedRampUrl(config.rampUrl, config.appSecret, params);
      // Nothing exists at Alchemy Pay until the customer places the order on the ramp page; a repeated call finds what does.
      return { ...fromLookup(request.orderId, await client.findOrder(request.orderId), currencies), redirectUrl };
    },

    async getOrder(orderId) {
      return fromLookup(orderId, await client.findOrder(orderId), currencies);
    },

    parseWebhook(webhook) {
      return Promise.resolve().then(() => parseAlchemypayWebhook(webhook, config.appSecret, callbackPath, currencies));
    },
  };
}

/** Alchemy Pay in the provider manifest (src/providers/manifest.ts). */
export const alchemypayProvider = defineProvider({
  info: ALCHEMYPAY_INFO,
  env: AlchemypayEnvSchema,
  resolve: alchemypayConfig,
  createAdapter: (config, { currencies }) => createAlchemypayAdapter(config, currencies),
  publishedValues: [ALCHEMYPAY_SIMULATOR_CREDENTIALS.appSecret],
});
