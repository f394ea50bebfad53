/**
 * Mercuryo's sell (off-ramp) flow to the broker's model (docs/providers/mercuryo.md, "Sell
 * (off-ramp)"). No snapshot ever carries a deposit: Mercuryo shows its deposit address in the widget
 * and hands it to the partner's page through the iFrame SDK's `onSellTransferEnabled` (the
 * customer's browser, not an authenticated channel); its lookup's `deposit.address` comes only once
 * the crypto has arrived and is not documented as Mercuryo's own address rather than the sender's.
 */
import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { createdAtSeconds, createdAtText, type CreatedAt } from '../kit/created-at';
import { customerUrl } from '../kit/url';
import type {
  CataloguePayoutMethod,
  CreateSellOrderRequest,
  ReportedSellTerms,
  SellCatalogue,
  SellOrderSnapshot,
  SellQuote,
  SellQuoteRequest,
} from '../sell-types';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import { MERCURYO_NETWORKS, toMercuryoNetwork } from './mapping';
import type { MercuryoCurrencyIds } from './reported';
import type { MercuryoCallbackData, MercuryoOperation, MercuryoTransactions } from './schemas';
import type { MercuryoSellConvert, MercuryoSellCurrencies, MercuryoSellLimit } from './sell-schemas';
import { mapMercuryoSellLegs, type SellLeg } from './sell-status-map';
import type { SellWidgetParams } from './sell-widget';

/** The fiat currencies Mercuryo pays out by the off-ramp: "Only EUR and USD" (off-ramp guide, Prerequisites). */
export const MERCURYO_SELL_FIAT: readonly string[] = ['EUR', 'USD'];

/** The one payout method with a broker code: the customer's Visa/Mastercard. The Spend Card has none. */
export const MERCURYO_PAYOUT_METHOD = { code: 'card', name: 'Card payout (Visa, Mastercard)' } as const;

const cryptoKey = (ticker: string, network: string) => `${ticker}/${network}`;

/**
 * The sell catalogue: the crypto the widget sells (`widget_offramp_enabled`) on a network the broker
 * knows, its crypto limits, and the card payout's limits per fiat, each the widest over the pairs
 * `lib/limits/sell` lists (a pair's own limits are checked by its quote). Countries are the card
 * countries: Mercuryo documents no off-ramp country list.
 */
export function fromSellCatalogue(
  dictionary: CurrencyDictionary,
  currencies: MercuryoSellCurrencies,
  limits: readonly MercuryoSellLimit[],
  countries: readonly string[],
): SellCatalogue {
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const cryptoIds = new Map(
    dictionary.currencies.filter((c) => c.currency_type === 'crypto').map((c) => [cryptoKey(c.ticker, c.network ?? ''), c.id]),
  );
  const brokerCrypto = (ticker: string, network: string) => {
    const ours = MERCURYO_NETWORKS[network];
    return ours === undefined ? undefined : cryptoIds.get(cryptoKey(ticker, ours));
  };
  const crypto = new Set<number>();
  for (const asset of currencies.config.crypto_currencies) {
    const id = asset.widget_offramp_enabled === true ? brokerCrypto(asset.currency, asset.network) : undefined;
    if (id !== undefined) crypto.add(id);
  }
  const widest = (into: Map<number, { min: string; max: string }>, id: number, range: { min: string; max: string }) => {
    const known = into.get(id);
    into.set(id, {
      min: known && decimal(known.min).lt(range.min) ? known.min : range.min,
      max: known && decimal(known.max).gt(range.max) ? known.max : range.max,
    });
  };
  const cryptoLimits = new Map<number, { min: string; max: string }>();
  const payoutLimits = new Map<number, { min: string; max: string }>();
  for (const pair of limits) {
    const cryptoId = brokerCrypto(pair.crypto, pair.network);
    const fiatId = MERCURYO_SELL_FIAT.includes(pair.fiat) ? fiatIds.get(pair.fiat) : undefined;
    if (cryptoId === undefined || !crypto.has(cryptoId) || fiatId === undefined) continue;
    widest(cryptoLimits, cryptoId, pair.crypto_limits);
    widest(payoutLimits, fiatId, pair.fiat_limits);
  }
  const payoutMethods: CataloguePayoutMethod[] =
    payoutLimits.size === 0 ? [] : [{ ...MERCURYO_PAYOUT_METHOD, icon_url: null, limits: Object.fromEntries(payoutLimits) }];
  return {
    crypto: [...crypto],
    fiat: [...payoutLimits.keys()],
    countries: [...new Set(countries.map((c) => c.toUpperCase()))].filter((c) => /^[A-Z]{2}$/.test(c)).map((code) => ({ code })),
    payoutMethods,
    cryptoLimits: Object.fromEntries(cryptoLimits),
  };
}

