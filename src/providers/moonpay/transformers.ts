import type { CurrencyDictionary } from '../../domain/currency';
import { decimal, percentText } from '../../domain/money';
import {
  ProviderRejectedError,
  type CataloguePaymentMethod,
  type CreateProviderOrderRequest,
  type ProviderCatalogue,
  type ProviderOrderSnapshot,
  type ProviderQuote,
  type QuoteRequest,
} from '../types';
import type { MoonpayAssetIndex } from './assets';
import { methodByCode, methodTakes, type MoonpayMethod } from './payment-methods';
import { reportedTerms } from './reported';
import type { MoonpayBuyQuote, MoonpayCountry, MoonpayCurrency, MoonpayTransaction } from './schemas';
import { MOONPAY_NO_TRANSACTION, mapMoonpayStatus } from './status-map';
import { createdAtText } from '../kit/created-at';
import { customerUrl } from '../kit/url';

/** What a quote or an order needs in MoonPay's terms, once the request has passed MoonPay's own rules. */
export interface MoonpayTerms {
  fiat: MoonpayCurrency;
  crypto: MoonpayCurrency;
  method: MoonpayMethod;
}

type Terms = Pick<QuoteRequest, 'fiat' | 'crypto' | 'fiatAmount' | 'paymentMethod' | 'country' | 'state'>;

/**
 * MoonPay's quote takes no country and no limits check of its own that we can read, so its
 * currency restrictions and the fiat limits are applied here, from its currency list.
 */
export function resolveTerms(index: MoonpayAssetIndex, request: Terms): MoonpayTerms {
  const fiat = index.fiat.get(request.fiat.id);
  const crypto = index.crypto.get(request.crypto.id);
  if (!fiat) throw new ProviderRejectedError('currency', `MoonPay does not sell for ${request.fiat.ticker}`);
  if (!crypto) throw new ProviderRejectedError('currency', `MoonPay does not sell ${request.crypto.ticker} on ${request.crypto.network}`);
  const method = methodByCode(request.paymentMethod);
  if (!method || !methodTakes(method, request.fiat.ticker)) {
    throw new ProviderRejectedError('payment_method', `MoonPay does not take ${request.paymentMethod} for ${request.fiat.ticker}`);
  }
  if (crypto.notAllowedCountries?.includes(request.country)) {
    throw new ProviderRejectedError('country', `MoonPay does not sell ${crypto.code} in ${request.country}`);
  }
  if (request.country === 'US' && request.state !== undefined && crypto.notAllowedUSStates?.includes(request.state)) {
    throw new ProviderRejectedError('state', `MoonPay does not sell ${crypto.code} in US-${request.state}`);
  }
  const amount = decimal(request.fiatAmount);
  const min = fiat.minBuyAmount ?? undefined;
  const max = fiat.maxBuyAmount ?? undefined;
  if ((min !== undefined && amount.lt(min)) || (max !== undefined && amount.gt(max))) {
    const range = `${min ?? '0'}${max === undefined ? ' or more' : ` to ${max}`}`;
    throw new ProviderRejectedError('limits', `MoonPay takes ${range} ${fiat.code.toUpperCase()}`, {
      minAmount: min,
      maxAmount: max,
    });
  }
  return { fiat, crypto, method };
}

/** Fees are included: the customer pays exactly the requested amount, fees come out of it. */
export function toQuoteParams(terms: MoonpayTerms, fiatAmount: string): Record<string, string> {
  return {
    baseCurrencyCode: terms.fiat.code,
    baseCurrencyAmount: fiatAmount,
    areFeesIncluded: 'true',
    paymentMethod: terms.method.id,
  };
}

