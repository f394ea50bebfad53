import type { CurrencyDictionary } from '../../domain/currency';
import { decimal, percentText } from '../../domain/money';
import {
  ProviderRejectedError,
  type CataloguePaymentMethod,
  type CreateProviderOrderRequest,
  type ProviderCatalogue,
  type ProviderOrderSnapshot,
  type ProviderQuote,
  type ProviderTransactionPage,
  type QuoteRequest,
  type TransactionWindow,
} from '../types';
import type { CoinbaseAsset, CoinbaseAssetIndex } from './assets';
import { COINBASE_METHODS, methodByCode, type CoinbaseMethod } from './payment-methods';
import { reportedTerms } from './reported';
import type { CoinbaseBuyConfig, CoinbaseBuyQuote, CoinbaseTransaction, CoinbaseTransactionPage } from './schemas';
import { COINBASE_NO_TRANSACTION, mapCoinbaseStatus } from './status-map';
import { createdAtText } from '../kit/created-at';
import { windowRows } from '../kit/listed';

/** What a quote or an order needs in Coinbase's terms, once the request has passed the place's buy options. */
export interface CoinbaseTerms {
  fiatCode: string;
  asset: CoinbaseAsset;
  method: CoinbaseMethod;
}

type Terms = Pick<QuoteRequest, 'fiat' | 'crypto' | 'fiatAmount' | 'paymentMethod'>;

/** The request against the buy options of its place: the currencies, the method and its limits for that fiat. */
export function resolveTerms(index: CoinbaseAssetIndex, request: Terms): CoinbaseTerms {
  const limits = index.fiat.get(request.fiat.id);
  const asset = index.crypto.get(request.crypto.id);
  if (!limits) throw new ProviderRejectedError('currency', `Coinbase does not sell for ${request.fiat.ticker} here`);
  if (!asset)
    throw new ProviderRejectedError('currency', `Coinbase does not sell ${request.crypto.ticker} on ${request.crypto.network} here`);
  const method = methodByCode(request.paymentMethod);
  const limit = method && limits.get(method.id);
  if (!method || !limit)
    throw new ProviderRejectedError('payment_method', `Coinbase does not take ${request.paymentMethod} for ${request.fiat.ticker} here`);
  const amount = decimal(request.fiatAmount);
  if (amount.lt(limit.min) || amount.gt(limit.max)) throw ProviderRejectedError.outsideLimits(limit.min, limit.max, request.fiat);
  return { fiatCode: request.fiat.ticker, asset, method };
}

/** The quote request body: the amount is what the customer pays, fees included. */
export function toQuoteBody(terms: CoinbaseTerms, request: Pick<QuoteRequest, 'fiatAmount' | 'country' | 'state'>) {
  return {
    purchaseCurrency: terms.asset.currency.id,
    purchaseNetwork: terms.asset.network.name,
    paymentAmount: decimal(request.fiatAmount).toFixed(2),
    paymentCurrency: terms.fiatCode,
    paymentMethod: terms.method.id,
    country: request.country,
    ...(request.country === 'US' && request.state !== undefined ? { subdivision: request.state } : {}),
  };
}

export function fromQuote(quote: CoinbaseBuyQuote, paymentMethod: string): ProviderQuote {
  return {
    fiatAmount: quote.paymentTotal.value,
    cryptoAmount: quote.purchaseAmount.value,
    processingFee: quote.coinbaseFee.value,
    networkFee: quote.networkFee.value,
    paymentMethod,
    providerQuoteId: quote.quoteId,
  };
}

/** The percentage text of a method's fee, read from a quote: "2.5%". */
export const feeText = (quote: CoinbaseBuyQuote): string => percentText(quote.coinbaseFee.value, quote.paymentTotal.value);

/** Countries served; where Coinbase lists subdivisions (the US), the ones served. */
export function fromConfig(config: CoinbaseBuyConfig): ProviderCatalogue['countries'] {
  return config.countries.map((c) =>
    c.subdivisions && c.subdivisions.length > 0 ? { code: c.id, states: [...c.subdivisions] } : { code: c.id },
  );
}

/** Each method's limits per fiat currency ID over every place: the widest range any place gives. */
export function methodLimits(indexes: readonly CoinbaseAssetIndex[], method: CoinbaseMethod): CataloguePaymentMethod['limits'] {
  const limits: CataloguePaymentMethod['limits'] = {};
  for (const index of indexes) {
    for (const [fiatId, byMethod] of index.fiat) {
      const limit = byMethod.get(method.id);
      if (!limit) continue;
      const known = limits[fiatId];
      limits[fiatId] = known
        ? { min: decimal(known.min).lt(limit.min) ? known.min : limit.min, max: decimal(known.max).gt(limit.max) ? known.max : limit.max }
        : { ...limit };
    }
  }
  return limits;
}