type Terms = Pick<SellQuoteRequest, 'crypto' | 'fiat' | 'payoutMethod'>;

/** Mercuryo's names of a sell's currencies; refuses what its off-ramp does not do. */
export function resolveSellTerms(request: Terms): { currency: string; network: string; fiatCurrency: string } {
  const network = toMercuryoNetwork(request.crypto.network);
  if (network === undefined) throw new ProviderRejectedError('currency', `Mercuryo does not buy crypto on ${request.crypto.network}`);
  if (!MERCURYO_SELL_FIAT.includes(request.fiat.ticker)) {
    throw new ProviderRejectedError('currency', `Mercuryo pays out only ${MERCURYO_SELL_FIAT.join(' and ')}`);
  }
  if (request.payoutMethod !== MERCURYO_PAYOUT_METHOD.code) {
    throw new ProviderRejectedError('payment_method', `Mercuryo pays out by card only, not ${request.payoutMethod}`);
  }
  return { currency: request.crypto.ticker, network, fiatCurrency: request.fiat.ticker };
}

/** Query of `GET /public/convert?type=sell` (widget_id is the client's): crypto `from`, fiat `to`, the crypto amount. */
export function toSellConvertQuery(request: SellQuoteRequest): Record<string, string> {
  const terms = resolveSellTerms(request);
  return { from: terms.currency, to: terms.fiatCurrency, type: 'sell', amount: request.cryptoAmount, network: terms.network };
}

/**
 * The payout is `fiat_amount`, read as net of the one `fee` (the documented example's `fiat_amount`
 * is `amount × rate`, with the fee beside it); the fee is the processing fee. No quote id, no expiry:
 * the rate is not locked.
 */
export function fromSellConvert(convert: MercuryoSellConvert, request: SellQuoteRequest): SellQuote {
  if (
    convert.currency !== request.crypto.ticker ||
    convert.fiat_currency !== request.fiat.ticker ||
    convert.fee_currency !== request.fiat.ticker ||
    !decimal(convert.amount).eq(request.cryptoAmount)
  ) {
    throw new ProviderUnavailableError('/public/convert: answer does not match the request');
  }
  return {
    cryptoAmount: request.cryptoAmount,
    fiatAmount: convert.fiat_amount,
    processingFee: convert.fee,
    networkFee: '0',
    payoutMethod: request.payoutMethod,
  };
}

/**
 * The sell widget's parameters. The customer's IP is signed, as on the buy side; the integrator's
 * extras give at most `return_url` (as for buys), never a deposit or any other parameter.
 */
export function toSellWidgetParams(request: CreateSellOrderRequest, credentials: { widgetId: string; secret: string }): SellWidgetParams {
  if (request.ip === undefined) {
    throw new ProviderRejectedError('rejected', "Mercuryo signs its widget URL with the customer's IP address: send `ip` with the order");
  }
  const terms = resolveSellTerms(request);
  const returnUrl = request.returnUrl ?? customerUrl(request.extras, 'return_url');
  return {
    widgetId: credentials.widgetId,
    secret: credentials.secret,
    refundAddress: request.refundWalletAddress,
    ip: request.ip,
    merchantTransactionId: request.orderId,
    currency: terms.currency,
    network: terms.network,
    amount: request.cryptoAmount,
    fiatCurrency: terms.fiatCurrency,
    ...(returnUrl === undefined ? {} : { returnUrl }),
  };
}

