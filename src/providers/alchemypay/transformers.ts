import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import {
  ProviderRejectedError,
  type CataloguePaymentMethod,
  type CreateProviderOrderRequest,
  type ProviderCatalogue,
  type ProviderOrderSnapshot,
  type ProviderQuote,
  type QuoteRequest,
} from '../types';
import { createdAtText } from '../kit/created-at';
import { customerUrl } from '../kit/url';
import { alchemypayAsset, brokerFiat, methodByCode, methodByPayWay } from './mappings';
import { reportedTerms } from './reported';
import type { AlchemypayFiat, AlchemypayMethod, AlchemypayOrder, AlchemypayQuote } from './schemas';
import { ALCHEMYPAY_NO_ORDER, mapAlchemypayStatus } from './status-map';

/** What a quote or an order needs in Alchemy Pay's terms. */
export interface AlchemypayTerms {
  crypto: string;
  network: string;
  fiat: string;
  payWayCode: string;
}

type Terms = Pick<QuoteRequest, 'fiat' | 'crypto' | 'paymentMethod'>;

export function resolveTerms(request: Terms): AlchemypayTerms {
  const asset = alchemypayAsset(request.crypto);
  if (!asset)
    throw new ProviderRejectedError('currency', `Alchemy Pay does not sell ${request.crypto.ticker} on ${request.crypto.network}`);
  const method = methodByCode(request.paymentMethod);
  if (!method) throw new ProviderRejectedError('payment_method', `Alchemy Pay does not take ${request.paymentMethod}`);
  return { ...asset, fiat: request.fiat.ticker, payWayCode: method.payWayCode };
}

/** The quote body: a buy of `fiatAmount` (fees included) with the best price of one method. */
export function toQuoteBody(terms: AlchemypayTerms, fiatAmount: string): Record<string, string> {
  return {
    crypto: terms.crypto,
    network: terms.network,
    fiat: terms.fiat,
    amount: fiatAmount,
    payWayCode: terms.payWayCode,
    side: 'BUY',
    type: 'ONE',
  };
}

/** The fees come out of the amount: the customer pays `fiatAmount`, `rampFee` and `networkFee` are in its currency. */
export function fromQuote(quote: AlchemypayQuote, fiatAmount: string, paymentMethod: string): ProviderQuote {
  return {
    fiatAmount: decimal(fiatAmount).toFixed(),
    cryptoAmount: decimal(quote.cryptoQuantity).toFixed(),
    processingFee: decimal(quote.rampFee).toFixed(),
    networkFee: decimal(quote.networkFee).toFixed(),
    paymentMethod,
  };
}

/** Countries of the fiat currencies that can be bought with; a currency's country is where it is sold. */
export function fromFiats(dictionary: CurrencyDictionary, fiats: readonly AlchemypayFiat[]) {
  const buyable = fiats.filter((f) => f.buyEnable && brokerFiat(dictionary, f.currency));
  const countries = [...new Set(buyable.map((f) => f.country.toUpperCase()))].map((code) => ({ code }));
  const fiat = [...new Set(buyable.map((f) => brokerFiat(dictionary, f.currency)!.id))];
  return { fiat, countries, buyable };
}

/** The methods the broker has a code for, with their limits per fiat currency ID. */
export function fromMethods(
  dictionary: CurrencyDictionary,
  perFiat: readonly { fiat: string; methods: readonly AlchemypayMethod[] }[],
): CataloguePaymentMethod[] {
  const byCode = new Map<string, CataloguePaymentMethod>();
  for (const { fiat, methods } of perFiat) {
    const fiatId = brokerFiat(dictionary, fiat)?.id;
    if (fiatId === undefined) continue;
    for (const m of methods) {
      const known = methodByPayWay(m.payWayCode);
      if (!known) continue;
      const entry = byCode.get(known.code) ?? { code: known.code, name: known.name, icon_url: null, limits: {} };
      entry.limits[fiatId] = { min: decimal(m.minPurchaseAmount).toFixed(), max: decimal(m.maxPurchaseAmount).toFixed() };
      byCode.set(known.code, entry);
    }
  }
  return [...byCode.values()];
}

export type CatalogueCountries = ProviderCatalogue['countries'];

/** The ramp page parameters of an order: our order id rides along as `merchantOrderNo`. */
export function toRampParams(
  appId: string,
  callbackUrl: string,
  terms: AlchemypayTerms,
  request: CreateProviderOrderRequest,
  timestamp: string,
): Record<string, string> {
  const redirect = customerUrl(request.extras, 'redirect_url');
  return {
    appId,
    crypto: terms.crypto,
    network: terms.network,
    fiat: terms.fiat,
    fiatAmount: request.fiatAmount,
    address: request.walletAddress,
    payWayCode: terms.payWayCode,
    merchantOrderNo: request.orderId,
    callbackUrl,
    showTable: 'buy',
    timestamp,
    ...(redirect === undefined ? {} : { redirectUrl: redirect }),
  };
}

/** An Alchemy Pay order as a snapshot, named by its own `merchantOrderNo`. */
export function fromOrder(order: AlchemypayOrder, dictionary: CurrencyDictionary): ProviderOrderSnapshot {
  const mapped = mapAlchemypayStatus(order.status);
  const reported = reportedTerms(dictionary, order);
  return {
    orderId: order.merchantOrderNo ?? '',
    providerOrderId: order.orderNo,
    providerStatus: order.status,
    ...mapped,
    ...(order.cryptoQuantity && order.status === 'FINISHED' ? { cryptoAmount: decimal(order.cryptoQuantity).toFixed() } : {}),
    ...(order.txHash ? { transactionHash: order.txHash } : {}),
    ...(reported ? { reported } : {}),
    // "2024-05-01 10:20:30" names no zone: read as UTC. Were it Alchemy Pay's Singapore clock, the
    // time would read eight hours late, which never refuses a genuine report (docs/providers/alchemypay.md).
    ...createdAtText(order.createTime, 'utc'),
  };
}

/** The order as Alchemy Pay sees it, or `created` while it has none for our id. */
export function fromLookup(orderId: string, order: AlchemypayOrder | undefined, dictionary: CurrencyDictionary): ProviderOrderSnapshot {
  if (!order) return { orderId, providerStatus: ALCHEMYPAY_NO_ORDER, status: 'created' };
  return fromOrder(order, dictionary);
}
