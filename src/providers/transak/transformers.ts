import type { CryptoCurrency, CurrencyDictionary } from '../../domain/currency';
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
import type { TransakConfig } from './config';
import { cryptoId, transakNetwork } from './networks';
import { brokerPaymentMethod, transakPaymentMethod } from './payment-methods';
import { reportedTerms } from './reported';
import type {
  TransakCountries,
  TransakCryptoCurrencies,
  TransakFiatCurrencies,
  TransakOrder,
  TransakQuote,
  TransakWidgetParams,
} from './schemas';
import { mapTransakStatus } from './status-map';
import { createdAtText } from '../kit/created-at';
import { customerUrl } from '../kit/url';

const NETWORK_FEE_ID = 'network_fee';

function transakAsset(crypto: CryptoCurrency): { symbol: string; network: string } {
  const network = transakNetwork(crypto);
  if (network === undefined) throw new ProviderRejectedError('currency', `Transak does not sell ${crypto.ticker} on ${crypto.network}`);
  return { symbol: crypto.ticker, network };
}

function transakMethod(code: string): string {
  const method = transakPaymentMethod(code);
  if (method === undefined) throw new ProviderRejectedError('payment_method', `Transak has no payment method ${code}`);
  return method;
}

/** Query of `GET /api/v1/pricing/public/quotes` (partnerApiKey is the client's). */
export function toQuoteParams(request: QuoteRequest): Record<string, string> {
  const asset = transakAsset(request.crypto);
  return {
    fiatCurrency: request.fiat.ticker,
    cryptoCurrency: asset.symbol,
    network: asset.network,
    isBuyOrSell: 'BUY',
    paymentMethod: transakMethod(request.paymentMethod),
    fiatAmount: request.fiatAmount,
    quoteCountryCode: request.country,
  };
}

/** Fees in the fiat currency: `network_fee` of the breakdown is the network fee, the rest of `totalFee` processing. */
export function fromQuote(quote: TransakQuote): ProviderQuote {
  const networkFee = quote.feeBreakdown.filter((fee) => fee.id === NETWORK_FEE_ID).reduce((sum, fee) => sum.plus(fee.value), decimal(0));
  const processingFee = decimal(quote.totalFee).minus(networkFee);
  const paymentMethod = brokerPaymentMethod(quote.paymentMethod);
  if (paymentMethod === undefined || processingFee.isNegative()) {
    throw new ProviderRejectedError(
      'rejected',
      `Transak answered a quote the broker cannot read (${quote.paymentMethod}, total fee ${quote.totalFee})`,
    );
  }
  return {
    fiatAmount: quote.fiatAmount,
    cryptoAmount: quote.cryptoAmount,
    processingFee: processingFee.toFixed(),
    networkFee: networkFee.toFixed(),
    paymentMethod,
    providerQuoteId: quote.quoteId,
  };
}

/**
 * Transak's lists in the broker's terms. Assets, fiat currencies and payment methods the broker has
 * no ID or code for are dropped, as are those Transak marks as not allowed or suspended. Transak
 * publishes no fee per payment method (fees come with each quote), so `fee` is left for the
 * catalogue service to read from a reference quote.
 */
export function fromCatalogue(
  dictionary: CurrencyDictionary,
  cryptos: TransakCryptoCurrencies,
  fiats: TransakFiatCurrencies,
  countries: TransakCountries,
): ProviderCatalogue {
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const allowedFiats = fiats.filter((f) => f.isAllowed && fiatIds.has(f.symbol));
  const crypto = cryptos
    .filter((asset) => asset.isAllowed && asset.isSuspended !== true)
    .map((asset) => cryptoId(dictionary, { symbol: asset.symbol, network: asset.network.name, address: asset.address }))
    .filter((id): id is number => id !== undefined);

  const methods = new Map<string, CataloguePaymentMethod>();
  for (const fiat of allowedFiats) {
    for (const option of fiat.paymentOptions) {
      const code = brokerPaymentMethod(option.id);
      if (code === undefined || !option.isActive || option.minAmount == null || option.maxAmount == null) continue;
      const method = methods.get(code) ?? { code, name: option.name, icon_url: null, limits: {} };
      method.limits[fiatIds.get(fiat.symbol)!] = { min: option.minAmount, max: option.maxAmount };
      methods.set(code, method);
    }
  }

  return {
    fiat: allowedFiats.map((f) => fiatIds.get(f.symbol)!),
    crypto: [...new Set(crypto)],
    countries: countries
      .filter((c) => c.isAllowed)
      .map((c) => {
        const served = c.states?.filter((s) => s.isAllowed).map((s) => s.code.replace(/^[A-Z]{2}-/, ''));
        return served && served.length < (c.states?.length ?? 0) ? { code: c.alpha2, states: served } : { code: c.alpha2 };
      }),
    paymentMethods: [...methods.values()],
  };
}

/** `widgetParams` of the widget session: the order fixed in advance, our order id as `partnerOrderId`. */
export function toWidgetParams(request: CreateProviderOrderRequest, config: TransakConfig): TransakWidgetParams {
  const asset = transakAsset(request.crypto);
  const redirect = customerUrl(request.extras, 'redirect_url');
  return {
    apiKey: config.apiKey,
    referrerDomain: config.referrerDomain,
    productsAvailed: 'BUY',
    fiatCurrency: request.fiat.ticker,
    fiatAmount: request.fiatAmount,
    cryptoCurrencyCode: asset.symbol,
    network: asset.network,
    walletAddress: request.walletAddress,
    disableWalletAddressForm: true,
    paymentMethod: transakMethod(request.paymentMethod),
    partnerOrderId: request.orderId,
    partnerCustomerId: request.externalUserId,
    ...(redirect === undefined ? {} : { redirectURL: redirect }),
  };
}

/**
 * An order in the broker's terms, named by its own `partnerOrderId`. Where Transak's copy lacks one,
 * Transak's id stands in: it names no broker order, so the report is refused rather than taken for ours.
 */
export function fromOrder(order: TransakOrder, dictionary: CurrencyDictionary): ProviderOrderSnapshot {
  const mapped = mapTransakStatus(order.status);
  const transakId = order.id ?? order._id;
  const reported = reportedTerms(dictionary, order);
  return {
    orderId: order.partnerOrderId ?? transakId ?? '',
    providerOrderId: transakId,
    providerStatus: order.status,
    ...mapped,
    ...(order.cryptoAmount != null && decimal(order.cryptoAmount).gt(0) ? { cryptoAmount: order.cryptoAmount } : {}),
    ...(order.transactionHash ? { transactionHash: order.transactionHash } : {}),
    ...(reported ? { reported } : {}),
    ...createdAtText(order.createdAt),
  };
}

/**
 * An order as Transak's order list shows it (reconciliation), read as fromOrder reads it (so the
 * list says what a status lookup says), except that only the order's own `partnerOrderId` names a
 * broker order: a row without one (a purchase the broker never started) names none, rather than
 * Transak's id standing in for it.
 */
export function fromListedOrder(order: TransakOrder, dictionary: CurrencyDictionary): ProviderOrderSnapshot {
  return { ...fromOrder(order, dictionary), orderId: order.partnerOrderId ?? '' };
}