/** What one sell message states of the order's terms: the crypto and its amount, and on the sell leg the payout. */
function sellTerms(
  ids: MercuryoCurrencyIds,
  fields: { currency?: string | null; amount?: string | null; fiatCurrency?: string | null; fiatAmount?: string | null },
): ReportedSellTerms | undefined {
  const cryptoCurrency = fields.currency ? ids.crypto(fields.currency) : undefined;
  const terms: ReportedSellTerms = {
    ...(cryptoCurrency === undefined ? {} : { cryptoCurrency }),
    ...(fields.amount ? { cryptoAmount: fields.amount } : {}),
    ...(fields.fiatCurrency ? { fiatCurrency: ids.fiat(fields.fiatCurrency) } : {}),
    ...(fields.fiatAmount ? { fiatAmount: fields.fiatAmount } : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}

type TypedOperation = MercuryoOperation & { type: string };

/** The order's `sell` and `deposit` legs in a lookup: the items' operations naming our order id; another order's never count. */
export function sellLegsOf(orderId: string, response: MercuryoTransactions): { sell?: TypedOperation; deposit?: TypedOperation } {
  const operations: TypedOperation[] = response.data
    .flatMap((item) => Object.entries(item).map(([type, operation]) => ({ ...operation, type })))
    .filter((operation) => operation.merchant_transaction_id === orderId);
  return { sell: operations.find((o) => o.type === 'sell'), deposit: operations.find((o) => o.type === 'deposit') };
}

/**
 * The order's sell from `GET /sdk-partner/transactions`: its `sell` and `deposit` legs (the items'
 * operations naming our order id; another order's never count), mapped together. `created` while
 * Mercuryo has none. The deposit's `hash` is the transaction hash; its `address` is never read.
 */
export function fromSellTransactions(orderId: string, response: MercuryoTransactions, ids: MercuryoCurrencyIds): SellOrderSnapshot {
  const { sell, deposit } = sellLegsOf(orderId, response);
  const mapped = mapMercuryoSellLegs(sell, deposit);
  if (!sell && !deposit) return { orderId, ...mapped };
  const providerOrderId = sell?.id ?? deposit?.transaction_id;
  const reported = sellTerms(ids, {
    currency: sell?.currency ?? deposit?.currency,
    amount: deposit?.amount ?? sell?.amount,
    fiatCurrency: sell?.fiat_currency,
    fiatAmount: sell?.fiat_amount,
  });
  return {
    orderId,
    ...(providerOrderId ? { providerOrderId } : {}),
    ...mapped,
    ...(deposit?.hash ? { transactionHash: deposit.hash } : {}),
    ...(reported ? { reported } : {}),
    // The sell began with whichever leg came first.
    ...earliest([sell, deposit]),
  };
}

/**
 * One verified callback: its leg's status, beside `deposit`, the deposit leg the lookup shows where
 * the caller looked (a failed sell leg means a refund after a received deposit, expiry without one).
 */
export function fromSellCallback(data: MercuryoCallbackData, ids: MercuryoCurrencyIds, deposit?: SellLeg): SellOrderSnapshot {
  const leg = { type: data.type, status: data.status };
  const mapped = mapMercuryoSellLegs(data.type === 'sell' ? leg : undefined, data.type === 'deposit' ? leg : deposit);
  const reported = sellTerms(ids, {
    currency: data.currency,
    amount: data.amount,
    ...(data.type === 'sell' ? { fiatCurrency: data.fiat_currency, fiatAmount: data.fiat_amount } : {}),
  });
  return {
    orderId: data.merchant_transaction_id ?? '',
    // The sell leg's id is the sell's id (the lookup's deposit leg names it as its transaction_id).
    ...(data.type === 'sell' ? { providerOrderId: data.id } : {}),
    ...mapped,
    ...(reported ? { reported } : {}),
    ...createdAtSeconds(data.created_at_ts),
  };
}

function earliest(legs: readonly (TypedOperation | undefined)[]): CreatedAt {
  const times = legs.flatMap((leg) => {
    if (!leg) return [];
    const at = createdAtSeconds(leg.created_at_ts).providerOrderCreatedAt ?? createdAtText(leg.created_at, 'utc').providerOrderCreatedAt;
    return at === undefined ? [] : [at];
  });
  const first = times.sort()[0];
  return first === undefined ? {} : { providerOrderCreatedAt: first };
}
