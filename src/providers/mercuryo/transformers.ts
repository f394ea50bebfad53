import type { z } from 'zod';
import type { CurrencyDictionary } from '../../domain/currency';
import { UnknownProviderStatusError } from '../kit/status-map';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type CataloguePaymentMethod,
  type CreateProviderOrderRequest,
  type ProviderCatalogue,
  type ProviderOrderSnapshot,
  type ProviderQuote,
  type QuoteRequest,
} from '../types';
import { MERCURYO_NETWORKS, MERCURYO_PAYMENT_METHODS, toMercuryoNetwork, toMercuryoPaymentMethod } from './mapping';
import type {
  MercuryoBuyRate,
  MercuryoCallbackData,
  MercuryoCountriesSchema,
  MercuryoCurrencies,
  MercuryoOperation,
  MercuryoTransactions,
} from './schemas';
import { legOf, lookupMercuryoStatus, mapMercuryoStatus } from './status-map';
import { reportedTerms, type MercuryoCurrencyIds } from './reported';
import type { WidgetParams } from './widget';
import { createdAtSeconds, createdAtText, type CreatedAt } from '../kit/created-at';
import { customerUrl } from '../kit/url';

/**
 * Before the customer opens the widget Mercuryo has no transaction for the order: the adapter
 * reports this marker of its own (not a Mercuryo status) as the provider status.
 */
export const MERCURYO_WIDGET_NOT_OPENED = 'widget:not_opened';

/**
 * The catalogue in the broker's terms. Assets, fiat currencies and payment methods without a
 * broker ID or code are dropped. Mercuryo publishes limits per fiat currency (every method of that
 * currency shares them) and no fee per method: the fee is part of each quote, so `fee` is left for
 * the catalogue service to read from a reference quote.
 */
export function fromCatalogue(
  dictionary: CurrencyDictionary,
  currencies: MercuryoCurrencies,
  countries: z.infer<typeof MercuryoCountriesSchema>,
): ProviderCatalogue {
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const cryptoIds = new Map(
    dictionary.currencies.filter((c) => c.currency_type === 'crypto').map((c) => [`${c.ticker}/${c.network}`, c.id]),
  );
  const crypto = new Set<number>();
  for (const asset of currencies.config.crypto_currencies) {
    const network = MERCURYO_NETWORKS[asset.network];
    const id = network === undefined ? undefined : cryptoIds.get(`${asset.currency}/${network}`);
    if (id !== undefined) crypto.add(id);
  }
  const fiat = currencies.fiat.flatMap((code) => fiatIds.get(code) ?? []);
  const methods = new Map<string, CataloguePaymentMethod>();
  for (const [fiatCode, entry] of Object.entries(currencies.fiat_payment_methods)) {
    const fiatId = fiatIds.get(fiatCode);
    if (fiatId === undefined || !fiat.includes(fiatId)) continue;
    for (const method of entry.payment_methods) {
      const code = MERCURYO_PAYMENT_METHODS[method.code];
      if (code === undefined) continue;
      const known = methods.get(code) ?? { code, name: methodName(code, method.name), icon_url: null, limits: {} };
      known.limits[fiatId] = { min: entry.limits.min, max: entry.limits.max };
      methods.set(code, known);
    }
  }
  return {
    fiat,
    crypto: [...crypto],
    countries: [...new Set(countries.data.map((c) => c.toUpperCase()))].filter((c) => /^[A-Z]{2}$/.test(c)).map((code) => ({ code })),
    paymentMethods: [...methods.values()],
  };
}

/** Mercuryo lists card schemes separately ("Visa", "Mastercard") under one code. */
const methodName = (code: string, name: string) => (code === 'card' ? 'Card' : name);

/** Query of `GET /widget/buy/rate` (widget_id is the client's). */
export function toRateQuery(request: QuoteRequest): Record<string, string> {
  return {
    from: request.fiat.ticker,
    to: request.crypto.ticker,
    amount: request.fiatAmount,
    network: mercuryoNetwork(request.crypto.network),
  };
}

/** Mercuryo's rate has one fee for the whole purchase, network fee included, in the fiat currency. */
export function fromRate(rate: MercuryoBuyRate, request: QuoteRequest): ProviderQuote {
  const fee = rate.fee[request.fiat.ticker];
  if (rate.fiat_currency !== request.fiat.ticker || rate.currency !== request.crypto.ticker || fee === undefined) {
    throw new ProviderUnavailableError('/widget/buy/rate: answer does not match the request');
  }
  return {
    fiatAmount: rate.fiat_amount,
    cryptoAmount: rate.amount,
    processingFee: fee,
    networkFee: '0',
    paymentMethod: request.paymentMethod,
    providerQuoteId: rate.buy_token,
  };
}

export function toWidgetParams(request: CreateProviderOrderRequest, credentials: { widgetId: string; secret: string }): WidgetParams {
  if (request.ip === undefined) {
    throw new ProviderRejectedError('rejected', "Mercuryo signs its widget URL with the customer's IP address: send `ip` with the order");
  }
  const paymentMethod = toMercuryoPaymentMethod(request.paymentMethod);
  if (paymentMethod === undefined) {
    throw new ProviderRejectedError('payment_method', `Mercuryo does not offer ${request.paymentMethod}`);
  }
  return {
    widgetId: credentials.widgetId,
    secret: credentials.secret,
    address: request.walletAddress,
    ip: request.ip,
    merchantTransactionId: request.orderId,
    currency: request.crypto.ticker,
    network: mercuryoNetwork(request.crypto.network),
    fiatCurrency: request.fiat.ticker,
    fiatAmount: request.fiatAmount,
    paymentMethod,
    returnUrl: customerUrl(request.extras, 'return_url'),
  };
}

