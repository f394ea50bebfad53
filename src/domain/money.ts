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

/** Rounds down: what the customer receives is never overstated. */
export function roundDown(value: BigNumber, precision: number): string {
  return value.decimalPlaces(precision, BigNumber.ROUND_DOWN).toFixed(precision);
}

/** Rounds up: what the customer pays (fees) is never understated. */
export function roundUp(value: BigNumber, precision: number): string {
  return value.decimalPlaces(precision, BigNumber.ROUND_UP).toFixed(precision);
}

export function roundHalfEven(value: BigNumber, precision: number): string {
  return value.decimalPlaces(precision, BigNumber.ROUND_HALF_EVEN).toFixed(precision);
}

/** Number of digits after the decimal point in a decimal string. */
export function fractionDigits(value: string): number {
  const dot = value.indexOf('.');
  return dot === -1 ? 0 : value.length - dot - 1;
}
