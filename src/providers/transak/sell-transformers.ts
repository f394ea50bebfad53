/**
 * Transak's sell (off-ramp) flow to the broker's model and back (docs/providers/transak.md, "Sell
 * (off-ramp)"). The deposit of a snapshot comes from Transak's own order (a Partner API answer or a
 * verified webhook) alone: `cryptoPaymentData.paymentAddress`, never the widget URL, the redirect or
 * anything the integrator sent.
 */
import type { CryptoCurrency, CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { MEMO_NETWORKS } from '../../addresses/validate';
import { createdAtText } from '../kit/created-at';
import type {
  CataloguePayoutMethod,
  CreateSellOrderRequest,
  ReportedDeposit,
  ReportedSellTerms,
  SellCatalogue,
  SellOrderSnapshot,
  SellQuote,
  SellQuoteRequest,
} from '../sell-types';
import { ProviderRejectedError } from '../types';
import type { TransakConfig } from './config';
import { brokerNetwork, cryptoId, transakNetwork } from './networks';
import type { TransakCountries, TransakCryptoCurrencies, TransakFiatCurrencies, TransakQuote } from './schemas';
import type { TransakSellOrder, TransakSellWidgetParams } from './sell-schemas';
import { mapTransakSellStatus } from './sell-status-map';

const NETWORK_FEE_ID = 'network_fee';

/**
 * The payout methods seen in Transak's sell data (`paymentOptionId` of the Partner API's sell order,
 * Gem Wallet's sell quotes), onto the broker's codes. Card payouts are not documented for sells.
 */
const TRANSAK_PAYOUT_METHODS: Readonly<Record<string, string>> = {
  sepa_bank_transfer: 'sepa',
  gbp_bank_transfer: 'bank_transfer',
};
const BROKER_PAYOUT_METHODS = new Map(Object.entries(TRANSAK_PAYOUT_METHODS).map(([transak, broker]) => [broker, transak]));

export function brokerPayoutMethod(transakId: string): string | undefined {
  return Object.hasOwn(TRANSAK_PAYOUT_METHODS, transakId) ? TRANSAK_PAYOUT_METHODS[transakId] : undefined;
}

/**
 * Whether the broker sells `network` through Transak: not where a deposit needs a destination tag or
 * memo, since where Transak's sell order names one is not documented (a deposit without the tag
 * Transak expects would be lost).
 */
const sellsOn = (network: string) => !MEMO_NETWORKS.has(network);

function sellAsset(crypto: CryptoCurrency): { symbol: string; network: string } {
  const network = transakNetwork(crypto);
  if (network === undefined || !sellsOn(crypto.network)) {
    throw new ProviderRejectedError('currency', `Transak does not buy ${crypto.ticker} on ${crypto.network} from the broker's customers`);
  }
  return { symbol: crypto.ticker, network };
}

function payoutMethod(code: string): string {
  const method = BROKER_PAYOUT_METHODS.get(code);
  if (method === undefined) throw new ProviderRejectedError('payment_method', `Transak has no payout method ${code}`);
  return method;
}

/** Query of `GET /api/v1/pricing/public/quotes` for a sell: crypto in, `isBuyOrSell=SELL`. */
export function toSellQuoteParams(request: SellQuoteRequest): Record<string, string> {
  const asset = sellAsset(request.crypto);
  return {
    fiatCurrency: request.fiat.ticker,
    cryptoCurrency: asset.symbol,
    network: asset.network,
    isBuyOrSell: 'SELL',
    paymentMethod: payoutMethod(request.payoutMethod),
    cryptoAmount: request.cryptoAmount,
    quoteCountryCode: request.country,
  };
}

/** What of a sell quote request reaches Transak: currencies (by id), amount, payout method and country. */
export function sellQuoteKey(request: SellQuoteRequest): string {
  const { crypto, fiat, cryptoAmount, payoutMethod: method, country } = request;
  return [crypto.id, fiat.id, cryptoAmount, method, country].join('\u0000');
}

/**
 * A SELL quote: `fiatAmount` is the payout, fees already taken off (the documented sell order: 0.0887
 * ETH at `conversionPrice` 0.000347289 is 255.41 GBP, less 13.20 of fees, 242.21 paid); `totalFee`
 * splits into `network_fee` of the breakdown and the processing fee (the rest).
 */
export function fromSellQuote(quote: TransakQuote): SellQuote {
  const networkFee = quote.feeBreakdown.filter((fee) => fee.id === NETWORK_FEE_ID).reduce((sum, fee) => sum.plus(fee.value), decimal(0));
  const processingFee = decimal(quote.totalFee).minus(networkFee);
  const method = brokerPayoutMethod(quote.paymentMethod);
  if (quote.isBuyOrSell !== 'SELL' || method === undefined || processingFee.isNegative()) {
    throw new ProviderRejectedError(
      'rejected',
      `Transak answered a sell quote the broker cannot read (${quote.isBuyOrSell}, ${quote.paymentMethod}, total fee ${quote.totalFee})`,
    );
  }
  return {
    cryptoAmount: quote.cryptoAmount,
    fiatAmount: quote.fiatAmount,
    processingFee: processingFee.toFixed(),
    networkFee: networkFee.toFixed(),
    payoutMethod: method,
    providerQuoteId: quote.quoteId,
  };
}

/**
 * Transak's lists as a sell catalogue: assets Transak takes in (`isPayInAllowed`, allowed, not
 * suspended) on networks whose deposits need no tag; fiat currencies with a payout method whose
 * payout limits (`minAmountForPayOut`, `maxAmountForPayOut`) are listed; the countries of the buy
 * catalogue (Transak lists no sell-only flag).
 */
export function fromSellCatalogue(
  dictionary: CurrencyDictionary,
  cryptos: TransakCryptoCurrencies,
  fiats: TransakFiatCurrencies,
  countries: TransakCountries,
): SellCatalogue {
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const crypto = cryptos
    .filter((asset) => asset.isAllowed && asset.isSuspended !== true && asset.isPayInAllowed === true)
    .filter((asset) => {
      const network = brokerNetwork(asset.symbol, asset.network.name);
      return network !== undefined && sellsOn(network);
    })
    .map((asset) => cryptoId(dictionary, { symbol: asset.symbol, network: asset.network.name, address: asset.address }))
    .filter((id): id is number => id !== undefined);

  const methods = new Map<string, CataloguePayoutMethod>();
  const paidOut = new Set<number>();
  for (const fiat of fiats) {
    const fiatId = fiatIds.get(fiat.symbol);
    if (!fiat.isAllowed || fiatId === undefined) continue;
    for (const option of fiat.paymentOptions) {
      const code = brokerPayoutMethod(option.id);
      if (code === undefined || !option.isActive || option.minAmountForPayOut == null || option.maxAmountForPayOut == null) continue;
      const method = methods.get(code) ?? { code, name: option.name, icon_url: null, limits: {} };
      method.limits[fiatId] = { min: option.minAmountForPayOut, max: option.maxAmountForPayOut };
      methods.set(code, method);
      paidOut.add(fiatId);
    }
  }

  return {
    crypto: [...new Set(crypto)],
    fiat: [...paidOut],
    countries: countries
      .filter((c) => c.isAllowed)
      .map((c) => {
        const served = c.states?.filter((s) => s.isAllowed).map((s) => s.code.replace(/^[A-Z]{2}-/, ''));
        return served && served.length < (c.states?.length ?? 0) ? { code: c.alpha2, states: served } : { code: c.alpha2 };
      }),
    payoutMethods: [...methods.values()],
  };
}

/**
 * `widgetParams` of a sell session, from the request's own terms: `productsAvailed=SELL`, the crypto
 * amount fixed, our order id as `partnerOrderId`. `extras` are not read: nothing of them reaches
 * Transak or the order's deposit.
 */
export function toSellWidgetParams(request: CreateSellOrderRequest, config: TransakConfig): TransakSellWidgetParams {
  const asset = sellAsset(request.crypto);
  return {
    apiKey: config.apiKey,
    referrerDomain: config.referrerDomain,
    productsAvailed: 'SELL',
    cryptoCurrencyCode: asset.symbol,
    network: asset.network,
    cryptoAmount: request.cryptoAmount,
    fiatCurrency: request.fiat.ticker,
    paymentMethod: payoutMethod(request.payoutMethod),
    walletAddress: request.refundWalletAddress,
    partnerOrderId: request.orderId,
    partnerCustomerId: request.externalUserId,
    ...(request.returnUrl === undefined ? {} : { redirectURL: request.returnUrl }),
  };
}

/**
 * The deposit Transak's order names: `cryptoPaymentData.paymentAddress`, on the dictionary's network
 * of the order's asset (Transak's `network` as its own name where the broker knows none: the order
 * refuses it), for the order's `cryptoAmount` before `autoExpiresAt`. None while the order has none.
 */
export function reportedSellDeposit(order: TransakSellOrder): ReportedDeposit | undefined {
  const address = order.cryptoPaymentData?.paymentAddress;
  if (!address || !order.network) return undefined;
  const network = (order.cryptoCurrency ? brokerNetwork(order.cryptoCurrency, order.network) : undefined) ?? order.network;
  return {
    address,
    network,
    ...(order.cryptoAmount == null ? {} : { amount: order.cryptoAmount }),
    ...(order.autoExpiresAt ? { expiresAt: order.autoExpiresAt } : {}),
  };
}

const fiatId = (dictionary: CurrencyDictionary, symbol: string) =>
  dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === symbol)?.id ?? null;

