/**
 * A fee for each payment method whose provider publishes none per method (Banxa, Transak and
 * Mercuryo price each quote): the processing fee's share of the amount paid in one reference quote,
 * asked through the adapter's own `getQuote` when the catalogue is fetched.
 */
import { country as countryOf } from '../domain/countries';
import type { CurrencyDictionary, CryptoCurrency, FiatCurrency } from '../domain/currency';
import { percentText } from '../domain/money';
import { methodWorksIn } from '../domain/payment-methods';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type CataloguePaymentMethod,
  type ProviderCatalogue,
  type ProviderQuote,
  type QuoteRequest,
} from '../providers/types';
import { cryptoSoldIn, purchaseRange } from './eligibility';

/**
 * The reference amount is ten times the method's minimum (a minimum fee would dominate smaller ones),
 * capped at its maximum; the crypto currency's own limits, where the provider sets them, narrow both.
 */
export const REFERENCE_AMOUNT_FACTOR = 10;
/** Fiat currencies tried, in ID order, before a method is left without a fee. */
export const REFERENCE_QUOTE_TRIES = 4;
/** The `external_user_id` of reference quotes: no customer asked for them. */
export const REFERENCE_USER = 'onramp-broker-catalogue';

/** The first served country the method works in, with its first served state where the country has states. */
function referencePlace(catalogue: ProviderCatalogue, method: string): { country: string; state?: string } | undefined {
  for (const entry of catalogue.countries) {
    if (!methodWorksIn(method, entry.code)) continue;
    const states = entry.states ?? countryOf(entry.code)?.states.map((s) => s.code) ?? [];
    if (states.length > 0) return { country: entry.code, state: states[0] };
    if (entry.states === undefined) return { country: entry.code };
  }
  return undefined;
}

/**
 * The quotes to ask, in order, for a reference fee of the method: one per fiat currency it takes
 * (at most REFERENCE_QUOTE_TRIES), each for the first crypto currency sold in the reference place.
 */
export function referenceQuotes(
  catalogue: ProviderCatalogue,
  method: CataloguePaymentMethod,
  currencies: CurrencyDictionary,
): QuoteRequest[] {
  const place = referencePlace(catalogue, method.code);
  if (!place) return [];
  const crypto = cryptoSoldIn(catalogue, place)
    .map((id) => currencies.crypto(id))
    .find((c): c is CryptoCurrency => c !== undefined);
  if (!crypto) return [];
  const requests: QuoteRequest[] = [];
  for (const id of Object.keys(method.limits)) {
    if (requests.length === REFERENCE_QUOTE_TRIES) break;
    const fiat: FiatCurrency | undefined = currencies.fiat(Number(id));
    if (!fiat) continue;
    const range = purchaseRange(catalogue, method, fiat.id, crypto.id);
    if (!range || range.min.gt(range.max)) continue;
    const amount = range.min.times(REFERENCE_AMOUNT_FACTOR);
    const capped = amount.gt(range.max) ? range.max : amount;
    requests.push({
      fiat,
      crypto,
      fiatAmount: capped.decimalPlaces(fiat.precision).toFixed(),
      paymentMethod: method.code,
      ...place,
      externalUserId: REFERENCE_USER,
    });
  }
  return requests;
}

/** The method's fee as the spec writes it: the processing fee as a percentage of the amount paid. */
export function referenceFee(quote: ProviderQuote): string {
  return percentText(quote.processingFee, quote.fiatAmount);
}

export type QuoteFn = (request: QuoteRequest) => Promise<ProviderQuote>;

export interface ReferenceFeeOptions {
  currencies: CurrencyDictionary;
  /** The catalogue this one replaces: a method whose reference quote fails keeps the fee it had. */
  previous?: ProviderCatalogue;
  /**
   * Take each method's fee from `previous` where it has one, without asking again: an early retry
   * of a catalogue that missed a fee asks only for the fees still missing.
   */
  keepPrevious?: boolean;
  /**
   * Told of each method left without a fee, with the last error; `transient` when it may load on a
   * retry (the quote timed out, was aborted or the provider was unavailable), false when no quote
   * could be asked or the provider refused every one.
   */
  onMissing?: (method: string, err: unknown, transient: boolean) => void;
}

/** Whether a retry may get past the failure: a timeout, an abort, an outage or a network failure (not a refusal). */
export function isTransientMiss(err: unknown): boolean {
  // By name: a DOMException (a signal's reason) need not be an instance of this realm's Error.
  const name = typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
  return err instanceof ProviderUnavailableError || name === 'AbortError' || name === 'TimeoutError';
}

async function methodFee(
  catalogue: ProviderCatalogue,
  method: CataloguePaymentMethod,
  quote: QuoteFn,
  options: ReferenceFeeOptions,
): Promise<string | undefined> {
  const kept = options.previous?.paymentMethods.find((m) => m.code === method.code)?.fee;
  if (options.keepPrevious && kept !== undefined) return kept;
  let last: unknown = new Error('no reference quote can be asked: no fiat, crypto currency or country fits');
  for (const request of referenceQuotes(catalogue, method, options.currencies)) {
    try {
      return referenceFee(await quote(request));
    } catch (err) {
      last = err;
      // A refusal may be this currency's alone; anything else (timeout, outage) would fail again.
      if (!(err instanceof ProviderRejectedError)) break;
    }
  }
  if (kept === undefined) options.onMissing?.(method.code, last, isTransientMiss(last));
  return kept;
}

/** The catalogue with a fee on every method it can read one for; methods that publish one are left as they are. */
export async function withReferenceFees(
  catalogue: ProviderCatalogue,
  quote: QuoteFn,
  options: ReferenceFeeOptions,
): Promise<ProviderCatalogue> {
  if (catalogue.paymentMethods.every((m) => m.fee !== undefined)) return catalogue;
  const paymentMethods = await Promise.all(
    catalogue.paymentMethods.map(async (method) => {
      if (method.fee !== undefined) return method;
      const fee = await methodFee(catalogue, method, quote, options);
      return fee === undefined ? method : { ...method, fee };
    }),
  );
  return { ...catalogue, paymentMethods };
}
