import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { createdAtText } from '../kit/created-at';
import { customerUrl } from '../kit/url';
import {
  ProviderRejectedError,
  type CataloguePaymentMethod,
  type CreateProviderOrderRequest,
  type ProviderCatalogue,
  type ProviderOrderSnapshot,
  type ProviderQuote,
  type QuoteRequest,
} from '../types';
import type { OnrampMoneyQuoteBody } from './client';
import {
  FIAT_COUNTRIES,
  ONRAMP_MONEY_NETWORKS,
  ONRAMP_MONEY_PAYMENT_METHODS,
  toOnrampMoneyNetwork,
  WIDGET_PAYMENT_METHOD,
} from './mapping';
import { reportedTerms, type OnrampMoneyCurrencyIds } from './reported';
import type {
  OnrampMoneyChainMapping,
  OnrampMoneyConfigMapping,
  OnrampMoneyCountryConfig,
  OnrampMoneyLimits,
  OnrampMoneyQuote,
  OnrampMoneyTransaction,
} from './schemas';
import { mapOnrampMoneyStatus } from './status-map';
import type { WidgetParams } from './widget';

/**
 * Before the customer goes through the widget Onramp.money has no transaction for the order: the
 * adapter reports this marker of its own (not an Onramp.money status) as the provider status.
 */
export const ONRAMP_MONEY_WIDGET_NOT_OPENED = 'widget:not_opened';

export interface OnrampMoneyCatalogueSources {
  mapping: OnrampMoneyConfigMapping;
  chains: OnrampMoneyChainMapping;
  limits: OnrampMoneyLimits;
  countries: OnrampMoneyCountryConfig;
}

/**
 * The catalogue in the broker's terms. A fiat currency is served when its fiatType is active for
 * buying and has limits; each of its payment methods takes those limits (Onramp.money publishes
 * them per fiatType). Coins, chains and methods without a broker ID or code are dropped. No fee is
 * published per method: the catalogue service reads it from a reference quote.
 */
export function fromCatalogue(dictionary: CurrencyDictionary, sources: OnrampMoneyCatalogueSources): ProviderCatalogue {
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const cryptoIds = new Map(
    dictionary.currencies.filter((c) => c.currency_type === 'crypto').map((c) => [`${c.ticker}/${c.network}`, c.id]),
  );
  const fiat: number[] = [];
  const countries = new Set<string>();
  const methods = new Map<string, CataloguePaymentMethod>();
  for (const [code, fiatType] of Object.entries(sources.mapping.fiatSymbolMapping)) {
    const fiatId = fiatIds.get(code.toUpperCase());
    const buy = sources.countries[String(fiatType)];
    const limits = sources.limits[String(fiatType)];
    if (fiatId === undefined || buy?.isActive !== 1 || limits === undefined) continue;
    fiat.push(fiatId);
    for (const country of FIAT_COUNTRIES[code.toUpperCase()] ?? []) countries.add(country);
    for (const name of Object.keys(buy.paymentMethods)) {
      const method = ONRAMP_MONEY_PAYMENT_METHODS[name];
      if (method === undefined) continue;
      const known = methods.get(method) ?? { code: method, name: methodName(method), icon_url: null, limits: {} };
      known.limits[fiatId] = { min: limits.min, max: limits.max };
      methods.set(method, known);
    }
  }
  const crypto = new Set<number>();
  for (const [coinCode, coin] of Object.entries(sources.chains.allCoinConfig)) {
    for (const chainId of coin.networks) {
      const network = ONRAMP_MONEY_NETWORKS[sources.chains.networkConfig[String(chainId)]?.chainSymbol ?? ''];
      const id = network === undefined ? undefined : cryptoIds.get(`${coinCode.toUpperCase()}/${network}`);
      if (id !== undefined) crypto.add(id);
    }
  }
  return {
    fiat,
    crypto: [...crypto],
    countries: [...countries].map((code) => ({ code })),
    paymentMethods: [...methods.values()],
  };
}