/**
 * The sell's terms as a Transak sell order states them: the asset (symbol and network), the crypto
 * amount, the payout currency and the payout (`fiatAmount`, fees taken off). No refund address:
 * what `walletAddress` holds on a sell is not documented.
 */
export function reportedSellTerms(dictionary: CurrencyDictionary, order: TransakSellOrder): ReportedSellTerms | undefined {
  const { cryptoCurrency, network } = order;
  const terms: ReportedSellTerms = {
    ...(cryptoCurrency && network
      ? { cryptoCurrency: cryptoId(dictionary, { symbol: cryptoCurrency, network, address: order.tokenContractAddress }) ?? null }
      : {}),
    ...(order.cryptoAmount == null ? {} : { cryptoAmount: order.cryptoAmount }),
    ...(order.fiatCurrency ? { fiatCurrency: fiatId(dictionary, order.fiatCurrency) } : {}),
    ...(order.fiatAmount == null ? {} : { fiatAmount: order.fiatAmount }),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}

/** Thrown for a Transak order that is not a sell: a buy order's report never reaches a sell order. */
export class NotASellOrderError extends ProviderRejectedError {
  constructor(transakId: string | undefined) {
    super('not_found', `Transak order ${transakId ?? '(no id)'} is not a SELL order`);
  }
}

/**
 * A sell order in the broker's terms, named by its own `partnerOrderId` (Transak's id stands in where
 * it has none, and names no broker order). An order that is not `isBuyOrSell: SELL` is refused.
 */
export function fromSellOrder(order: TransakSellOrder, dictionary: CurrencyDictionary): SellOrderSnapshot {
  const transakId = order.id ?? order._id;
  if (order.isBuyOrSell !== 'SELL') throw new NotASellOrderError(transakId);
  const mapped = mapTransakSellStatus(order.status);
  const deposit = reportedSellDeposit(order);
  const reported = reportedSellTerms(dictionary, order);
  return {
    orderId: order.partnerOrderId ?? transakId ?? '',
    providerOrderId: transakId,
    providerStatus: order.status,
    ...mapped,
    ...(deposit ? { deposit } : {}),
    ...(reported ? { reported } : {}),
    ...createdAtText(order.createdAt),
  };
}