/** The methods some place takes, each with its limits. */
export function catalogueMethods(
  indexes: readonly CoinbaseAssetIndex[],
): { method: CoinbaseMethod; limits: CataloguePaymentMethod['limits'] }[] {
  return COINBASE_METHODS.map((method) => ({ method, limits: methodLimits(indexes, method) })).filter(
    (m) => Object.keys(m.limits).length > 0,
  );
}

/** The crypto currencies some place sells, and for each the served countries whose options lack it. */
export function cryptoCoverage(places: readonly { country: string; index: CoinbaseAssetIndex }[]) {
  const crypto = new Set<number>();
  for (const { index } of places) for (const id of index.crypto.keys()) crypto.add(id);
  const notSoldIn: NonNullable<ProviderCatalogue['cryptoNotSoldIn']> = {};
  for (const id of crypto) {
    const countries = places.filter(({ index }) => !index.crypto.has(id)).map(({ country }) => country);
    if (countries.length > 0) notSoldIn[id] = { countries };
  }
  return { crypto: [...crypto], notSoldIn };
}

/** The session token request: the wallet on the order's network, only the order's asset, the customer's IP when known. */
export function toTokenBody(terms: CoinbaseTerms, request: CreateProviderOrderRequest) {
  return {
    addresses: [{ address: request.walletAddress, blockchains: [terms.asset.network.name] }],
    assets: [terms.asset.currency.symbol],
    ...(request.ip === undefined ? {} : { clientIp: request.ip }),
  };
}

export function fromTransaction(tx: CoinbaseTransaction, dictionary: CurrencyDictionary): ProviderOrderSnapshot {
  const mapped = mapCoinbaseStatus(tx.status, tx.failureReason, tx.errorCode);
  const reported = reportedTerms(dictionary, tx);
  return {
    orderId: tx.partnerUserRef ?? '',
    providerOrderId: tx.transactionId,
    providerStatus: tx.status,
    ...mapped,
    ...(tx.purchaseAmount && decimal(tx.purchaseAmount.value).gt(0) ? { cryptoAmount: tx.purchaseAmount.value } : {}),
    ...(tx.txHash && tx.txHash !== '0x' ? { transactionHash: tx.txHash } : {}),
    ...(reported ? { reported } : {}),
    ...createdAtText(tx.createdAt),
  };
}

/**
 * The order as Coinbase sees it: the transaction the order holds (`pinned`), else the newest one
 * for our id (the list is newest first); or `created` while there is none yet.
 */
export function fromTransactions(
  orderId: string,
  transactions: readonly CoinbaseTransaction[],
  dictionary: CurrencyDictionary,
  pinned?: string,
): ProviderOrderSnapshot {
  const held = pinned === undefined ? undefined : transactions.find((t) => t.transactionId === pinned);
  const latest = held ?? transactions[0];
  if (!latest) return { orderId, providerStatus: COINBASE_NO_TRANSACTION, status: 'created' };
  return fromTransaction(latest, dictionary);
}

/** An instant as RFC 3339 UTC in whole seconds, as Coinbase's examples write `startDate` and `endDate`. */
const wholeSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The window as the list's `startDate` and `endDate`: instants in whole seconds, the start rounded
 * down and the end up, so no second of the window is left out whether Coinbase reads `endDate` as
 * included or not (its pages differ on that); fromTransactionPage keeps what lies inside.
 */
export function toListRange(window: TransactionWindow): { startDate: string; endDate: string } {
  return {
    startDate: wholeSeconds(Math.floor(window.fromMs / 1000) * 1000),
    endDate: wholeSeconds(Math.ceil(window.toMs / 1000) * 1000),
  };
}

/**
 * One page of the list of all buy transactions in the broker's terms: each row read as a status
 * lookup reads it (fromTransaction: the status map, the reported terms, `partnerUserRef` as our
 * order id, `createdAt`), the rows inside the window, and `nextPageKey` as the cursor unless it is
 * empty (the last page). A row without a creation time cannot be placed in the window: unreadable.
 */
export function fromTransactionPage(
  page: CoinbaseTransactionPage,
  window: TransactionWindow,
  dictionary: CurrencyDictionary,
): ProviderTransactionPage {
  const listed = windowRows(
    page.transactions.map((row) => fromTransaction(row, dictionary)),
    window,
  );
  return page.nextPageKey ? { ...listed, cursor: page.nextPageKey } : listed;
}
