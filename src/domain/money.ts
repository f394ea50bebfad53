/**
 * Decimal arithmetic for amounts. Amounts travel as decimal strings and are computed with
 * bignumber.js: exact for + - x, with explicit rounding at named steps only.
 */
import BigNumber from 'bignumber.js';

export const Decimal = BigNumber.clone({
  DECIMAL_PLACES: 40,
  ROUNDING_MODE: BigNumber.ROUND_HALF_EVEN,
  EXPONENTIAL_AT: [-50, 50],
});
export type Decimal = BigNumber;

/** A plain non-negative decimal: digits, optional fraction, no sign, exponent or spaces. */
export const DECIMAL_AMOUNT_PATTERN = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

export function isDecimalAmount(value: string): boolean {
  return DECIMAL_AMOUNT_PATTERN.test(value);
}

export function decimal(value: string | number | BigNumber): BigNumber {
  let result: BigNumber;
  try {
    result = new Decimal(value);
  } catch {
    result = new Decimal(NaN);
  }
  if (!result.isFinite()) throw new RangeError(`not a finite decimal: ${String(value)}`);
  return result;
}

/** Rounded down to `precision` places: what the customer receives is never overstated. */
export function roundedDown(value: BigNumber, precision: number): BigNumber {
  return value.decimalPlaces(precision, BigNumber.ROUND_DOWN);
}

/** Rounded up to `precision` places: what the customer pays (fees) is never understated. */
export function roundedUp(value: BigNumber, precision: number): BigNumber {
  return value.decimalPlaces(precision, BigNumber.ROUND_UP);
}

/** `roundedDown`, written with exactly `precision` places. */
export function roundDown(value: BigNumber, precision: number): string {
  return roundedDown(value, precision).toFixed(precision);
}

/** `roundedUp`, written with exactly `precision` places. */
export function roundUp(value: BigNumber, precision: number): string {
  return roundedUp(value, precision).toFixed(precision);
}

export function roundHalfEven(value: BigNumber, precision: number): string {
  return value.decimalPlaces(precision, BigNumber.ROUND_HALF_EVEN).toFixed(precision);
}

/** `part` as a percentage of `whole`, to two places (half even) without trailing zeros: "4.5%". */
export function percentText(part: string | BigNumber, whole: string | BigNumber): string {
  const of = decimal(whole);
  if (of.isZero()) throw new RangeError('a percentage of zero');
  const rate = decimal(part).div(of).times(100);
  return `${rate.decimalPlaces(2, BigNumber.ROUND_HALF_EVEN).toFixed()}%`;
}

/** Decimal's own divisions stop at 40 places; a quotient to N places rounds down or up with one of these. */
const dividers = new Map<number, typeof BigNumber>();
/** Places run up to `digits` plus the exponents' spread: a few dozen for amounts, so this never fills. */
const MAX_CACHED_DIVIDERS = 512;

function dividerTo(places: number, rounding: 'down' | 'up'): typeof BigNumber {
  const key = rounding === 'down' ? places : -1 - places;
  let divider = dividers.get(key);
  if (!divider) {
    divider = BigNumber.clone({ DECIMAL_PLACES: places, ROUNDING_MODE: rounding === 'down' ? BigNumber.ROUND_DOWN : BigNumber.ROUND_UP });
    if (dividers.size < MAX_CACHED_DIVIDERS) dividers.set(key, divider);
  }
  return divider;
}

/**
 * `dividend / divisor` (both non-negative) to `digits` significant digits, rounded down or up from
 * the exact quotient.
 * The division is carried only as far as those digits need, not to the 40 places of a plain `div`,
 * which made it the costliest step of an offer: bignumber.js divides to a constructor's
 * DECIMAL_PLACES, so there is one constructor per number of places (made once, kept).
 * Rounding twice in the same direction, first at that last place and then at `digits`, equals
 * rounding the exact quotient once, since the second grid is no finer than the first.
 */
export function quotientToSignificant(dividend: BigNumber, divisor: BigNumber, digits: number, rounding: 'down' | 'up'): BigNumber {
  if (divisor.isZero()) throw new RangeError('division by zero');
  // The quotient's leading digit is at 10^(e-1) or 10^e, with e the difference of the exponents.
  const places = Math.max(0, digits - dividend.e! + divisor.e!);
  const Divider = dividerTo(places, rounding);
  const quotient = new Divider(dividend).div(divisor);
  return new Decimal(quotient.precision(digits, rounding === 'down' ? BigNumber.ROUND_DOWN : BigNumber.ROUND_UP));
}

/** Number of digits after the decimal point in a decimal string. */
export function fractionDigits(value: string): number {
  const dot = value.indexOf('.');
  return dot === -1 ? 0 : value.length - dot - 1;
}

/** A purchase amount's limits in one fiat currency, as every refusal for limits states them. */
export interface AmountLimits {
  /** The minimum at the currency's precision, rounded up: the figure shown is itself allowed. */
  min: string;
  /** The maximum at the currency's precision, rounded down. */
  max: string;
  /** "amount must be between 20.00 and 5000.00 USD" */
  message: string;
}

export function amountLimits(min: string | BigNumber, max: string | BigNumber, fiat: { ticker: string; precision: number }): AmountLimits {
  const low = roundUp(decimal(min), fiat.precision);
  const high = roundDown(decimal(max), fiat.precision);
  return { min: low, max: high, message: `amount must be between ${low} and ${high} ${fiat.ticker}` };
}
