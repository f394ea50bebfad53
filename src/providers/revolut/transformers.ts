import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { customerUrl } from '../kit/url';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type CataloguePaymentMethod,
  type CreateProviderOrderRequest,
  type ProviderCatalogue,
  type ProviderOrderSnapshot,
  type ProviderQuote,
  type QuoteRequest,
  type ReportedTerms,
} from '../types';
import { brokerFiatOf, REVOLUT_PAYMENT_METHODS, revolutPaymentOf, type RevolutAssetIndex } from './assets';
import type { RevolutQuery } from './client';
import type { RevolutOrder, RevolutQuote } from './schemas';
import { mapRevolutStatus, REVOLUT_NO_ORDER } from './status-map';
import { createdAtText } from '../kit/created-at';

const METHOD_NAMES: Readonly<Record<string, string>> = {
  card: 'Card',
  revolut_pay: 'Revolut Pay',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
};

/**
 * The catalogue in the broker's terms. Revolut sets limits per fiat currency, shared by every
 * payment method, and publishes no fee per method: the fee is part of each quote, so `fee` is left
 * for the catalogue service to read from a reference quote. It serves whole countries (no states).
 */
export function fromCatalogue(dictionary: CurrencyDictionary, index: RevolutAssetIndex): ProviderCatalogue {
  const limits: Record<number, { min: string; max: string }> = {};
  for (const entry of index.config.fiat) {
    const fiat = brokerFiatOf(dictionary, entry.currency);
    if (fiat) limits[fiat.id] = { min: entry.min_limit, max: entry.max_limit };
  }
  const paymentMethods: CataloguePaymentMethod[] = [];
  for (const id of index.config.payment_methods) {
    const code = REVOLUT_PAYMENT_METHODS[id];
    if (code === undefined || paymentMethods.some((m) => m.code === code)) continue;
    paymentMethods.push({ code, name: METHOD_NAMES[code] ?? id, icon_url: null, limits: { ...limits } });
  }
  return {
    fiat: Object.keys(limits).map(Number),
    crypto: [...new Set(index.brokerIdOf.values())],
    countries: [...new Set(index.config.countries.map((c) => c.toUpperCase()))]
      .filter((c) => /^[A-Z]{2}$/.test(c))
      .map((code) => ({ code })),
    paymentMethods,
  };
}

/** What a purchase is in Revolut's names, once the configuration says Revolut sells it there. */
export interface RevolutTerms {
  fiat: string;
  crypto: string;
  payment: string;
  region: string;
}

/**
 * Revolut's names for a quote or order request, refused with the broker's reason when its
 * configuration does not offer the country, currencies, method or amount (its 400s say only "Invalid field").
 */
export function resolveTerms(
  index: RevolutAssetIndex,
  request: Pick<QuoteRequest, 'fiat' | 'crypto' | 'fiatAmount' | 'paymentMethod' | 'country'>,
): RevolutTerms {
  const { config } = index;
  if (!config.countries.some((c) => c.toUpperCase() === request.country)) {
    throw new ProviderRejectedError('country', `Revolut Ramp does not serve ${request.country}`);
  }
  const fiat = config.fiat.find((f) => f.currency.toUpperCase() === request.fiat.ticker);
  if (!fiat) throw new ProviderRejectedError('currency', `Revolut Ramp does not take ${request.fiat.ticker}`);
  const crypto = index.revolutIdOf.get(request.crypto.id);
  if (crypto === undefined) {
    throw new ProviderRejectedError('currency', `Revolut Ramp does not sell ${request.crypto.ticker} on ${request.crypto.network}`);
  }
  const payment = revolutPaymentOf(request.paymentMethod);
  if (payment === undefined || !config.payment_methods.includes(payment)) {
    throw new ProviderRejectedError('payment_method', `Revolut Ramp does not offer ${request.paymentMethod}`);
  }
  const amount = decimal(request.fiatAmount);
  if (amount.lt(fiat.min_limit) || amount.gt(fiat.max_limit)) {
    throw ProviderRejectedError.outsideLimits(fiat.min_limit, fiat.max_limit, request.fiat);
  }
  return { fiat: fiat.currency, crypto, payment, region: request.country };
}

/** Query of `GET /quote`: the amount is what the customer pays, as the broker's `from_amount`. */
export function toQuoteQuery(terms: RevolutTerms, fiatAmount: string): RevolutQuery {
  return { fiat: terms.fiat, amount: fiatAmount, crypto: terms.crypto, payment: terms.payment, region: terms.region };
}

