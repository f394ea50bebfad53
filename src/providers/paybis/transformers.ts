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
  type ReportedTerms,
} from '../types';
import { assetOfCode, codeOfAsset, methodCodeOf, methodIdOf, PAYBIS_COUNTRIES } from './mappings';
import type {
  PaybisPairs,
  PaybisPaymentMethods,
  PaybisQuote,
  PaybisQuoteRequest,
  PaybisRequestBody,
  PaybisTransaction,
  PaybisWebhook,
} from './schemas';
import { mapPaybisListedStatus, mapPaybisStatus } from './status-map';
import type { StatusMapping } from '../kit/status-map';
import { createdAtText } from '../kit/created-at';

/** What the adapter reports for a request no transaction has been started for yet (Paybis's own first status). */
export const PAYBIS_REQUEST_ONLY = 'created';

export function paybisCurrencyCode(crypto: { ticker: string; network: string }): string {
  const code = codeOfAsset(crypto.ticker, crypto.network);
  if (code === undefined) throw new ProviderRejectedError('currency', `Paybis does not sell ${crypto.ticker} on ${crypto.network}`);
  return code;
}

export function paybisMethodId(code: string): string {
  const id = methodIdOf(code);
  if (id === undefined) throw new ProviderRejectedError('payment_method', `Paybis does not offer payment method ${code}`);
  return id;
}

export function toQuoteRequest(request: Pick<QuoteRequest, 'fiat' | 'crypto' | 'fiatAmount' | 'paymentMethod'>): PaybisQuoteRequest {
  return {
    currencyCodeFrom: request.fiat.ticker,
    currencyCodeTo: paybisCurrencyCode(request.crypto),
    amount: request.fiatAmount,
    directionChange: 'from',
    isReceivedAmount: false,
    paymentMethod: paybisMethodId(request.paymentMethod),
  };
}

/** The quote of the method asked for; its service and network fees are in the fiat currency and part of the amount paid. */
export function fromQuote(quote: PaybisQuote, paymentMethod: string): ProviderQuote {
  const methodId = paybisMethodId(paymentMethod);
  const entry = quote.paymentMethods.find((m) => m.id === methodId);
  if (!entry) throw new ProviderRejectedError('payment_method', `Paybis quoted no price for ${methodId}`);
  return {
    fiatAmount: decimal(entry.amountFrom.amount).toFixed(),
    cryptoAmount: decimal(entry.amountTo.amount).toFixed(),
    processingFee: decimal(entry.fees.serviceFee.amount).toFixed(),
    networkFee: decimal(entry.fees.networkFee.amount).toFixed(),
    paymentMethod,
    providerQuoteId: quote.id,
    ...(quote.expiresAt ? { expiresAt: new Date(quote.expiresAt) } : {}),
  };
}

/** A refusal explained with the method's limits for this pair, when the amount is outside them; undefined otherwise. */
export function limitsRejection(methods: PaybisPaymentMethods, request: QuoteRequest): ProviderRejectedError | undefined {
  const methodId = methodIdOf(request.paymentMethod);
  const code = codeOfAsset(request.crypto.ticker, request.crypto.network);
  const limit = methods.data
    .find((m) => m.id === methodId)
    ?.pairs.find((p) => p.from === request.fiat.ticker)
    ?.to.find((t) => t.currencyCode === code);
  if (!limit) return undefined;
  const amount = decimal(request.fiatAmount);
  if (amount.gte(limit.minAmount) && amount.lte(limit.maxAmount)) return undefined;
  return ProviderRejectedError.outsideLimits(limit.minAmount, limit.maxAmount, request.fiat);
}

/** Paybis's catalogue in the broker's terms: a method's limits per fiat are the widest over the cryptos it sells for that fiat. */
export function fromCatalogue(dictionary: CurrencyDictionary, pairs: PaybisPairs, methods: PaybisPaymentMethods): ProviderCatalogue {
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const cryptoByKey = new Map(
    dictionary.currencies.filter((c) => c.currency_type === 'crypto').map((c) => [`${c.ticker}/${c.network}`, c.id]),
  );
  const cryptoIdOf = (code: string) => {
    const asset = assetOfCode(code);
    return asset ? cryptoByKey.get(`${asset.ticker}/${asset.network}`) : undefined;
  };
  const cryptoCodes = new Set(pairs.meta.currencies.filter((c) => c.blockchainName).map((c) => c.code));
  const fiat = new Set<number>();
  const crypto = new Set<number>();
  for (const pair of pairs.data) {
    const fiatId = fiatIds.get(pair.from);
    if (fiatId === undefined) continue;
    fiat.add(fiatId);
    for (const to of pair.to) {
      const id = cryptoCodes.has(to.currencyCode) ? cryptoIdOf(to.currencyCode) : undefined;
      if (id !== undefined) crypto.add(id);
    }
  }
  const paymentMethods: CataloguePaymentMethod[] = [];
  for (const method of methods.data) {
    const code = methodCodeOf(method.id);
    if (code === undefined) continue;
    const limits: CataloguePaymentMethod['limits'] = {};
    for (const pair of method.pairs) {
      const fiatId = fiatIds.get(pair.from);
      if (fiatId === undefined || !fiat.has(fiatId) || pair.to.length === 0) continue;
      const min = pair.to.map((t) => decimal(t.minAmount)).reduce((a, b) => (a.lt(b) ? a : b));
      const max = pair.to.map((t) => decimal(t.maxAmount)).reduce((a, b) => (a.gt(b) ? a : b));
      limits[fiatId] = { min: min.toFixed(), max: max.toFixed() };
    }
    // Paybis states no fee per method (each quote has its own): the catalogue service reads one from a reference quote.
    if (Object.keys(limits).length > 0) paymentMethods.push({ code, name: method.name, icon_url: null, limits });
  }
  return {
    fiat: [...fiat],
    crypto: [...crypto],
    countries: PAYBIS_COUNTRIES.map((code) => ({ code })),
    paymentMethods,
  };
}

