/**
 * Ramp's off-ramp (sale) flow to the broker's model and back (docs/providers/ramp.md, "Sell
 * (off-ramp)"). No snapshot ever carries a deposit: Ramp hands the deposit address only to the
 * customer's browser (the widget, the SDK's SEND_CRYPTO event), and neither the sale lookup nor a
 * sale webhook names one, so the broker has no authenticated word for it.
 */
import type { CryptoCurrency, CurrencyDictionary, FiatCurrency } from '../../domain/currency';
import { decimal, roundDown, roundUp } from '../../domain/money';
import { createdAtText } from '../kit/created-at';
import type { CreateSellOrderRequest, ReportedSellTerms, SellCatalogue, SellOrderSnapshot, SellQuote } from '../sell-types';
import { ProviderRejectedError } from '../types';
import { matchesAsset } from './assets';
import { rampAssetSymbol } from './codes';
import type { RampConfig } from './config';
import type { RampAsset, RampCountries, RampCurrencies } from './schemas';
import {
  RampSellMethodQuoteSchema,
  type RampOfframpAssets,
  type RampPayoutMethods,
  type RampSale,
  type RampSellQuote,
  type RampSellQuoteRequest,
} from './sell-schemas';
import { mapRampSaleStatus, RAMP_NO_SALE_STATUS } from './sell-status-map';
import { fromProviderOrderId, toProviderOrderId } from './transformers';
import { rampWebhookQuery } from './webhook-url';

/** A payout method Ramp names (`PayoutMethodName`) and the broker's code for it. */
export interface RampPayoutMethod {
  rampName: string;
  code: string;
  name: string;
}

/** Ramp's documented payout method names; AUTO_/MANUAL_BANK_TRANSFER and CARD_PAYMENT are typed by a third party only, and left out. */
export const RAMP_PAYOUT_METHODS: readonly RampPayoutMethod[] = [
  { rampName: 'CARD', code: 'card', name: 'Card payout' },
  { rampName: 'SEPA', code: 'sepa', name: 'SEPA bank transfer' },
  { rampName: 'AMERICAN_BANK_TRANSFER', code: 'ach', name: 'ACH bank transfer' },
  { rampName: 'PIX', code: 'pix', name: 'Pix' },
  { rampName: 'SPEI', code: 'spei', name: 'SPEI' },
];

export const payoutMethodByCode = (code: string) => RAMP_PAYOUT_METHODS.find((m) => m.code === code);
const payoutMethodByName = (name: string) => RAMP_PAYOUT_METHODS.find((m) => m.rampName === name);

const listed = (asset: RampAsset) => asset.enabled !== false && asset.hidden !== true;

export function findOfframpAsset(assets: RampOfframpAssets, crypto: CryptoCurrency): RampAsset | undefined {
  return assets.assets.find((asset) => listed(asset) && matchesAsset(crypto, asset));
}

/** The fiat range of a sale of this asset: the asset's own where it has one (-1 is the global one). */
export function saleLimits(assets: RampOfframpAssets, asset: RampAsset, fiat: FiatCurrency): { min: string; max: string } {
  const min = asset.minPurchaseAmount === -1 ? assets.minPurchaseAmount : asset.minPurchaseAmount;
  const max = asset.maxPurchaseAmount === -1 ? assets.maxPurchaseAmount : asset.maxPurchaseAmount;
  return { min: roundUp(decimal(min), fiat.precision), max: roundDown(decimal(max), fiat.precision) };
}

/** The Ramp fiat currencies the broker knows, open for selling. */
export function offrampFiat(dictionary: CurrencyDictionary, currencies: RampCurrencies): FiatCurrency[] {
  const byTicker = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c as FiatCurrency]));
  return currencies.flatMap((c) => {
    const fiat = c.offrampAvailable === true ? byTicker.get(c.fiatCurrency) : undefined;
    return fiat ? [fiat] : [];
  });
}

/**
 * Ramp's sell catalogue: the off-ramp assets of every fiat currency it pays out, each payout method
 * with the global sale range of each currency it pays, and the countries some payout method serves
 * (all of Ramp's countries where no method lists its own).
 */
