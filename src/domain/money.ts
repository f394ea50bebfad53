/**
 * Decimal arithmetic for amounts. Amounts travel as decimal strings and are computed with
 * bignumber.js: exact for + - x, with explicit rounding at named steps only.
 */
import BigNumber from 'bignumber.js';
import { fixedQuotientText, parseFixed, type FixedDecimal } from './fixed-decimal';

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

/**
 * `a` compared with `b`: negative, zero or positive, as bignumber.js's `comparedTo` answers for
 * finite values, read from their coefficient, exponent and sign (`c`, `e`, `s`, documented as
 * read-only properties) without the copy of `b` that `comparedTo`, `lt`, `gte`... make on every call.
 * This is bignumber.js's own comparison; a value that is not finite is left to `comparedTo`.
 */
export function compareDecimals(a: BigNumber, b: BigNumber): number {
  const ac = a.c;
  const bc = b.c;
  const as = a.s;
  const bs = b.s;
  if (!ac || !bc || as === null || bs === null || a.e === null || b.e === null) return a.comparedTo(b) ?? NaN;
  const aZero = !ac[0];
  const bZero = !bc[0];
  if (aZero || bZero) return aZero ? (bZero ? 0 : -bs) : as;
  if (as !== bs) return as;
  const negative = as < 0;
  if (a.e !== b.e) return a.e > b.e !== negative ? 1 : -1;
  const shorter = Math.min(ac.length, bc.length);
  for (let i = 0; i < shorter; i++) {
    if (ac[i] !== bc[i]) return ac[i]! > bc[i]! !== negative ? 1 : -1;
  }
  return ac.length === bc.length ? 0 : ac.length > bc.length !== negative ? 1 : -1;
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

/** A finite decimal's magnitude as an integer count of 10^-scale units: 12.340 → 1234n, scale 2. */
function unitsOf(value: BigNumber): FixedDecimal {
  // toFixed() of a finite magnitude is a plain non-negative decimal, which parseFixed always reads.
  return parseFixed(value.abs().toFixed())!;
}

/**
 * `dividend / divisor` to `digits` significant digits, rounded toward zero ('down') or away from
 * it ('up') from the exact quotient, written as BigNumber's toFixed() writes it.
 *
 * Exact integer arithmetic (fixedQuotientText): both operands become integers of their smallest
 * decimal unit (bigint). bignumber.js's long division made the two rates of an offer the largest
 * share of the memory an offers request allocated (about 1.8 KB per quotient, against a few hundred
 * bytes here), and cost CPU time before that.
 */
export function quotientToSignificantText(dividend: BigNumber, divisor: BigNumber, digits: number, rounding: 'down' | 'up'): string {
  if (divisor.isZero()) throw new RangeError('division by zero');
  if (!dividend.isFinite() || !divisor.isFinite()) throw new RangeError('not a finite decimal');
  if (dividend.isZero()) return '0';
  const text = fixedQuotientText(unitsOf(dividend), unitsOf(divisor), digits, rounding);
  return dividend.isNegative() !== divisor.isNegative() && text !== '0' ? `-${text}` : text;
}

/** `quotientToSignificantText` as a Decimal. */
export function quotientToSignificant(dividend: BigNumber, divisor: BigNumber, digits: number, rounding: 'down' | 'up'): BigNumber {
  return new Decimal(quotientToSignificantText(dividend, divisor, digits, rounding));
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