/**
 * A quote in the broker's terms: `service_fee` (Revolut's fee and the partner fee together) is the
 * processing fee, `network_fee` the network fee, both in the order's fiat currency.
 */
export function fromQuote(quote: RevolutQuote, terms: RevolutTerms, fiatAmount: string, paymentMethod: string): ProviderQuote {
  if (quote.service_fee.currency !== terms.fiat || quote.network_fee.currency !== terms.fiat || quote.crypto.currencyId !== terms.crypto) {
    throw new ProviderUnavailableError('/quote: answer does not match the request');
  }
  return {
    fiatAmount,
    cryptoAmount: quote.crypto.amount,
    processingFee: quote.service_fee.amount,
    networkFee: quote.network_fee.amount,
    paymentMethod,
  };
}

/** Query of `GET /buy`: the quote's fields, the wallet, our order id, and where the customer returns. */
export function toBuyQuery(terms: RevolutTerms, request: CreateProviderOrderRequest): RevolutQuery {
  const partnerRedirectUrl = customerUrl(request.extras, 'return_url');
  return {
    ...toQuoteQuery(terms, request.fiatAmount),
    wallet: request.walletAddress,
    orderId: request.orderId,
    ...(partnerRedirectUrl ? { partnerRedirectUrl } : {}),
  };
}

/**
 * Revolut names a buy order by the partner's id and its wallet together (`GET /orders/{id}?wallet=`):
 * the provider order id is both, `<order id>:<wallet>`. What follows the colon is left out of logs.
 */
export const revolutOrderKey = (orderId: string, wallet: string): string => `${orderId}:${wallet}`;

export function parseOrderKey(key: string): { orderId: string; wallet: string } | undefined {
  const at = key.indexOf(':');
  if (at <= 0 || at === key.length - 1) return undefined;
  return { orderId: key.slice(0, at), wallet: key.slice(at + 1) };
}

/**
 * What the customer paid, fees included: the order's `fiat` excludes the fees (its documented
 * meaning), so Revolut's fee, the partner fee and the network fee are added back. Unknown when a fee
 * is stated in another currency.
 */
function paidAmount(order: RevolutOrder): string | undefined {
  const { fiat, fees } = order;
  const parts = [fees.ramp_fee, fees.partner_fee, fees.network_fee];
  if (parts.some((fee) => fee.currency !== fiat.currency)) return undefined;
  return parts.reduce((sum, fee) => sum.plus(fee.amount), decimal(fiat.amount)).toFixed();
}

/** The order's terms as Revolut states them: wallet, crypto (by its /config id), fiat currency and paid amount. */
export function reportedTerms(dictionary: CurrencyDictionary, index: RevolutAssetIndex, order: RevolutOrder): ReportedTerms {
  const cryptoId = order.crypto.currencyId ?? order.crypto.currency;
  const fiatAmount = paidAmount(order);
  return {
    walletAddress: order.wallet,
    ...(cryptoId === undefined ? {} : { cryptoCurrency: index.brokerIdOf.get(cryptoId) ?? null }),
    fiatCurrency: brokerFiatOf(dictionary, order.fiat.currency)?.id ?? null,
    ...(fiatAmount === undefined ? {} : { fiatAmount }),
  };
}

/** An order as the broker sees it; before Revolut has one, `created` under REVOLUT_NO_ORDER. */
export function fromOrder(
  orderId: string,
  wallet: string,
  order: RevolutOrder | undefined,
  dictionary: CurrencyDictionary,
  index: RevolutAssetIndex,
): ProviderOrderSnapshot {
  if (!order) return { orderId, providerOrderId: revolutOrderKey(orderId, wallet), providerStatus: REVOLUT_NO_ORDER, status: 'created' };
  return {
    orderId: order.id,
    providerOrderId: revolutOrderKey(order.id, order.wallet),
    providerStatus: order.fail_reason ? `${order.status}:${order.fail_reason}` : order.status,
    ...mapRevolutStatus(order.status, order.fail_reason),
    cryptoAmount: order.crypto.amount,
    ...(order.transaction_hash ? { transactionHash: order.transaction_hash } : {}),
    reported: reportedTerms(dictionary, index, order),
    ...createdAtText(order.created_at),
  };
}
