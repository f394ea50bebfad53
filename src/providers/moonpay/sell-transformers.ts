/**
 * MoonPay's sell (off-ramp) flow to the broker's model and back (docs/providers/moonpay.md, "Sell
 * (off-ramp)"). No snapshot ever carries a deposit: MoonPay documents the deposit address only
 * through the customer's browser (the widget, its SDK event, the `redirectURL` query), none of which
 * is an authenticated channel, and its documented sell transaction names no address.
 */
import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { createdAtText } from '../kit/created-at';
import type {
  CataloguePayoutMethod,
  CreateSellOrderRequest,
  ReportedSellTerms,
  SellCatalogue,
  SellOrderSnapshot,
  SellQuote,
  SellQuoteRequest,
} from '../sell-types';
import { ProviderRejectedError } from '../types';
import { brokerCrypto, brokerFiat, type MoonpayAssetIndex } from './assets';
import type { MoonpayCountry, MoonpayCurrency } from './schemas';
import type { MoonpaySellQuote, MoonpaySellTransaction } from './sell-schemas';
import { MOONPAY_NO_SELL_TRANSACTION, mapMoonpaySellStatus } from './sell-status-map';

/** A payout method MoonPay documents for sells (`payoutMethod`), its broker code and the fiat it pays (all when absent). */
export interface MoonpayPayoutMethod {
  id: string;
  code: string;
  name: string;
  fiat?: readonly string[];
}

/**
 * `payoutMethod` values of MoonPay's sell transactions (documented examples show credit_debit_card
 * and ach_bank_transfer; the enum's other members are quoted by a third party). PayPal is left out:
 * only a third party names it.
 */
export const MOONPAY_PAYOUT_METHODS: readonly MoonpayPayoutMethod[] = [
  { id: 'credit_debit_card', code: 'card', name: 'Card payout (Visa Direct, Mastercard Send)' },
  { id: 'sepa_bank_transfer', code: 'sepa', name: 'SEPA bank transfer', fiat: ['EUR'] },
  { id: 'gbp_bank_transfer', code: 'bank_transfer', name: 'UK bank transfer (Faster Payments)', fiat: ['GBP'] },
  { id: 'ach_bank_transfer', code: 'ach', name: 'ACH bank transfer', fiat: ['USD'] },
];

const payoutByCode = (code: string) => MOONPAY_PAYOUT_METHODS.find((m) => m.code === code);
const payoutById = (id: string) => MOONPAY_PAYOUT_METHODS.find((m) => m.id === id);
const pays = (method: MoonpayPayoutMethod, fiat: string) => method.fiat === undefined || method.fiat.includes(fiat.toUpperCase());

/** The broker code of a MoonPay payout method id; undefined for one the broker does not offer. */
export function brokerPayoutMethod(id: string): string | undefined {
  return payoutById(id)?.code;
}

const sellable = (crypto: MoonpayCurrency) => crypto.isSellSupported === true;

/** The fiat's payout limits: its sell limits where MoonPay gives them, else (unconfirmed for sells) its buy limits. */
function fiatLimits(fiat: MoonpayCurrency): { min: string; max: string } | undefined {
  const min = fiat.minSellAmount ?? fiat.minBuyAmount;
  const max = fiat.maxSellAmount ?? fiat.maxBuyAmount;
  return min && max ? { min, max } : undefined;
}

export function fromSellCatalogue(index: MoonpayAssetIndex, countries: readonly MoonpayCountry[]): SellCatalogue {
  const crypto: number[] = [];
  const cryptoLimits: NonNullable<SellCatalogue['cryptoLimits']> = {};
  for (const [id, currency] of index.crypto) {
    if (!sellable(currency)) continue;
    crypto.push(id);
    if (currency.minSellAmount && currency.maxSellAmount) cryptoLimits[id] = { min: currency.minSellAmount, max: currency.maxSellAmount };
  }
  const fiat = [...index.fiat].filter(([, currency]) => currency.isSellSupported !== false);
  const payoutMethods: CataloguePayoutMethod[] = [];
  for (const method of MOONPAY_PAYOUT_METHODS) {
    const limits: CataloguePayoutMethod['limits'] = {};
    for (const [id, currency] of fiat) {
      const limit = fiatLimits(currency);
      if (limit && pays(method, currency.code)) limits[id] = limit;
    }
    if (Object.keys(limits).length > 0) payoutMethods.push({ code: method.code, name: method.name, icon_url: null, limits });
  }
  return {
    crypto,
    fiat: fiat.map(([id]) => id),
    countries: countries
      .filter((c) => c.isAllowed && c.isSellAllowed !== false)
      .map((c) =>
        c.states && c.states.length > 0
          ? { code: c.alpha2, states: c.states.filter((s) => s.isAllowed).map((s) => s.code) }
          : { code: c.alpha2 },
      ),
    payoutMethods,
    cryptoLimits,
  };
}

export interface MoonpaySellTerms {
  crypto: MoonpayCurrency;
  fiat: MoonpayCurrency;
  method: MoonpayPayoutMethod;
}

type Terms = Pick<SellQuoteRequest, 'crypto' | 'fiat' | 'cryptoAmount' | 'payoutMethod' | 'country' | 'state'>;