export function fromQuote(quote: MoonpayBuyQuote, paymentMethod: string, now = Date.now()): ProviderQuote {
  const expiresAt = quote.expiresAt ? new Date(quote.expiresAt) : quote.expiresIn ? new Date(now + quote.expiresIn * 1000) : undefined;
  return {
    fiatAmount: quote.totalAmount,
    cryptoAmount: quote.quoteCurrencyAmount,
    processingFee: decimal(quote.feeAmount).plus(quote.extraFeeAmount).toFixed(),
    networkFee: quote.networkFeeAmount,
    paymentMethod,
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** The percentage text of a method's fee, read from a quote: "4.5%". */
export function feeText(quote: MoonpayBuyQuote): string {
  return percentText(decimal(quote.feeAmount).plus(quote.extraFeeAmount), quote.totalAmount);
}

/** Each fiat currency the method takes, with MoonPay's buy limits for it; empty when the method takes none on sale. */
export function methodLimits(index: MoonpayAssetIndex, method: MoonpayMethod): CataloguePaymentMethod['limits'] {
  const limits: CataloguePaymentMethod['limits'] = {};
  for (const [id, fiat] of index.fiat) {
    if (!methodTakes(method, fiat.code.toUpperCase()) || !fiat.minBuyAmount || !fiat.maxBuyAmount) continue;
    limits[id] = { min: fiat.minBuyAmount, max: fiat.maxBuyAmount };
  }
  return limits;
}

/** Countries where buying is allowed; where MoonPay lists states (the US), the states where it is. */
export function fromCountries(countries: readonly MoonpayCountry[]): ProviderCatalogue['countries'] {
  return countries
    .filter((c) => c.isAllowed && c.isBuyAllowed !== false)
    .map((c) => {
      if (!c.states || c.states.length === 0) return { code: c.alpha2 };
      return { code: c.alpha2, states: c.states.filter((s) => s.isAllowed && s.isBuyAllowed !== false).map((s) => s.code) };
    });
}

/**
 * Each crypto currency's `notAllowedCountries` and `notAllowedUSStates` as the catalogue's exclusions
 * (the same rules `resolveTerms` applies to a quote); crypto currencies without any are left out.
 */
export function fromCryptoRestrictions(index: MoonpayAssetIndex): NonNullable<ProviderCatalogue['cryptoNotSoldIn']> {
  const excluded: NonNullable<ProviderCatalogue['cryptoNotSoldIn']> = {};
  for (const [id, crypto] of index.crypto) {
    const countries = (crypto.notAllowedCountries ?? []).map((c) => c.trim().toUpperCase());
    const usStates = (crypto.notAllowedUSStates ?? []).map((s) => s.trim().toUpperCase().replace(/^US-/, ''));
    if (countries.length === 0 && usStates.length === 0) continue;
    excluded[id] = { countries, ...(usStates.length > 0 ? { states: { US: usStates } } : {}) };
  }
  return excluded;
}

/** The widget parameters of an order: our order id rides along as `externalTransactionId`. */
export function toWidgetParams(publishableKey: string, terms: MoonpayTerms, request: CreateProviderOrderRequest): Record<string, string> {
  const redirect = customerUrl(request.extras, 'redirect_url');
  return {
    apiKey: publishableKey,
    currencyCode: terms.crypto.code,
    baseCurrencyCode: terms.fiat.code,
    baseCurrencyAmount: request.fiatAmount,
    walletAddress: request.walletAddress,
    paymentMethod: terms.method.id,
    externalTransactionId: request.orderId,
    externalCustomerId: request.externalUserId,
    ...(redirect === undefined ? {} : { redirectURL: redirect }),
  };
}

/** The snake_case code of the failed stage, else the legacy sentence normalised ("Bank transfer timeout" → bank_transfer_timeout). */
export function failureCode(transaction: MoonpayTransaction): string | undefined {
  const stage = transaction.stages?.find((s) => s.status === 'failed' && s.failureReason);
  if (stage?.failureReason) return stage.failureReason;
  const sentence = transaction.failureReason?.trim();
  if (!sentence) return undefined;
  return sentence
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

export function fromTransaction(transaction: MoonpayTransaction, dictionary: CurrencyDictionary): ProviderOrderSnapshot {
  const mapped = mapMoonpayStatus(transaction.status, failureCode(transaction));
  const reported = reportedTerms(dictionary, transaction);
  return {
    orderId: transaction.externalTransactionId ?? '',
    providerOrderId: transaction.id,
    providerStatus: transaction.status,
    ...mapped,
    ...(transaction.quoteCurrencyAmount ? { cryptoAmount: transaction.quoteCurrencyAmount } : {}),
    ...(transaction.cryptoTransactionId ? { transactionHash: transaction.cryptoTransactionId } : {}),
    ...(reported ? { reported } : {}),
    ...createdAtText(transaction.createdAt),
  };
}

/**
 * The order as MoonPay sees it: the transaction the order holds (`pinned`, its provider order id),
 * else its most recently updated transaction for our id (a customer may retry inside the widget),
 * named by that transaction's own `externalTransactionId`; or `created` while the customer has not
 * submitted the widget yet, which reports nothing about the order.
 */
export function fromTransactions(
  orderId: string,
  transactions: readonly MoonpayTransaction[],
  dictionary: CurrencyDictionary,
  pinned?: string,
): ProviderOrderSnapshot {
  const held = pinned === undefined ? undefined : transactions.find((t) => t.id === pinned);
  const latest = held ?? [...transactions].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0];
  if (!latest) return { orderId, providerStatus: MOONPAY_NO_TRANSACTION, status: 'created' };
  return fromTransaction(latest, dictionary);
}