export function fromSellCatalogue(
  dictionary: CurrencyDictionary,
  fiat: readonly FiatCurrency[],
  assetsByFiat: ReadonlyMap<string, RampOfframpAssets>,
  methods: RampPayoutMethods,
  countries: RampCountries,
): SellCatalogue {
  const crypto = new Set<number>();
  for (const currency of fiat) {
    for (const asset of assetsByFiat.get(currency.ticker)?.assets.filter(listed) ?? []) {
      const known = dictionary.currencies.find((c) => matchesAsset(c, asset));
      if (known) crypto.add(known.id);
    }
  }
  const payoutMethods: SellCatalogue['payoutMethods'] = [];
  const served = new Set<string>();
  for (const method of methods) {
    const ours = payoutMethodByName(method.name);
    if (!ours) continue;
    const limits: SellCatalogue['payoutMethods'][number]['limits'] = {};
    for (const currency of fiat.filter((f) => method.currencies.includes(f.ticker))) {
      const assets = assetsByFiat.get(currency.ticker);
      if (!assets) continue;
      limits[currency.id] = {
        min: roundUp(decimal(assets.minPurchaseAmount), currency.precision),
        max: roundDown(decimal(assets.maxPurchaseAmount), currency.precision),
      };
    }
    if (Object.keys(limits).length === 0) continue;
    for (const country of method.countries ?? []) served.add(country.toUpperCase());
    payoutMethods.push({ code: ours.code, name: ours.name, icon_url: null, limits });
  }
  const all = countries.map((c) => ({ code: c.code.toUpperCase(), ...(c.states ? { states: [...c.states] } : {}) }));
  return {
    crypto: [...crypto].sort((a, b) => a - b),
    fiat: fiat.filter((f) => assetsByFiat.has(f.ticker)).map((f) => f.id),
    countries: served.size === 0 ? all : all.filter((c) => served.has(c.code)),
    payoutMethods,
  };
}

/** The crypto amount in the asset's base units; an amount finer than the asset's decimals is refused. */
export function baseUnitsOf(cryptoAmount: string, asset: Pick<RampAsset, 'decimals' | 'symbol'>): string {
  const units = decimal(cryptoAmount).shiftedBy(asset.decimals);
  if (!units.isInteger() || units.lte(0)) {
    throw new ProviderRejectedError('limits', `Ramp takes ${asset.symbol} in steps of 10^-${asset.decimals}`);
  }
  return units.toFixed();
}

export function toSellQuoteRequest(cryptoAmount: string, fiat: FiatCurrency, asset: RampAsset): RampSellQuoteRequest {
  return { cryptoAssetSymbol: rampAssetSymbol(asset), fiatCurrency: fiat.ticker, cryptoAmount: baseUnitsOf(cryptoAmount, asset) };
}

/**
 * One payout method's entry of Ramp's sell quote: `fiatValue` is what the customer receives and
 * `appliedFee` the fee already in it (Ramp's wording; docs/providers/ramp.md says what is unconfirmed).
 * No network fee is quoted apart, and the quote has neither id nor expiry: the rate is fixed when
 * Ramp sees the crypto.
 */
export function fromSellQuote(
  quote: RampSellQuote,
  request: { fiat: FiatCurrency; cryptoAmount: string; payoutMethod: string },
  limits: { min: string; max: string },
): SellQuote {
  const method = payoutMethodByCode(request.payoutMethod);
  const entry = method ? RampSellMethodQuoteSchema.safeParse(quote[method.rampName]) : undefined;
  if (!method || !entry?.success) {
    throw new ProviderRejectedError('payment_method', `Ramp does not pay ${request.fiat.ticker} by ${request.payoutMethod}`);
  }
  const payout = roundDown(decimal(entry.data.fiatValue), request.fiat.precision);
  if (decimal(payout).lt(limits.min) || decimal(payout).gt(limits.max)) {
    throw ProviderRejectedError.outsideLimits(limits.min, limits.max, request.fiat);
  }
  return {
    cryptoAmount: decimal(entry.data.cryptoAmount).shiftedBy(-quote.asset.decimals).toFixed(),
    fiatAmount: payout,
    processingFee: roundUp(decimal(entry.data.appliedFee), request.fiat.precision),
    networkFee: '0',
    payoutMethod: request.payoutMethod,
  };
}