function mercuryoNetwork(network: string): string {
  const mercuryo = toMercuryoNetwork(network);
  if (mercuryo === undefined) throw new ProviderRejectedError('currency', `Mercuryo does not sell on ${network}`);
  return mercuryo;
}

/** One operation of `GET /sdk-partner/transactions` with the type it is keyed by (buy, withdraw, ...). */
export type TypedOperation = MercuryoOperation & { type: string };

/** Every operation of the answer's items, each with its type, in the answer's order. */
export function operationsOf(items: MercuryoTransactions['data']): TypedOperation[] {
  return items.flatMap((item) => Object.entries(item).map(([type, operation]) => ({ ...operation, type })));
}

/**
 * The broker status of one purchase from all its linked operations: the payment leg decides until
 * a withdraw leg exists, then the withdraw leg does (a paid card purchase is `processing` until the
 * crypto is sent). A payment leg cancelled after it was paid (a withdraw leg exists) means the money
 * went back to the customer: `refunded`. A leg in a status Mercuryo does not document says nothing;
 * when no leg says anything the lookup fails (logged, polled again) rather than guess a status.
 */
export function fromTransactions(orderId: string, response: MercuryoTransactions, ids: MercuryoCurrencyIds): ProviderOrderSnapshot {
  // The lookup asks for this order's operations; any other order's are not about it.
  const operations = operationsOf(response.data).filter((operation) => operation.merchant_transaction_id === orderId);
  return fromPurchase(operations, ids) ?? { orderId, providerStatus: MERCURYO_WIDGET_NOT_OPENED, status: 'created' };
}

/**
 * One purchase in the broker's terms from its linked operations, as the status lookup reads them
 * (fromTransactions) and as the transaction list does (listing.ts): undefined when none of them is a
 * payment or withdraw leg. The order is the one the operations name (empty when they name none: a
 * purchase not made through the broker's widget URL); UnknownProviderStatusError when no leg is in a
 * documented status.
 */
export function fromPurchase(operations: readonly TypedOperation[], ids: MercuryoCurrencyIds): ProviderOrderSnapshot | undefined {
  const payment = operations.find((o) => legOf(o.type) === 'payment');
  const withdraw = operations.find((o) => o.type === 'withdraw');
  if (!payment && !withdraw) return undefined;
  const common = {
    orderId: (withdraw ?? payment)!.merchant_transaction_id ?? '',
    providerOrderId: payment?.transaction_id ?? withdraw?.transaction_id,
    cryptoAmount: withdraw?.amount ?? payment?.amount,
    transactionHash: withdraw?.hash ?? undefined,
    reported: reportedTerms(ids, {
      address: withdraw?.address,
      currency: withdraw?.currency ?? payment?.currency,
      fiatCurrency: payment?.fiat_currency,
      fiatAmount: payment?.fiat_amount,
    }),
    // The purchase began with its payment leg; a withdraw leg is made later still.
    ...operationCreatedAt(payment ?? withdraw!),
  };
  if (withdraw && payment?.status === 'cancelled') {
    return { ...common, providerStatus: `${payment.type}:cancelled`, status: 'refunded' };
  }
  const legs = [withdraw, payment].filter((leg) => leg !== undefined);
  for (const leg of legs) {
    const mapped = lookupMercuryoStatus(leg.type, leg.status);
    if (mapped) return { ...common, providerStatus: `${leg.type}:${leg.status}`, ...mapped };
  }
  throw new UnknownProviderStatusError('Mercuryo', legs.map((leg) => `${leg.type}:${leg.status}`).join(', '));
}

/** Callbacks name every payment leg `buy`; the lookup's names tell them apart by payment method. */
const POLLING_TYPE_BY_PAYMENT_METHOD: Readonly<Record<string, string>> = { card: 'buy', mobile_pay: 'mobile_pay', invoice: 'buy_acquirer' };

/**
 * One callback reports one operation; its snapshot says what that operation's status means
 * (UnknownProviderStatusError for a type or status Mercuryo does not document).
 */
export function fromCallback(data: MercuryoCallbackData, ids: MercuryoCurrencyIds): ProviderOrderSnapshot {
  const type = data.type === 'buy' ? (POLLING_TYPE_BY_PAYMENT_METHOD[data.payment_method ?? 'card'] ?? 'buy') : data.type;
  const mapped = mapMercuryoStatus(type, data.status);
  return {
    orderId: data.merchant_transaction_id ?? '',
    providerStatus: `${type}:${data.status}`,
    ...mapped,
    cryptoAmount: data.amount ?? undefined,
    transactionHash: type === 'withdraw' ? (data.tx?.id ?? undefined) : undefined,
    reported: reportedTerms(ids, {
      address: data.tx?.address,
      currency: data.currency,
      fiatCurrency: data.fiat_currency,
      fiatAmount: data.fiat_amount,
    }),
    // Unix seconds: the callback is read without its whitespace, which leaves `created_at` unreadable.
    ...createdAtSeconds(data.created_at_ts),
  };
}

/**
 * When Mercuryo made an operation: `created_at_ts` (Unix seconds) where the message has it, else
 * `created_at`, a time without a zone read as UTC, as Mercuryo's examples pair it with the same
 * Unix time. Were it a European clock instead, the time would read later than it is, which never
 * refuses a genuine report.
 */
function operationCreatedAt(operation: { created_at?: string | null; created_at_ts?: number | null }): CreatedAt {
  const seconds = createdAtSeconds(operation.created_at_ts);
  return seconds.providerOrderCreatedAt === undefined ? createdAtText(operation.created_at, 'utc') : seconds;
}