/** MoonPay's own rules for a sell, from its currency list: sellable crypto, its limits (crypto units), the payout method, the place. */
export function resolveSellTerms(index: MoonpayAssetIndex, request: Terms): MoonpaySellTerms {
  const crypto = index.crypto.get(request.crypto.id);
  const fiat = index.fiat.get(request.fiat.id);
  if (!crypto || !sellable(crypto)) {
    throw new ProviderRejectedError('currency', `MoonPay does not buy ${request.crypto.ticker} on ${request.crypto.network}`);
  }
  if (!fiat || fiat.isSellSupported === false)
    throw new ProviderRejectedError('currency', `MoonPay does not pay out ${request.fiat.ticker}`);
  const method = payoutByCode(request.payoutMethod);
  if (!method || !pays(method, request.fiat.ticker)) {
    throw new ProviderRejectedError('payment_method', `MoonPay does not pay ${request.fiat.ticker} by ${request.payoutMethod}`);
  }
  if (crypto.notAllowedCountries?.includes(request.country)) {
    throw new ProviderRejectedError('country', `MoonPay does not buy ${crypto.code} in ${request.country}`);
  }
  if (request.country === 'US' && request.state !== undefined && crypto.notAllowedUSStates?.includes(request.state)) {
    throw new ProviderRejectedError('state', `MoonPay does not buy ${crypto.code} in US-${request.state}`);
  }
  const amount = decimal(request.cryptoAmount);
  const min = crypto.minSellAmount ?? undefined;
  const max = crypto.maxSellAmount ?? undefined;
  if ((min !== undefined && amount.lt(min)) || (max !== undefined && amount.gt(max))) {
    throw new ProviderRejectedError('limits', `MoonPay buys ${min ?? '0'}${max === undefined ? ' or more' : ` to ${max}`} ${crypto.code}`, {
      minAmount: min,
      maxAmount: max,
    });
  }
  return { crypto, fiat, method };
}

export function toSellQuoteParams(terms: MoonpaySellTerms, cryptoAmount: string): Record<string, string> {
  return { baseCurrencyAmount: cryptoAmount, quoteCurrencyCode: terms.fiat.code, payoutMethod: terms.method.id };
}

/** The payout is `quoteCurrencyAmount`; MoonPay's fee and the partner's extra fee are the processing fee; no network fee is quoted. */
export function fromSellQuote(quote: MoonpaySellQuote, payoutMethod: string, now = Date.now()): SellQuote {
  const expiresAt = quote.expiresAt ? new Date(quote.expiresAt) : quote.expiresIn ? new Date(now + quote.expiresIn * 1000) : undefined;
  return {
    cryptoAmount: quote.baseCurrencyAmount,
    fiatAmount: quote.quoteCurrencyAmount,
    processingFee: decimal(quote.feeAmount).plus(quote.extraFeeAmount).toFixed(),
    networkFee: '0',
    payoutMethod,
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/**
 * The sell widget's parameters: the crypto locked by `baseCurrencyCode`, our order id as
 * `externalTransactionId`, the refund address (which MoonPay requires the URL to be signed for).
 * The integrator's extras add nothing: no parameter of theirs reaches the URL.
 */
export function toSellWidgetParams(
  publishableKey: string,
  terms: MoonpaySellTerms,
  request: CreateSellOrderRequest,
): Record<string, string> {
  return {
    apiKey: publishableKey,
    baseCurrencyCode: terms.crypto.code,
    baseCurrencyAmount: request.cryptoAmount,
    quoteCurrencyCode: terms.fiat.code,
    paymentMethod: terms.method.id,
    refundWalletAddress: request.refundWalletAddress,
    externalTransactionId: request.orderId,
    externalCustomerId: request.externalUserId,
    ...(request.returnUrl === undefined ? {} : { redirectURL: request.returnUrl }),
  };
}

function reportedSellTerms(dictionary: CurrencyDictionary, tx: MoonpaySellTransaction): ReportedSellTerms | undefined {
  const terms: ReportedSellTerms = {
    ...(tx.baseCurrency ? { cryptoCurrency: brokerCrypto(dictionary, tx.baseCurrency)?.id ?? null } : {}),
    ...(tx.baseCurrencyAmount != null ? { cryptoAmount: tx.baseCurrencyAmount } : {}),
    ...(tx.quoteCurrency ? { fiatCurrency: brokerFiat(dictionary, tx.quoteCurrency.code)?.id ?? null } : {}),
    ...(tx.quoteCurrencyAmount != null ? { fiatAmount: tx.quoteCurrencyAmount } : {}),
    ...(tx.refundWalletAddress ? { refundWalletAddress: tx.refundWalletAddress } : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}

/** A sell transaction as a snapshot: never a deposit (see the file's head); the deposit hash as the transaction hash. */
export function fromSellTransaction(tx: MoonpaySellTransaction, dictionary: CurrencyDictionary): SellOrderSnapshot {
  const mapped = mapMoonpaySellStatus(tx.status, tx);
  const reported = reportedSellTerms(dictionary, tx);
  return {
    orderId: tx.externalTransactionId ?? '',
    providerOrderId: tx.id,
    providerStatus: tx.status,
    ...mapped,
    ...(tx.depositHash ? { transactionHash: tx.depositHash } : {}),
    ...(reported ? { reported } : {}),
    ...createdAtText(tx.createdAt),
  };
}

/** The transaction the order holds (`pinned`), else the latest updated for our id, else `created` (none yet). */
export function fromSellTransactions(
  orderId: string,
  transactions: readonly MoonpaySellTransaction[],
  dictionary: CurrencyDictionary,
  pinned?: string,
): SellOrderSnapshot {
  const held = pinned === undefined ? undefined : transactions.find((t) => t.id === pinned);
  const latest = held ?? [...transactions].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0];
  if (!latest) return { orderId, providerStatus: MOONPAY_NO_SELL_TRANSACTION, status: 'created' };
  return fromSellTransaction(latest, dictionary);
}