export function toRequestBody(request: CreateProviderOrderRequest, quoteId: string): PaybisRequestBody {
  return {
    partnerUserId: request.externalUserId,
    partnerTransactionId: request.orderId,
    quoteId,
    cryptoWalletAddress: { address: request.walletAddress, currencyCode: paybisCurrencyCode(request.crypto) },
    flow: 'buyCrypto',
    paymentMethod: paybisMethodId(request.paymentMethod),
    locale: 'en',
    ...(request.ip ? { userIp: request.ip } : {}),
  };
}

export function widgetUrl(base: string, requestId: string): string {
  return `${base}/?requestId=${encodeURIComponent(requestId)}`;
}

/** The terms one Paybis message states, in Paybis's names. */
interface TermFields {
  wallet?: string | null;
  cryptoCode?: string | null;
  fiat?: string | null;
  fiatAmount?: string | null;
}

function reportedTerms(dictionary: CurrencyDictionary, fields: TermFields): ReportedTerms | undefined {
  const asset = fields.cryptoCode ? assetOfCode(fields.cryptoCode) : undefined;
  const cryptoId = (ticker: string, network: string) =>
    dictionary.currencies.find((c) => c.currency_type === 'crypto' && c.ticker === ticker && c.network === network)?.id ?? null;
  const fiatId = (code: string) =>
    dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === code.toUpperCase())?.id ?? null;
  const terms: ReportedTerms = {
    ...(fields.wallet ? { walletAddress: fields.wallet } : {}),
    ...(fields.cryptoCode ? { cryptoCurrency: asset ? cryptoId(asset.ticker, asset.network) : null } : {}),
    ...(fields.fiat ? { fiatCurrency: fiatId(fields.fiat) } : {}),
    ...(fields.fiatAmount ? { fiatAmount: fields.fiatAmount } : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}

function snapshot(
  orderId: string,
  requestId: string,
  providerStatus: string,
  rest: {
    cryptoAmount?: string | null;
    hash?: string | null;
    reported?: ReportedTerms;
    createdAt?: string | null;
    mapping?: StatusMapping;
  },
): ProviderOrderSnapshot {
  const { status, failureReason } = rest.mapping ?? mapPaybisStatus(providerStatus);
  return {
    orderId,
    providerOrderId: requestId,
    providerStatus,
    status,
    ...(failureReason ? { failureReason } : {}),
    ...(rest.cryptoAmount ? { cryptoAmount: decimal(rest.cryptoAmount).toFixed() } : {}),
    ...(rest.hash ? { transactionHash: rest.hash } : {}),
    ...(rest.reported ? { reported: rest.reported } : {}),
    ...createdAtText(rest.createdAt),
  };
}

/** The request this order created, before the customer has started a transaction in the widget. */
export function requestOnly(orderId: string, requestId: string): ProviderOrderSnapshot {
  return snapshot(orderId, requestId, PAYBIS_REQUEST_ONLY, {});
}

/**
 * Whether the list may show the transaction paid: a payment time, the crypto sent (its hash), or no
 * word on it. Only a list that says `paidAt: null` and no hash shows it unpaid; a list without the
 * field (it is unconfirmed in Paybis's documentation, docs/providers/paybis.md) leaves a rejection
 * read as after the payment, `failed`: an order must not be reported `expired` while its customer
 * was charged.
 */
const listedPaid = (tx: PaybisTransaction): boolean => Boolean(tx.hash) || tx.paidAt !== null;

/** A listed transaction's broker status: a `rejected` one counts as failed only when the list shows it paid. */
export const listedStatus = (tx: PaybisTransaction): StatusMapping => mapPaybisListedStatus(tx.status, listedPaid(tx));

/**
 * A listed transaction of the request `requestId` that this order created: the order it names, or
 * this order where the list names none (the request id, pinned at creation, is the order's).
 */
export function fromTransaction(
  orderId: string,
  requestId: string,
  tx: PaybisTransaction,
  dictionary: CurrencyDictionary,
): ProviderOrderSnapshot {
  const { spentOriginal, receivedOriginal } = tx.amounts ?? {};
  return snapshot(tx.partnerTransactionId ?? orderId, requestId, tx.status, {
    cryptoAmount: receivedOriginal?.amount,
    hash: tx.hash,
    reported: reportedTerms(dictionary, {
      wallet: tx.to?.address,
      cryptoCode: receivedOriginal?.currency,
      fiat: spentOriginal?.currency,
      fiatAmount: spentOriginal?.amount,
    }),
    // When the customer started it. Paybis's webhook carries no such time (docs/providers/paybis.md).
    createdAt: tx.createdAt,
    mapping: listedStatus(tx),
  });
}

/** A transaction status webhook's event; undefined when it names no partner transaction id (not one of the broker's). */
export function fromWebhook(webhook: PaybisWebhook, dictionary: CurrencyDictionary): ProviderOrderSnapshot | undefined {
  const { data } = webhook;
  if (!data.partnerTransactionId) return undefined;
  return snapshot(data.partnerTransactionId, data.requestId, data.transaction.status, {
    cryptoAmount: data.amountTo?.amount,
    hash: data.payout?.transactionHash ?? data.payout?.transaction_hash,
    reported: reportedTerms(dictionary, {
      wallet: data.payout?.destinationWalletAddress,
      cryptoCode: data.amountTo?.currency,
      fiat: data.amountFrom?.currency,
      fiatAmount: data.amountFrom?.amount,
    }),
  });
}
