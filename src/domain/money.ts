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

/** 10^n as a bigint, for the exact integer arithmetic of quotients: kept up to 10^64, computed beyond. */
const CACHED_POWERS = 64;
const powersOfTen: bigint[] = [1n];

function pow10(n: number): bigint {
  // A provider's amount with thousands of digits must not grow the cache for the process's life.
  if (n > CACHED_POWERS) return 10n ** BigInt(n);
  for (let i = powersOfTen.length; i <= n; i++) powersOfTen.push(powersOfTen[i - 1]! * 10n);
  return powersOfTen[n]!;
}

/** A finite decimal's magnitude as an integer count of 10^-scale units: 12.340 → 1234n, scale 2. */
function unitsOf(value: BigNumber): { units: bigint; scale: number } {
  const text = value.abs().toFixed();
  const dot = text.indexOf('.');
  if (dot === -1) return { units: BigInt(text), scale: 0 };
  return { units: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
}

/** `units` × 10^-scale (units ≥ 0) in plain notation, without trailing zeros: what BigNumber's toFixed() writes. */
function textOf(units: bigint, scale: number): string {
  const digits = units.toString();
  if (scale === 0 || units === 0n) return digits;
  const padded = digits.length > scale ? digits : '0'.repeat(scale - digits.length + 1) + digits;
  const point = padded.length - scale;
  let end = padded.length;
  while (end > point && padded.charCodeAt(end - 1) === 48 /* 0 */) end--;
  return end === point ? padded.slice(0, point) : `${padded.slice(0, point)}.${padded.slice(point, end)}`;
}

/**
 * `dividend / divisor` to `digits` significant digits, rounded toward zero ('down') or away from
 * it ('up') from the exact quotient, written as BigNumber's toFixed() writes it.
 *
 * Exact integer arithmetic: both operands become integers of their smallest decimal unit (bigint),
 * and one integer division, carried `places` decimal places (enough for `digits`), gives the quotient
 * and whether anything was left over. bignumber.js's long division made the two rates of an offer the
 * largest share of the memory an offers request allocated (about 1.8 KB per quotient, against a few
 * hundred bytes here), and cost CPU time before that.
 * Rounding twice in the same direction, first at that last place and then at `digits`, equals
 * rounding the exact quotient once, since the second grid is no finer than the first.
 */
export function quotientToSignificantText(dividend: BigNumber, divisor: BigNumber, digits: number, rounding: 'down' | 'up'): string {
  if (divisor.isZero()) throw new RangeError('division by zero');
  if (!dividend.isFinite() || !divisor.isFinite()) throw new RangeError('not a finite decimal');
  if (dividend.isZero()) return '0';
  // The quotient's leading digit is at 10^(e-1) or 10^e, with e the difference of the exponents.
  const places = Math.max(0, digits - dividend.e! + divisor.e!);
  const a = unitsOf(dividend);
  const b = unitsOf(divisor);
  // |dividend / divisor| × 10^places = (a × 10^(b.scale + places)) / (b × 10^a.scale)
  const numerator = a.units * pow10(b.scale + places);
  const denominator = b.units * pow10(a.scale);
  let quotient = numerator / denominator;
  if (rounding === 'up' && quotient * denominator !== numerator) quotient += 1n;
  // Then to `digits` significant digits, in the same direction.
  const length = quotient.toString().length;
  if (length > digits) {
    const unit = pow10(length - digits);
    const kept = quotient / unit;
    quotient = (rounding === 'up' && kept * unit !== quotient ? kept + 1n : kept) * unit;
  }
  const text = textOf(quotient, places);
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
