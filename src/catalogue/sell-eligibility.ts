/**
 * What a provider's sell catalogue allows for an off-ramp request: pure rules shared by the off-ramp
 * catalogue endpoints and the sell offers fan-out. The region rule is the buy side's (servesRegion);
 * a payout rail that works only in its own region (ACH, SEPA) is judged as a payment rail is
 * (methodWorksIn). Reason codes are the sell offers' `include_errors` codes.
 */
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import { amountLimits, compareDecimals, decimal, type Decimal } from '../domain/money';
import { methodWorksIn } from '../domain/payment-methods';
import type { CataloguePayoutMethod, SellCatalogue } from '../providers/sell-types';
import { servesRegion, type Place } from './eligibility';

/** Why a sell catalogue rules a provider out. */
export interface SellIneligible {
  code: 'country' | 'state' | 'currency' | 'payout_method' | 'limits';
  message: string;
  /** With `limits`: the crypto amounts the provider buys, in the crypto currency. */
  min_amount?: string;
  max_amount?: string;
}

/** Whether the provider serves the place; without a state, a provider serving some of the country's states counts. */
export function sellServesPlace(catalogue: SellCatalogue, where: Place): boolean {
  if (where.country === undefined) return true;
  const problem = servesRegion(catalogue, where.country, where.state);
  return problem === undefined || (problem.code === 'state' && where.state === undefined);
}

/** The provider buys the crypto currency and pays out the fiat currency. */
export function sellsPair(catalogue: SellCatalogue, crypto: number, fiat: number): boolean {
  return catalogue.crypto.includes(crypto) && catalogue.fiat.includes(fiat);
}

/** Payout methods paying this fiat currency (any, without one), to a customer in this country when given. */
export function payoutMethodsFor(catalogue: SellCatalogue, fiat?: number, country?: string): CataloguePayoutMethod[] {
  return catalogue.payoutMethods.filter(
    (m) =>
      (fiat === undefined ? Object.keys(m.limits).length > 0 : m.limits[fiat] !== undefined) &&
      (country === undefined || methodWorksIn(m.code, country)),
  );
}

export interface SellRequestTerms {
  crypto: CryptoCurrency;
  fiat: FiatCurrency;
  /** The crypto amount sold. */
  amount: Decimal;
  country: string;
  state?: string;
  payoutMethod?: string;
}

/**
 * The payout methods a provider can quote for this request, or why it cannot. The crypto amount is
 * checked against the provider's crypto limits here; the payout methods' limits are in the fiat
 * currency, so they are checked on the quote's payout (payoutOutside).
 */
export function eligiblePayoutMethods(catalogue: SellCatalogue, terms: SellRequestTerms): CataloguePayoutMethod[] | SellIneligible {
  const region = servesRegion(catalogue, terms.country, terms.state);
  if (region) return region;
  if (!sellsPair(catalogue, terms.crypto.id, terms.fiat.id))
    return { code: 'currency', message: 'does not buy this crypto currency for this fiat currency' };
  const methods = payoutMethodsFor(catalogue, terms.fiat.id, terms.country).filter(
    (m) => terms.payoutMethod === undefined || m.code === terms.payoutMethod,
  );
  if (methods.length === 0) {
    if (terms.payoutMethod !== undefined && !methodWorksIn(terms.payoutMethod, terms.country)) {
      return { code: 'payout_method', message: `${terms.payoutMethod} is not available in ${terms.country}` };
    }
    return { code: 'payout_method', message: `does not pay out by ${terms.payoutMethod ?? 'any method'} in this currency` };
  }
  const own = catalogue.cryptoLimits?.[terms.crypto.id];
  if (own && (compareDecimals(terms.amount, decimal(own.min)) < 0 || compareDecimals(terms.amount, decimal(own.max)) > 0)) {
    const range = amountLimits(own.min, own.max, terms.crypto);
    return { code: 'limits', message: range.message, min_amount: range.min, max_amount: range.max };
  }
  return methods;
}

/**
 * The method's payout limits in the fiat currency when `payout` is outside them (min rounded up,
 * max rounded down to the currency's precision); undefined when it is within, or the method sets none.
 */
export function payoutOutside(
  method: CataloguePayoutMethod,
  fiat: FiatCurrency,
  payout: Decimal,
): { min: string; max: string; message: string } | undefined {
  const limit = method.limits[fiat.id];
  if (!limit) return undefined;
  if (compareDecimals(payout, decimal(limit.min)) >= 0 && compareDecimals(payout, decimal(limit.max)) <= 0) return undefined;
  const range = amountLimits(limit.min, limit.max, fiat);
  return { ...range, message: `the payout by ${method.code} must be between ${range.min} and ${range.max} ${fiat.ticker}` };
}
