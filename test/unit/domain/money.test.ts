import BigNumber from 'bignumber.js';
import {
  amountLimits,
  compareDecimals,
  decimal,
  DECIMAL_AMOUNT_PATTERN,
  fractionDigits,
  isDecimalAmount,
  percentText,
  quotientToSignificant,
  roundDown,
  roundedDown,
  roundedUp,
  roundHalfEven,
  roundUp,
} from '../../../src/domain/money';

describe('decimal', () => {
  test('0.1 + 0.2 is exactly 0.3 (strings and numbers alike)', () => {
    expect(decimal('0.1').plus('0.2').toFixed()).toBe('0.3');
    expect(decimal(0.1).plus(decimal(0.2)).toFixed()).toBe('0.3');
    expect(decimal('0.1').plus('0.2').eq('0.3')).toBe(true);
  });

  test('multiplication of a large value with 18 decimals is exact', () => {
    expect(decimal('123456789012.123456789012345678').times(3).toFixed()).toBe('370370367036.370370367037037034');
  });

  test('subtraction keeps every digit', () => {
    expect(decimal('1000000000000000000.000000000000000001').minus('1000000000000000000').toFixed()).toBe('0.000000000000000001');
  });

  test('very large and very small values print in plain notation', () => {
    expect(decimal('12345678901234567890123.5').toString()).toBe('12345678901234567890123.5');
    expect(decimal('0.000000000000000000000000000001').toString()).toBe('0.000000000000000000000000000001');
    expect(decimal('1e-7').toString()).toBe('0.0000001');
    expect(decimal('1e30').toString()).toBe('1000000000000000000000000000000');
  });

  test('division keeps 40 decimal places, rounded half-even', () => {
    expect(decimal(1).div(3).toFixed()).toBe('0.3333333333333333333333333333333333333333');
    expect(decimal(2).div(3).toFixed()).toBe('0.6666666666666666666666666666666666666667');
    // ties at the 40th decimal go to the even digit
    expect(decimal(1).div('2e40').toFixed()).toBe('0');
    expect(decimal(5).div('2e40').toFixed()).toBe('0.0000000000000000000000000000000000000002');
    expect(decimal(7).div('2e40').toFixed()).toBe('0.0000000000000000000000000000000000000004');
  });

  test('accepts a BigNumber and a number', () => {
    expect(decimal(new BigNumber('42.5')).toFixed()).toBe('42.5');
    expect(decimal(7).toFixed()).toBe('7');
    expect(decimal('-3.25').toFixed()).toBe('-3.25');
  });

  test.each<string | number>(['NaN', 'Infinity', '-Infinity', Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'throws a RangeError naming a non-finite value %p',
    (value) => {
      expect(() => decimal(value)).toThrow(RangeError);
      expect(() => decimal(value)).toThrow(`not a finite decimal: ${String(value)}`);
    },
  );

  test.each(['abc', '', '1.2.3', '1,5', '$1'])('throws a RangeError for the non-number %p', (value) => {
    expect(() => decimal(value)).toThrow(RangeError);
    expect(() => decimal(value)).toThrow(`not a finite decimal: ${value}`);
  });
});

describe('rounding', () => {
  test.each<[string, number, string, string, string]>([
    // value, precision, roundDown, roundUp, roundHalfEven
    ['1.005', 2, '1.00', '1.01', '1.00'],
    ['1.015', 2, '1.01', '1.02', '1.02'],
    ['1.025', 2, '1.02', '1.03', '1.02'],
    ['1.0251', 2, '1.02', '1.03', '1.03'],
    ['2.5', 0, '2', '3', '2'],
    ['3.5', 0, '3', '4', '4'],
    ['0.5', 0, '0', '1', '0'],
    ['1.5', 0, '1', '2', '2'],
    ['1234.0001', 0, '1234', '1235', '1234'],
    ['100', 2, '100.00', '100.00', '100.00'],
    ['100', 0, '100', '100', '100'],
    ['0', 8, '0.00000000', '0.00000000', '0.00000000'],
    ['0.123456789', 8, '0.12345678', '0.12345679', '0.12345679'],
    ['0.123456785', 8, '0.12345678', '0.12345679', '0.12345678'],
    ['1.12', 6, '1.120000', '1.120000', '1.120000'],
    ['0.0000000000000000019', 18, '0.000000000000000001', '0.000000000000000002', '0.000000000000000002'],
    ['0.0000000000000000001', 18, '0.000000000000000000', '0.000000000000000001', '0.000000000000000000'],
    ['0.0000000000000000005', 18, '0.000000000000000000', '0.000000000000000001', '0.000000000000000000'],
    ['0.0000000000000000015', 18, '0.000000000000000001', '0.000000000000000002', '0.000000000000000002'],
    [
      '123456789012.123456789012345678',
      18,
      '123456789012.123456789012345678',
      '123456789012.123456789012345678',
      '123456789012.123456789012345678',
    ],
    [
      '123456789012.1234567890123456789',
      18,
      '123456789012.123456789012345678',
      '123456789012.123456789012345679',
      '123456789012.123456789012345679',
    ],
    ['99999999999999999.999', 2, '99999999999999999.99', '100000000000000000.00', '100000000000000000.00'],
  ])('%s at %i: down %s, up %s, half-even %s', (value, precision, down, up, halfEven) => {
    expect(roundDown(decimal(value), precision)).toBe(down);
    expect(roundUp(decimal(value), precision)).toBe(up);
    expect(roundedDown(decimal(value), precision).toFixed(precision)).toBe(down);
    expect(roundedUp(decimal(value), precision).toFixed(precision)).toBe(up);
    expect(roundHalfEven(decimal(value), precision)).toBe(halfEven);
  });

  test('results always carry exactly `precision` fraction digits', () => {
    for (const precision of [0, 1, 2, 6, 8, 9, 18]) {
      for (const fn of [roundDown, roundUp, roundHalfEven]) {
        expect(fractionDigits(fn(decimal('7'), precision))).toBe(precision);
        expect(fractionDigits(fn(decimal('7.123456789012345678912'), precision))).toBe(precision);
      }
    }
  });

  test('never prints exponent notation', () => {
    expect(roundDown(decimal('1e25'), 2)).toBe('10000000000000000000000000.00');
    expect(roundUp(decimal('1e-25'), 2)).toBe('0.01');
  });

  test('the sum 0.1 + 0.2 rounds to 0.30 at two decimals in every mode', () => {
    const sum = decimal('0.1').plus('0.2');
    expect(roundDown(sum, 2)).toBe('0.30');
    expect(roundUp(sum, 2)).toBe('0.30');
    expect(roundHalfEven(sum, 2)).toBe('0.30');
  });

  test('rounding does not change its input', () => {
    const value = decimal('1.23456');
    roundUp(value, 2);
    roundDown(value, 2);
    expect(value.toFixed()).toBe('1.23456');
  });
});

describe('percentText', () => {
  test.each<[string, string, string]>([
    ['4.98', '250', '1.99%'],
    ['1', '3', '33.33%'],
    ['2', '3', '66.67%'],
    ['45', '1000', '4.5%'],
    ['0', '100', '0%'],
    ['100', '100', '100%'],
    ['0.125', '100', '0.12%'],
    ['0.135', '100', '0.14%'],
  ])('%s of %s is %s', (part, whole, text) => {
    expect(percentText(part, whole)).toBe(text);
  });

  test('a zero whole is refused', () => {
    expect(() => percentText('1', '0')).toThrow(RangeError);
  });
});

describe('amountLimits', () => {
  const USD = { ticker: 'USD', precision: 2 };
  const JPY = { ticker: 'JPY', precision: 0 };

  test('both ends at the currency precision, in one sentence with its code', () => {
    expect(amountLimits('20', '5000', USD)).toEqual({
      min: '20.00',
      max: '5000.00',
      message: 'amount must be between 20.00 and 5000.00 USD',
    });
    expect(amountLimits(decimal('3000'), decimal('1500000'), JPY)).toEqual({
      min: '3000',
      max: '1500000',
      message: 'amount must be between 3000 and 1500000 JPY',
    });
  });

  test('the minimum rounds up and the maximum down, so each figure shown is itself allowed', () => {
    expect(amountLimits('14.001', '999.999', USD)).toMatchObject({ min: '14.01', max: '999.99' });
    expect(amountLimits('2999.5', '1500000.9', JPY)).toMatchObject({ min: '3000', max: '1500000' });
  });
});

describe('quotientToSignificant', () => {
  test.each<[string, string, number, string, string]>([
    // dividend, divisor, digits, down, up
    ['1', '3', 12, '0.333333333333', '0.333333333334'],
    ['2', '3', 12, '0.666666666666', '0.666666666667'],
    ['10', '4', 12, '2.5', '2.5'],
    ['1', '1', 12, '1', '1'],
    ['0', '7', 12, '0', '0'],
    ['0.00102842', '94.45', 12, '0.0000108885124404', '0.0000108885124405'],
    ['94.45', '0.00102842', 12, '91839.9097644', '91839.9097645'],
    ['999999999999', '1', 12, '999999999999', '999999999999'],
    ['9999999999999', '1', 12, '9999999999990', '10000000000000'],
    ['1', '999999999999999999', 12, '0.000000000000000001', '0.00000000000000000100000000001'],
    ['123456789012345678', '0.000000000000000001', 12, '123456789012000000000000000000000000', '123456789013000000000000000000000000'],
    ['1', '7', 1, '0.1', '0.2'],
    ['7', '1', 1, '7', '7'],
    ['19', '2', 1, '9', '10'],
  ])('%s / %s to %i digits: down %s, up %s', (dividend, divisor, digits, down, up) => {
    expect(quotientToSignificant(decimal(dividend), decimal(divisor), digits, 'down').toFixed()).toBe(down);
    expect(quotientToSignificant(decimal(dividend), decimal(divisor), digits, 'up').toFixed()).toBe(up);
  });

  test('equals the exact quotient rounded once, down and up, over many operands', () => {
    // The reference divides to 120 places, far past any digit that can matter here.
    const Exact = BigNumber.clone({ DECIMAL_PLACES: 120 });
    let seed = 20261122;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const operand = () => {
      const digits = String(next()).slice(0, 1 + (next() % 9));
      return new BigNumber(digits).shiftedBy((next() % 37) - 18);
    };
    for (let i = 0; i < 3000; i++) {
      const a = operand();
      const b = operand();
      if (b.isZero()) continue;
      const digits = 1 + (next() % 16);
      const exact = new Exact(a).div(b);
      expect(quotientToSignificant(decimal(a), decimal(b), digits, 'down').toFixed()).toBe(
        exact.precision(digits, BigNumber.ROUND_DOWN).toFixed(),
      );
      expect(quotientToSignificant(decimal(a), decimal(b), digits, 'up').toFixed()).toBe(
        exact.precision(digits, BigNumber.ROUND_UP).toFixed(),
      );
    }
  });

  test('division by zero is refused', () => {
    expect(() => quotientToSignificant(decimal('1'), decimal('0'), 12, 'down')).toThrow(RangeError);
  });

  test('a negative operand: down rounds toward zero and up away from it, as bignumber.js does', () => {
    expect(quotientToSignificant(decimal('-1'), decimal('3'), 12, 'down').toFixed()).toBe('-0.333333333333');
    expect(quotientToSignificant(decimal('-1'), decimal('3'), 12, 'up').toFixed()).toBe('-0.333333333334');
    expect(quotientToSignificant(decimal('2'), decimal('-3'), 3, 'up').toFixed()).toBe('-0.667');
    expect(quotientToSignificant(decimal('-2'), decimal('-3'), 3, 'down').toFixed()).toBe('0.666');
  });
});

describe('isDecimalAmount', () => {
  test.each([
    '0',
    '1',
    '9',
    '10',
    '100',
    '100.00',
    '0.5',
    '0.000000000000000001',
    '1.123456789012345678',
    '123456789012345678',
    '123456789012345678.123456789012345678',
    '0.0',
  ])('accepts %p', (value) => {
    expect(isDecimalAmount(value)).toBe(true);
  });

  test.each([
    '',
    '01',
    '00',
    '00.5',
    '1.',
    '.5',
    '1e5',
    '1E5',
    '-1',
    '+1',
    ' 1',
    '1 ',
    '1,5',
    '1,000',
    '0x10',
    'NaN',
    'Infinity',
    '1.2.3',
    '1234567890123456789', // 19 integer digits
    '1.1234567890123456789', // 19 fraction digits
    '١٢', // non-ASCII digits
    '1\n',
  ])('refuses %p', (value) => {
    expect(isDecimalAmount(value)).toBe(false);
  });

  test('DECIMAL_AMOUNT_PATTERN is what isDecimalAmount applies', () => {
    expect(DECIMAL_AMOUNT_PATTERN.test('12.5')).toBe(true);
    expect(DECIMAL_AMOUNT_PATTERN.test('12.')).toBe(false);
  });
});

describe('fractionDigits', () => {
  test.each<[string, number]>([
    ['100', 0],
    ['0', 0],
    ['100.0', 1],
    ['100.00', 2],
    ['0.5', 1],
    ['0.000001', 6],
    ['1.123456789012345678', 18],
    ['12.3400', 4],
  ])('%s has %i', (value, digits) => {
    expect(fractionDigits(value)).toBe(digits);
  });
});

describe('compareDecimals', () => {
  const values = [
    '0',
    '-0',
    '1',
    '-1',
    '0.5',
    '-0.5',
    '10',
    '9.99999999999999999',
    '100000000000000',
    '100000000000000.00000000000001',
    '99999999999999.99999999999999',
    '123456789012345678901234567890.123',
    '123456789012345678901234567890.1229',
    '1e-30',
    '-1e-30',
    '1e40',
    '-1e40',
    '0.000001',
    '0.0000010',
    '30',
    '30.00',
    '29.999',
    '5000',
    '5000.01',
    '-123.456',
    '-123.4561',
  ];
  it('answers as comparedTo for every pair', () => {
    for (const a of values) {
      for (const b of values) {
        const x = decimal(a);
        const y = decimal(b);
        expect([a, b, compareDecimals(x, y)]).toEqual([a, b, x.comparedTo(y)]);
      }
    }
  });

  it('answers as comparedTo for values made by arithmetic', () => {
    const x = decimal('1').div(3);
    const y = decimal('0.3333333333333333333333333333333333333333');
    expect(compareDecimals(x, y)).toBe(x.comparedTo(y));
    expect(compareDecimals(x.times(3), decimal(1))).toBe(x.times(3).comparedTo(1));
    expect(compareDecimals(new BigNumber(NaN), decimal(1))).toBeNaN();
  });
});