const METHOD_NAMES: Readonly<Record<string, string>> = {
  upi: 'UPI',
  bank_transfer: 'Bank transfer',
  sepa: 'SEPA bank transfer',
  pix: 'PIX',
};
const methodName = (code: string) => METHOD_NAMES[code] ?? code;

/** Onramp.money's fiatType of a fiat currency code, from its own mapping. */
export function fiatTypeOf(mapping: OnrampMoneyConfigMapping, ticker: string): number {
  const entry = Object.entries(mapping.fiatSymbolMapping).find(([code]) => code.toUpperCase() === ticker);
  if (entry === undefined) throw new ProviderRejectedError('currency', `Onramp.money does not sell for ${ticker}`);
  return entry[1];
}

function onrampMoneyNetwork(network: string): string {
  const symbol = toOnrampMoneyNetwork(network);
  if (symbol === undefined) throw new ProviderRejectedError('currency', `Onramp.money does not sell on ${network}`);
  return symbol;
}

/** The body of the quotes call: coin and chain by their codes (which take precedence over ids), the fiat by fiatType. */
export function toQuoteBody(request: QuoteRequest, mapping: OnrampMoneyConfigMapping): OnrampMoneyQuoteBody {
  return {
    coinCode: request.crypto.ticker.toLowerCase(),
    network: onrampMoneyNetwork(request.crypto.network),
    fiatAmount: Number(request.fiatAmount),
    fiatType: fiatTypeOf(mapping, request.fiat.ticker),
    type: 1,
  };
}

/**
 * Onramp.money's quote: `quantity` of crypto for the fiat amount after its fees, every fee in the
 * fiat currency (quantity = (fiatAmount − onrampFee − clientFee − gatewayFee − gasFee) / rate in
 * the documented example). The network fee is `gasFee`; the rest is processing.
 */
export function fromQuote(quote: OnrampMoneyQuote, request: QuoteRequest): ProviderQuote {
  return {
    fiatAmount: request.fiatAmount,
    cryptoAmount: quote.quantity,
    processingFee: decimal(quote.onrampFee).plus(quote.clientFee).plus(quote.gatewayFee).toFixed(),
    networkFee: quote.gasFee,
    paymentMethod: request.paymentMethod,
  };
}

export function toWidgetParams(request: CreateProviderOrderRequest, mapping: OnrampMoneyConfigMapping, appId: string): WidgetParams {
  const paymentMethod = WIDGET_PAYMENT_METHOD[request.paymentMethod];
  if (paymentMethod === undefined) {
    throw new ProviderRejectedError('payment_method', `Onramp.money does not offer ${request.paymentMethod}`);
  }
  return {
    appId,
    walletAddress: request.walletAddress,
    coinCode: request.crypto.ticker.toLowerCase(),
    network: onrampMoneyNetwork(request.crypto.network),
    fiatAmount: request.fiatAmount,
    fiatType: fiatTypeOf(mapping, request.fiat.ticker),
    paymentMethod,
    merchantRecognitionId: request.orderId,
    redirectUrl: customerUrl(request.extras, 'return_url'),
  };
}

/** The crypto amount a transaction reports: the actual one once bought (non-zero), the expected one before. */
const cryptoAmountOf = (tx: OnrampMoneyTransaction) =>
  (tx.actualCryptoAmount && !decimal(tx.actualCryptoAmount).isZero() ? tx.actualCryptoAmount : tx.expectedCryptoAmount) ?? undefined;

/**
 * What one Onramp.money transaction says about the order (UnknownProviderStatusError for a status
 * code Onramp.money does not document). The broker's order is the transaction's merchantRecognitionId.
 */
export function fromTransaction(tx: OnrampMoneyTransaction, ids: OnrampMoneyCurrencyIds): ProviderOrderSnapshot {
  return {
    orderId: tx.merchantRecognitionId ?? '',
    providerOrderId: String(tx.orderId),
    providerStatus: String(tx.status),
    ...mapOnrampMoneyStatus(tx.status),
    cryptoAmount: cryptoAmountOf(tx),
    transactionHash: tx.transactionHash || undefined,
    reported: reportedTerms(ids, tx),
    ...createdAtText(tx.createdAt),
  };
}
