/**
 * What a provider's catalogue allows for a request: pure rules shared by the catalogue endpoints
 * and the offers fan-out. Reason codes are the offers' `include_errors` codes.
 */
import type { FiatCurrency } from '../domain/currency';
import { amountLimits, compareDecimals, decimal, type Decimal } from '../domain/money';
import { methodWorksIn } from '../domain/payment-methods';
import type { CataloguePaymentMethod, ProviderCatalogue } from '../providers/types';

/** Why the catalogue rules a provider out: the offers show it as that provider's `include_errors` entry. */
export interface Ineligible {
  code: 'country' | 'state' | 'currency' | 'payment_method' | 'limits';
  message: string;
  min_amount?: string;
  max_amount?: string;
}

/** Whether the catalogue (a buy or a sell one: both list countries alike) serves the country and state. */
export function servesRegion(
  catalogue: Pick<ProviderCatalogue, 'countries'>,
  country: string,
  state?: string,
): (Ineligible & { code: 'country' | 'state' }) | undefined {
  const entry = catalogue.countries.find((c) => c.code === country);
  if (!entry) return { code: 'country', message: `does not serve ${country}` };
  if (entry.states && (state === undefined || !entry.states.includes(state))) {
    return { code: 'state', message: state === undefined ? `serves only some states of ${country}` : `does not serve ${country}-${state}` };
  }
  return undefined;
}

/** Where a catalogue question is asked: a country and maybe one of its states, or anywhere. */
export interface Place {
  country?: string;
  state?: string;
}

/** A country or state where the provider does not sell this crypto currency although it serves it. */
export function sellsCryptoIn(catalogue: ProviderCatalogue, crypto: number, country: string, state?: string): Ineligible | undefined {
  const excluded = catalogue.cryptoNotSoldIn?.[crypto];
  if (!excluded) return undefined;
  if (excluded.countries.includes(country)) return { code: 'country', message: `does not sell this crypto currency in ${country}` };
  if (state !== undefined && excluded.states?.[country]?.includes(state)) {
    return { code: 'state', message: `does not sell this crypto currency in ${country}-${state}` };
  }
  return undefined;
}

/**
 * Both currencies are sold and, where a place is given, the crypto currency is sold there. Without a
 * state, a crypto currency refused only in some states of the country still counts as sold in it.
 */
export function supportsPair(catalogue: ProviderCatalogue, fiat: number, crypto: number, where?: Place): boolean {
  if (!catalogue.fiat.includes(fiat) || !catalogue.crypto.includes(crypto)) return false;
  return where?.country === undefined || sellsCryptoIn(catalogue, crypto, where.country, where.state) === undefined;
}

/** The crypto currencies sold in the place (all of them without a country), in catalogue order. */
export function cryptoSoldIn(catalogue: ProviderCatalogue, where: Place): number[] {
  const country = where.country;
  if (country === undefined || !catalogue.cryptoNotSoldIn) return catalogue.crypto;
  return catalogue.crypto.filter((crypto) => sellsCryptoIn(catalogue, crypto, country, where.state) === undefined);
}

/** Payment methods that take this fiat currency (from a customer in this country, when given). */
export function methodsFor(catalogue: ProviderCatalogue, fiat: number, country?: string): CataloguePaymentMethod[] {
  return catalogue.paymentMethods.filter((m) => m.limits[fiat] !== undefined && (country === undefined || methodWorksIn(m.code, country)));
}

type Limit = CataloguePaymentMethod['limits'][number];

/** Limits parsed once per catalogue (a refreshed catalogue brings new objects, and the old ones go). */
const parsedLimits = new WeakMap<Limit, { min: Decimal; max: Decimal }>();

function parsedLimit(limit: Limit): { min: Decimal; max: Decimal } {
  let parsed = parsedLimits.get(limit);
  if (!parsed) {
    parsed = { min: decimal(limit.min), max: decimal(limit.max) };
    parsedLimits.set(limit, parsed);
  }
  return parsed;
}