/** Where Ramp posts this sell order's sale webhooks: our order id with its sale MAC, as Ramp echoes no reference. */
export function offrampWebhookUrl(config: RampConfig, orderId: string): string {
  return `${config.brokerPublicUrl}/api/webhooks/ramp?${new URLSearchParams(rampWebhookQuery(config.webhookUrlSecret, orderId, 'sale')).toString()}`;
}

/**
 * The widget URL in its off-ramp flow; Ramp creates the sale when the customer accepts it there. The
 * customer's wallet (the refund address) goes as `userAddress`, which Ramp reads as the sending
 * address for a sale (unconfirmed). No `useSendCryptoCallback`: the broker has no page to receive
 * SEND_CRYPTO in, and what it carries would not be authenticated anyway.
 */
export function toSellWidgetUrl(config: RampConfig, request: CreateSellOrderRequest, asset: RampAsset): string {
  const url = new URL(config.widgetUrl);
  const symbol = rampAssetSymbol(asset);
  const params: Record<string, string | undefined> = {
    hostApiKey: config.hostApiKey,
    hostAppName: config.hostAppName,
    enabledFlows: 'OFFRAMP',
    defaultFlow: 'OFFRAMP',
    offrampAsset: symbol,
    swapAsset: symbol,
    swapAmount: baseUnitsOf(request.cryptoAmount, asset),
    fiatCurrency: request.fiat.ticker,
    selectedCountryCode: request.country,
    userAddress: request.refundWalletAddress,
    finalUrl: request.returnUrl,
    offrampWebhookV3Url: offrampWebhookUrl(config, request.orderId),
  };
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** The sale id and view token of a provider order id (`<sale id>:<saleViewToken>`, as on buy). */
export function fromSaleProviderOrderId(providerOrderId: string): { saleId: string; viewToken: string } | undefined {
  const parsed = fromProviderOrderId(providerOrderId);
  return parsed && { saleId: parsed.purchaseId, viewToken: parsed.viewToken };
}

/** What a claim names a sale by: its id, kept apart from purchase ids, which claim by the id alone. */
export const saleClaimKey = (saleId: string) => `sale:${saleId}`;

function reportedSaleTerms(dictionary: CurrencyDictionary, sale: RampSale): ReportedSellTerms {
  const crypto = dictionary.currencies.find((c) => matchesAsset(c, sale.crypto.assetInfo));
  const fiat = dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === sale.fiat.currencySymbol);
  return {
    cryptoCurrency: crypto?.id ?? null,
    cryptoAmount: decimal(sale.crypto.amount).shiftedBy(-sale.crypto.assetInfo.decimals).toFixed(),
    fiatCurrency: fiat?.id ?? null,
    fiatAmount: decimal(sale.fiat.amount).toFixed(),
  };
}

/**
 * A sale in the broker's terms. Ramp's sale names no order of ours: `orderId` is what the caller bound
 * it to (the webhook URL's MAC-checked `order_id`, or the order whose pinned sale was read). The
 * status is the webhook's `type`, else the lookup's `status`; a sale with neither is refused as an
 * unknown status.
 */
export function fromSale(
  orderId: string,
  sale: RampSale,
  dictionary: CurrencyDictionary,
  viewToken: string | undefined,
  eventType?: string,
): SellOrderSnapshot {
  const status = eventType ?? sale.status ?? '';
  const mapped = mapRampSaleStatus(status, sale);
  const token = sale.saleViewToken ?? viewToken;
  return {
    orderId,
    providerOrderId: token ? toProviderOrderId(sale.id, token) : sale.id,
    providerStatus: status,
    ...mapped,
    ...(sale.transactionHash ? { transactionHash: sale.transactionHash } : {}),
    reported: reportedSaleTerms(dictionary, sale),
    ...createdAtText(sale.createdAt),
  };
}

/** Before the customer accepts the sale in the widget there is no sale at Ramp, only our URL. */
export function noSaleYet(orderId: string): SellOrderSnapshot {
  return { orderId, providerStatus: RAMP_NO_SALE_STATUS, status: 'created' };
}
