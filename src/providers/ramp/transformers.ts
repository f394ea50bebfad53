import { rampWebhookQuery } from './webhook-url';
import type { CryptoCurrency, CurrencyDictionary, FiatCurrency } from '../../domain/currency';
import { decimal, Decimal, roundDown, roundUp } from '../../domain/money';
import {
  ProviderRejectedError,
  type CataloguePaymentMethod,
  type CreateProviderOrderRequest,
  type ProviderCatalogue,
  type ProviderOrderSnapshot,
  type ProviderQuote,
  type QuoteRequest,
} from '../types';
import { matchesAsset } from './assets';
import { BROKER_METHOD_CODES, brokerMethodFor, rampAssetSymbol, type RampBrokerMethod } from './codes';
import type { RampConfig } from './config';
import {
  RampMethodQuoteSchema,
  type RampAsset,
  type RampAssets,
  type RampCountries,
  type RampCurrencies,
  type RampPaymentMethods,
  type RampPurchase,
  type RampQuote,
  type RampQuoteRequest,
} from './schemas';
import { reportedTerms } from './reported';
import { mapRampStatus } from './status-map';
import { createdAtText } from '../kit/created-at';
import { customerUrl } from '../kit/url';

/** What the broker reports for an order that so far exists only as a widget URL. */
export const RAMP_NO_PURCHASE_STATUS = 'NO_PURCHASE_YET';

const listed = (asset: RampAsset) => asset.enabled !== false && asset.hidden !== true;

export function findRampAsset(assets: RampAssets, crypto: CryptoCurrency): RampAsset | undefined {
  return assets.assets.find((asset) => listed(asset) && matchesAsset(crypto, asset));
}

/** Purchase limits of an asset in the config's currency; -1 on the asset means the global limit. */
export function purchaseLimits(assets: RampAssets, asset: RampAsset, fiat: FiatCurrency): { min: string; max: string } {
  const min = asset.minPurchaseAmount === -1 ? assets.minPurchaseAmount : asset.minPurchaseAmount;
  const max = asset.maxPurchaseAmount === -1 ? assets.maxPurchaseAmount : asset.maxPurchaseAmount;
  return { min: roundUp(decimal(min), fiat.precision), max: roundDown(decimal(max), fiat.precision) };
}

export function checkLimits(amount: string, limits: { min: string; max: string }, fiat: FiatCurrency): void {
  const value = decimal(amount);
  if (value.lt(limits.min) || value.gt(limits.max)) {
    throw ProviderRejectedError.outsideLimits(limits.min, limits.max, fiat);
  }
}

/** The Ramp fiat currencies the broker knows, open for buying. */
export function onrampFiat(dictionary: CurrencyDictionary, currencies: RampCurrencies): FiatCurrency[] {
  const byTicker = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c as FiatCurrency]));
  return currencies.flatMap((c) => {
    const fiat = c.onrampAvailable ? byTicker.get(c.fiatCurrency) : undefined;
    return fiat ? [fiat] : [];
  });
}

/**
 * Ramp's catalogue in the broker's terms. `assetsByFiat` is GET /host-api/v3/assets once per fiat
 * currency of `fiat`: its global limits are each payment method's limits in that currency, and an
 * asset's own limits (not -1) are that crypto currency's limits in it.
 */
export function fromCatalogue(
  dictionary: CurrencyDictionary,
  fiat: readonly FiatCurrency[],
  assetsByFiat: ReadonlyMap<string, RampAssets>,
  methods: RampPaymentMethods,
  countries: RampCountries,
): ProviderCatalogue {
  const cryptoIds = new Set<number>();
  const cryptoLimits: NonNullable<ProviderCatalogue['cryptoLimits']> = {};
  for (const currency of fiat) {
    const assets = assetsByFiat.get(currency.ticker);
    if (!assets) continue;
    for (const asset of assets.assets.filter(listed)) {
      const crypto = dictionary.currencies.find((c) => matchesAsset(c, asset));
      if (!crypto) continue;
      cryptoIds.add(crypto.id);
      // -1 is the global limit, which the payment methods already carry.
      if (asset.minPurchaseAmount === -1 && asset.maxPurchaseAmount === -1) continue;
      (cryptoLimits[crypto.id] ??= {})[currency.id] = purchaseLimits(assets, asset, currency);
    }
  }
  const limitsByCode = new Map<RampBrokerMethod, CataloguePaymentMethod['limits']>();
  // Ramp publishes one fee range for all methods; its upper end is what a customer may pay.
  const feeByCode = new Map<RampBrokerMethod, Decimal>();
  for (const method of methods) {
    for (const currency of fiat.filter((f) => method.currencies.includes(f.ticker))) {
      const assets = assetsByFiat.get(currency.ticker);
      const code = brokerMethodFor(method.name, currency.ticker);
      if (!assets || !code) continue;
      const limits = limitsByCode.get(code) ?? {};
      limits[currency.id] = {
        min: roundUp(decimal(assets.minPurchaseAmount), currency.precision),
        max: roundDown(decimal(assets.maxPurchaseAmount), currency.precision),
      };
      limitsByCode.set(code, limits);
      feeByCode.set(code, Decimal.max(feeByCode.get(code) ?? 0, assets.maxFeePercent));
    }
  }
  return {
    fiat: fiat.filter((f) => assetsByFiat.has(f.ticker)).map((f) => f.id),
    crypto: [...cryptoIds].sort((a, b) => a - b),
    countries: countries.map((c) => ({ code: c.code.toUpperCase(), ...(c.states ? { states: [...c.states] } : {}) })),
    paymentMethods: [...limitsByCode].map(([code, limits]) => ({
      code,
      name: BROKER_METHOD_CODES[code].name,
      icon_url: null,
      fee: `${(feeByCode.get(code) ?? decimal(0)).toFixed()}%`,
      limits,
    })),
    ...(Object.keys(cryptoLimits).length > 0 ? { cryptoLimits } : {}),
  };
}

