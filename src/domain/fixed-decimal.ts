/**
 * Exact decimals as integers: `units` × 10^-scale, in bigint. The offers service computes each
 * quote's offer this way when every amount is written plainly (the common case), instead of with
 * bignumber.js, whose every operation and comparison copies its operand: that arithmetic was about
 * 4 KB of allocation per quote. The results are the same digits bignumber.js writes (test/unit/domain).
 */
export interface FixedDecimal {
  units: bigint;
  scale: number;
}

/** A plain non-negative decimal: digits, then an optional fraction; no sign, exponent or spaces. */
const PLAIN_DECIMAL = /^\d+(?:\.\d+)?$/;

/** Whether `text` is a plain non-negative decimal (digits, then an optional fraction). */
export function isPlainDecimal(text: string): boolean {
  return PLAIN_DECIMAL.test(text);
}

/** 10^n as a bigint: kept up to 10^64, computed beyond. */
const CACHED_POWERS = 64;
const powersOfTen: bigint[] = [1n];

export function pow10(n: number): bigint {
  // A provider's amount with thousands of digits must not grow the cache for the process's life.
  if (n > CACHED_POWERS) return 10n ** BigInt(n);
  for (let i = powersOfTen.length; i <= n; i++) powersOfTen.push(powersOfTen[i - 1]! * 10n);
  return powersOfTen[n]!;
}

/** `text` when it is a plain non-negative decimal, else undefined (the caller takes the general path). */
export function parseFixed(text: string): FixedDecimal | undefined {
  if (!isPlainDecimal(text)) return undefined;
  const dot = text.indexOf('.');
  // Up to 15 digits the units are exact in a double (below 2^53 at every step): read digit by digit,
  // without the slices and the joined string of the general case (several per quote).
  if (text.length - (dot === -1 ? 0 : 1) <= 15) {
    let units = 0;
    for (let i = 0; i < text.length; i++) if (i !== dot) units = units * 10 + (text.charCodeAt(i) - 48);
    return { units: BigInt(units), scale: dot === -1 ? 0 : text.length - dot - 1 };
  }
  if (dot === -1) return { units: BigInt(text), scale: 0 };
  return { units: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
}

/** `value`'s units at a finer scale (`scale` ≥ value.scale). */
function unitsAt(value: FixedDecimal, scale: number): bigint {
  return scale === value.scale ? value.units : value.units * pow10(scale - value.scale);
}

export function addFixed(a: FixedDecimal, b: FixedDecimal): FixedDecimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: unitsAt(a, scale) + unitsAt(b, scale), scale };
}

export function subtractFixed(a: FixedDecimal, b: FixedDecimal): FixedDecimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: unitsAt(a, scale) - unitsAt(b, scale), scale };
}

/** Negative, zero or positive as a is below, equal to or above b. */
export function compareFixed(a: FixedDecimal, b: FixedDecimal): number {
  const scale = Math.max(a.scale, b.scale);
  const difference = unitsAt(a, scale) - unitsAt(b, scale);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

export type FixedRounding = 'down' | 'up' | 'half-even';

/** `value` (≥ 0) to at most `places` decimal places: toward zero, away from it, or to the nearest with ties to even. */
export function roundFixed(value: FixedDecimal, places: number, rounding: FixedRounding): FixedDecimal {
  if (value.scale <= places) return value;
  const unit = pow10(value.scale - places);
  let units = value.units / unit;
  const rest = value.units - units * unit;
  if (rest !== 0n) {
    if (rounding === 'up') units += 1n;
    else if (rounding === 'half-even') {
      const twice = rest * 2n;
      if (twice > unit || (twice === unit && units % 2n === 1n)) units += 1n;
    }
  }
  return { units, scale: places };
}

/** `value` (≥ 0) written with exactly `places` decimals, rounded half to even, as bignumber.js's toFixed(places) writes it here. */
export function fixedText(value: FixedDecimal, places: number): string {
  const { units, scale } = roundFixed(value, places, 'half-even');
  const digits = (scale === places ? units : units * pow10(places - scale)).toString();
  if (places === 0) return digits;
  const padded = digits.length > places ? digits : '0'.repeat(places - digits.length + 1) + digits;
  return `${padded.slice(0, padded.length - places)}.${padded.slice(padded.length - places)}`;
}

/** `units` × 10^-scale (units ≥ 0) in plain notation, without trailing zeros: what bignumber.js's toFixed() writes. */
function plainText(units: bigint, scale: number): string {
  const digits = units.toString();
  if (scale === 0 || units === 0n) return digits;
  const padded = digits.length > scale ? digits : '0'.repeat(scale - digits.length + 1) + digits;
  const point = padded.length - scale;
  let end = padded.length;
  while (end > point && padded.charCodeAt(end - 1) === 48 /* 0 */) end--;
  return end === point ? padded.slice(0, point) : `${padded.slice(0, point)}.${padded.slice(point, end)}`;
}

/** The number of digits of `units` (> 0), counted against the powers of ten kept rather than by writing it. */
function digitCount(units: bigint): number {
  if (units >= pow10(CACHED_POWERS)) return units.toString().length;
  let digits = 1;
  while (units >= pow10(digits)) digits++;
  return digits;
}

/** The exponent of a positive value's leading digit: 12.34 → 1, 0.00123 → -3. */
function exponentOf(value: FixedDecimal): number {
  return digitCount(value.units) - 1 - value.scale;
}

/**
 * `dividend / divisor` (both > 0) to `digits` significant digits, rounded toward zero ('down') or away
 * from it ('up') from the exact quotient, in plain notation without trailing zeros.
 *
 * One integer division, carried `places` decimal places (enough for `digits`), gives the quotient and
 * whether anything was left over. Rounding twice in the same direction, first at that last place and
 * then at `digits`, equals rounding the exact quotient once, since the second grid is no finer.
 */
export function fixedQuotientText(dividend: FixedDecimal, divisor: FixedDecimal, digits: number, rounding: 'down' | 'up'): string {
  // The quotient's leading digit is at 10^(e-1) or 10^e, with e the difference of the exponents.
  const places = Math.max(0, digits - exponentOf(dividend) + exponentOf(divisor));
  // (a / 10^a.scale) / (b / 10^b.scale) × 10^places = (a × 10^(b.scale + places)) / (b × 10^a.scale)
  const numerator = dividend.units * pow10(divisor.scale + places);
  const denominator = divisor.units * pow10(dividend.scale);
  let quotient = numerator / denominator;
  if (rounding === 'up' && quotient * denominator !== numerator) quotient += 1n;
  // Then to `digits` significant digits, in the same direction.
  const length = quotient === 0n ? 1 : digitCount(quotient);
  if (length > digits) {
    const unit = pow10(length - digits);
    const kept = quotient / unit;
    quotient = (rounding === 'up' && kept * unit !== quotient ? kept + 1n : kept) * unit;
  }
  return plainText(quotient, places);
}
