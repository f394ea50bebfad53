import BigNumber from 'bignumber.js';
import {
  addFixed,
  compareFixed,
  fixedQuotientText,
  fixedText,
  parseFixed,
  roundFixed,
  subtractFixed,
} from '../../../src/domain/fixed-decimal';
import { Decimal, quotientToSignificantText } from '../../../src/domain/money';

/** A deterministic stream of plain decimals: 0–12 integer digits, 0–20 fraction digits, zeros often. */
function decimals(count: number, seed = 7): string[] {
  let state = seed;
  const next = (n: number) => ((state = (state * 1103515245 + 12345) % 2 ** 31), state % n);
  const digits = (n: number) => Array.from({ length: n }, () => (next(3) === 0 ? '0' : String(next(10)))).join('');
  return Array.from({ length: count }, () => {
    const whole = digits(next(13)) || '0';
    const fraction = next(3) === 0 ? '' : `.${digits(1 + next(20))}`;
    return whole + fraction;
  });
}

const values = decimals(400);
const pairs = values.map((v, i) => [v, values[(i * 7 + 3) % values.length]!] as const);

describe('fixed decimals, against bignumber.js', () => {
  test('only plain non-negative decimals parse', () => {
    for (const text of ['', '-1', '+1', '1.', '.5', '1e5', ' 1', '1,5', 'NaN', 'Infinity', '0x10', '١'])
      expect(parseFixed(text)).toBeUndefined();
    expect(parseFixed('012.3400')).toEqual({ units: 123400n, scale: 4 });
  });

  test('short and long decimals parse to the same units as their digits say', () => {
    const texts = [
      '0',
      '0.0',
      '7',
      '999999999999999',
      '9999999999999999',
      '99999999999999.9',
      '9999999999999.99',
      '999999999999999.9',
      '0.00000000000001',
      '0.000000000000001',
      '123456789012345',
      '1234567890123456',
      '12345678901234.5',
      '00000000000000000001.5',
      '9007199254740993',
      '900719925474099.3',
      '18446744073709551617.000000000000000001',
    ];
    for (const text of texts) {
      const dot = text.indexOf('.');
      const scale = dot === -1 ? 0 : text.length - dot - 1;
      expect([text, parseFixed(text)]).toEqual([text, { units: BigInt(text.replace('.', '')), scale }]);
    }
  });

  test('sums, differences and comparisons are exact', () => {
    for (const [a, b] of pairs) {
      const [x, y] = [parseFixed(a)!, parseFixed(b)!];
      const sum = addFixed(x, y);
      expect(fixedText(sum, sum.scale)).toBe(new Decimal(a).plus(b).toFixed(sum.scale));
      const difference = subtractFixed(x, y);
      if (difference.units >= 0n) expect(fixedText(difference, difference.scale)).toBe(new Decimal(a).minus(b).toFixed(difference.scale));
      expect(compareFixed(x, y)).toBe(new Decimal(a).comparedTo(b));
    }
  });

  test.each([0, 2, 8, 18])('rounding to %s places and writing are bignumber.js’s', (places) => {
    for (const text of values) {
      const value = parseFixed(text)!;
      expect(fixedText(roundFixed(value, places, 'up'), places)).toBe(
        new Decimal(text).decimalPlaces(places, BigNumber.ROUND_UP).toFixed(places),
      );
      expect(fixedText(roundFixed(value, places, 'down'), places)).toBe(
        new Decimal(text).decimalPlaces(places, BigNumber.ROUND_DOWN).toFixed(places),
      );
      expect(fixedText(value, places)).toBe(new Decimal(text).toFixed(places));
    }
  });

  test('ties round to even when written', () => {
    expect(fixedText(parseFixed('0.125')!, 2)).toBe('0.12');
    expect(fixedText(parseFixed('0.135')!, 2)).toBe('0.14');
    expect(fixedText(parseFixed('2.5')!, 0)).toBe('2');
    expect(fixedText(parseFixed('0.0001')!, 2)).toBe('0.00');
  });

  test.each(['down', 'up'] as const)('quotients (%s) are quotientToSignificantText’s', (rounding) => {
    for (const [a, b] of pairs) {
      const [x, y] = [parseFixed(a)!, parseFixed(b)!];
      if (x.units === 0n || y.units === 0n) continue;
      expect(fixedQuotientText(x, y, 12, rounding)).toBe(quotientToSignificantText(new Decimal(a), new Decimal(b), 12, rounding));
    }
  });
});