/** Both limits at once: the higher minimum and the lower maximum. */
function narrowed(a: { min: Decimal; max: Decimal }, b: { min: Decimal; max: Decimal }): { min: Decimal; max: Decimal } {
  return { min: compareDecimals(a.min, b.min) > 0 ? a.min : b.min, max: compareDecimals(a.max, b.max) < 0 ? a.max : b.max };
}

/**
 * What the method takes in this fiat currency for this crypto currency: its limits, narrowed by the
 * crypto currency's own where the provider sets them (min above max when they leave no room);
 * undefined when the method does not take the fiat currency.
 */
export function purchaseRange(
  catalogue: ProviderCatalogue,
  method: CataloguePaymentMethod,
  fiat: number,
  crypto: number,
): { min: Decimal; max: Decimal } | undefined {
  const limit = method.limits[fiat];
  if (!limit) return undefined;
  const own = catalogue.cryptoLimits?.[crypto]?.[fiat];
  return own ? narrowed(parsedLimit(limit), parsedLimit(own)) : parsedLimit(limit);
}

export interface OfferRequestTerms {
  fiat: FiatCurrency;
  crypto: number;
  amount: Decimal;
  country: string;
  state?: string;
  paymentMethod?: string;
}

/** The payment methods a provider can quote for this request, or why it cannot. */
export function eligibleMethods(catalogue: ProviderCatalogue, terms: OfferRequestTerms): CataloguePaymentMethod[] | Ineligible {
  const region = servesRegion(catalogue, terms.country, terms.state);
  if (region) return region;
  if (!supportsPair(catalogue, terms.fiat.id, terms.crypto)) return { code: 'currency', message: 'does not sell this currency pair' };
  const sold = sellsCryptoIn(catalogue, terms.crypto, terms.country, terms.state);
  if (sold) return sold;
  // The common answer in one pass, without the intermediate arrays and decimal copies below: the
  // methods (methodsFor, then the one asked for) whose range holds the amount, in catalogue order.
  const fiat = terms.fiat.id;
  let inRange: CataloguePaymentMethod[] | undefined;
  for (const m of catalogue.paymentMethods) {
    if (m.limits[fiat] === undefined || !methodWorksIn(m.code, terms.country)) continue;
    if (terms.paymentMethod !== undefined && m.code !== terms.paymentMethod) continue;
    const range = purchaseRange(catalogue, m, fiat, terms.crypto)!;
    if (compareDecimals(terms.amount, range.min) >= 0 && compareDecimals(terms.amount, range.max) <= 0) (inRange ??= []).push(m);
  }
  if (inRange) return inRange;
  // None: the same rules again, to say why.
  const methods = methodsFor(catalogue, terms.fiat.id, terms.country).filter(
    (m) => terms.paymentMethod === undefined || m.code === terms.paymentMethod,
  );
  if (methods.length === 0) {
    if (terms.paymentMethod !== undefined && !methodWorksIn(terms.paymentMethod, terms.country)) {
      return { code: 'payment_method', message: `${terms.paymentMethod} is not available in ${terms.country}` };
    }
    return { code: 'payment_method', message: `does not offer ${terms.paymentMethod ?? 'any payment method'} for this currency` };
  }
  const amount = terms.amount;
  // methodsFor kept only methods that take the fiat currency, so each has a range.
  const limits = methods.map((m) => purchaseRange(catalogue, m, terms.fiat.id, terms.crypto)!);
  const within = methods.filter((_, i) => amount.gte(limits[i]!.min) && amount.lte(limits[i]!.max));
  if (within.length > 0) return within;
  const open = limits.filter((l) => l.min.lte(l.max));
  if (open.length === 0) return { code: 'payment_method', message: "no payment method reaches this crypto currency's limits" };
  const mins = open.map((l) => l.min);
  const maxes = open.map((l) => l.max);
  const min = mins.reduce((a, b) => (b.lt(a) ? b : a));
  const max = maxes.reduce((a, b) => (b.gt(a) ? b : a));
  const range = amountLimits(min, max, terms.fiat);
  return { code: 'limits', message: range.message, min_amount: range.min, max_amount: range.max };
}