export function toQuoteRequest(request: QuoteRequest, asset: RampAsset): RampQuoteRequest {
  return { cryptoAssetSymbol: rampAssetSymbol(asset), fiatCurrency: request.fiat.ticker, fiatValue: Number(request.fiatAmount) };
}

/**
 * One payment method's entry of Ramp's quote. `appliedFee` is everything taken from `fiatValue`
 * (the Ramp fee plus the network fee, as the documented purchase example adds up), so the
 * network fee is what it adds to `baseRampFee`.
 */
export function fromQuote(quote: RampQuote, request: QuoteRequest & { paymentMethod: RampBrokerMethod }): ProviderQuote {
  const rampName = BROKER_METHOD_CODES[request.paymentMethod].rampName;
  const entry = RampMethodQuoteSchema.safeParse(quote[rampName]);
  if (!entry.success) {
    throw new ProviderRejectedError('payment_method', `Ramp has no ${rampName} price for ${request.fiat.ticker}`);
  }
  const { baseRampFee, appliedFee, cryptoAmount } = entry.data;
  const precision = request.fiat.precision;
  return {
    fiatAmount: request.fiatAmount,
    cryptoAmount: decimal(cryptoAmount).shiftedBy(-quote.asset.decimals).toFixed(),
    processingFee: roundUp(decimal(baseRampFee), precision),
    networkFee: roundUp(Decimal.max(decimal(appliedFee).minus(baseRampFee), 0), precision),
    paymentMethod: request.paymentMethod,
  };
}

/** Where Ramp posts this order's webhooks: our order id (with its MAC) rides in the query, as Ramp echoes no reference. */
export function webhookStatusUrl(config: RampConfig, orderId: string): string {
  return `${config.brokerPublicUrl}/api/webhooks/ramp?${new URLSearchParams(rampWebhookQuery(config.webhookUrlSecret, orderId)).toString()}`;
}

/** The widget URL the customer opens; Ramp creates the purchase there. */
export function toWidgetUrl(
  config: RampConfig,
  request: CreateProviderOrderRequest & { paymentMethod: RampBrokerMethod },
  asset: RampAsset,
): string {
  const url = new URL(config.widgetUrl);
  const widgetType = BROKER_METHOD_CODES[request.paymentMethod].widgetType;
  const finalUrl = customerUrl(request.extras, 'return_url');
  const params: Record<string, string | undefined> = {
    hostApiKey: config.hostApiKey,
    hostAppName: config.hostAppName,
    defaultFlow: 'ONRAMP',
    swapAsset: rampAssetSymbol(asset),
    userAddress: request.walletAddress,
    fiatCurrency: request.fiat.ticker,
    fiatValue: request.fiatAmount,
    paymentMethodType: widgetType,
    finalUrl,
    webhookStatusUrl: webhookStatusUrl(config, request.orderId),
  };
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** The purchase id and view token, kept together as the broker's provider order id. */
export function toProviderOrderId(purchaseId: string, viewToken: string): string {
  return `${purchaseId}:${viewToken}`;
}

export function fromProviderOrderId(providerOrderId: string): { purchaseId: string; viewToken: string } | undefined {
  const colon = providerOrderId.indexOf(':');
  if (colon <= 0 || colon === providerOrderId.length - 1) return undefined;
  return { purchaseId: providerOrderId.slice(0, colon), viewToken: providerOrderId.slice(colon + 1) };
}

/**
 * A purchase in the broker's terms; a RETURNED event means the money went back, whatever the status
 * says. Ramp's purchase names no order of ours: `orderId` is what the caller bound it to (the
 * webhook URL's MAC-checked `order_id`, or the order whose pinned purchase was read), and the
 * purchase id in `providerOrderId` is what the order pins.
 */
export function fromPurchase(
  orderId: string,
  purchase: RampPurchase,
  dictionary: CurrencyDictionary,
  viewToken: string | undefined,
  eventType?: string,
): ProviderOrderSnapshot {
  const mapped = eventType === 'RETURNED' ? { status: 'refunded' as const } : mapRampStatus(purchase.status);
  const token = purchase.purchaseViewToken ?? viewToken;
  return {
    orderId,
    // Without its view token the purchase cannot be polled, but it is still named: an order pins it.
    providerOrderId: token ? toProviderOrderId(purchase.id, token) : purchase.id,
    providerStatus: purchase.status,
    ...mapped,
    cryptoAmount: decimal(purchase.cryptoAmount).shiftedBy(-purchase.asset.decimals).toFixed(),
    ...(purchase.finalTxHash ? { transactionHash: purchase.finalTxHash } : {}),
    reported: reportedTerms(dictionary, purchase),
    ...createdAtText(purchase.createdAt),
  };
}

/** Before the customer opens the widget there is no purchase at Ramp, only our URL. */
export function noPurchaseYet(orderId: string): ProviderOrderSnapshot {
  return { orderId, providerStatus: RAMP_NO_PURCHASE_STATUS, status: 'created' };
}
