import { bodyFields, currencyParam, FieldProblems, fiatAmountParam, providerCodesParam } from '../../../src/api/params';
import { ProviderRegistry } from '../../../src/providers/registry';
import type { ProviderAdapter } from '../../../src/providers/types';
import { PROBLEM_CODES, ProblemError, SchemaProblem } from '../../../src/api/problem';
import { CurrencyDictionary, type Currency } from '../../../src/domain/currency';
import { FIXTURE_BTC, FIXTURE_USD } from '../../helpers/fixtures';

const USD: Currency = FIXTURE_USD;
const BTC: Currency = FIXTURE_BTC;
const BIG: Currency = { ...USD, id: 999_999_999, ticker: 'BIG', name: 'Largest id' };
const dictionary = new CurrencyDictionary([USD, BTC, BIG]);

function problem(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    return err as ProblemError;
  }
  throw new Error('expected a ProblemError');
}

describe('currencyParam', () => {
  test.each<[unknown, Currency]>([
    [1, USD],
    ['1', USD],
    [' 1 ', USD],
    [13, BTC],
    ['13', BTC],
    [13.0, BTC],
    [999_999_999, BIG],
    ['999999999', BIG],
  ])('accepts %p', (raw, expected) => {
    expect(currencyParam(dictionary, 'currency_from', raw)).toBe(dictionary.get(expected.id));
  });

  test('accepts the right kind when one is asked for', () => {
    expect(currencyParam(dictionary, 'currency_from', '1', 'fiat')).toEqual(USD);
    expect(currencyParam(dictionary, 'currency_to', 13, 'crypto')).toEqual(BTC);
  });

  const TICKERS = [
    'BTC',
    'btc',
    'usd',
    'USDT',
    'Eth',
    ' BTC ',
    'USDC2',
    'ABCDEFGHIJ',
    'ABCDEFGHIJK',
    '1INCH',
    'USDC.e',
    'USDT-TRC20',
    'usdt_trc20',
    'BTC-ETH',
  ];
  test.each(TICKERS)('a ticker %p is ticker_not_allowed', (raw) => {
    const err = problem(() => currencyParam(dictionary, 'currency_to', raw));
    expect(err.code).toBe('ticker_not_allowed');
    expect(PROBLEM_CODES[err.code].status).toBe(400);
    expect(err.message).toBe(`currency_to must be a currency ID from GET /api/dict/currencies, not a ticker ("${raw.trim()}").`);
    expect(err.errors).toEqual([{ path: 'currency_to', message: 'tickers are not accepted; use the integer currency ID' }]);
  });

  test('a ticker is refused even when a kind is asked for and the ticker exists', () => {
    expect(problem(() => currencyParam(dictionary, 'currency_from', 'USD', 'fiat')).code).toBe('ticker_not_allowed');
  });

  test.each<unknown>([2, '2', 12, 14, 1_000, '123456789'])('unknown id %p is unknown_currency', (raw) => {
    const err = problem(() => currencyParam(dictionary, 'from_currency', raw));
    expect(err.code).toBe('unknown_currency');
    expect(PROBLEM_CODES[err.code].status).toBe(400);
    expect(err.message).toBe(`from_currency ${String(raw)} is not in the currency dictionary.`);
    expect(err.errors).toEqual([{ path: 'from_currency', message: 'unknown currency ID' }]);
  });

  test.each<unknown>([
    0,
    '0',
    -1,
    '-1',
    1.5,
    '1.5',
    '01',
    '1e3',
    '',
    '   ',
    'X',
    'X1',
    '-BTC',
    'BTC/ETH',
    'A'.repeat(21),
    '1000000000',
    1e10,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    null,
    {},
    [1],
  ])('%p is validation_error', (raw) => {
    const err = problem(() => currencyParam(dictionary, 'currency_to', raw));
    expect(err.code).toBe('validation_error');
    expect(err.message).toBe('currency_to must be an integer currency ID.');
    expect(err.errors).toEqual([{ path: 'currency_to', message: 'expected a positive integer currency ID' }]);
  });

  describe('in a JSON body', () => {
    test.each<[unknown, Currency]>([
      [1, USD],
      [13, BTC],
      [13.0, BTC],
    ])('accepts the JSON number %p', (raw, expected) => {
      expect(currencyParam(dictionary, 'currency', raw, undefined, 'body')).toBe(dictionary.get(expected.id));
    });

    test.each(['13', ' 13 ', '2', '0', '1.5', ''])('digits in a string %p are validation_error', (raw) => {
      const err = problem(() => currencyParam(dictionary, 'currency', raw, 'crypto', 'body'));
      expect(err.code).toBe('validation_error');
      expect(err.message).toBe('currency must be an integer currency ID, sent as a JSON number.');
      expect(err.errors).toEqual([{ path: 'currency', message: 'expected a JSON number, not a string' }]);
    });

    test('a ticker is still ticker_not_allowed, and a number still checked against the dictionary', () => {
      expect(problem(() => currencyParam(dictionary, 'currency', 'BTC', 'crypto', 'body')).code).toBe('ticker_not_allowed');
      expect(problem(() => currencyParam(dictionary, 'currency', 2, 'crypto', 'body')).code).toBe('unknown_currency');
      expect(problem(() => currencyParam(dictionary, 'currency', 1, 'crypto', 'body')).code).toBe('unsupported_pair');
      expect(problem(() => currencyParam(dictionary, 'currency', undefined, 'crypto', 'body')).errors).toEqual([
        { path: 'currency', message: 'required' },
      ]);
    });
  });

  test('a missing value is validation_error "required"', () => {
    const err = problem(() => currencyParam(dictionary, 'currency_to', undefined));
    expect(err.code).toBe('validation_error');
    expect(err.errors).toEqual([{ path: 'currency_to', message: 'required' }]);
  });

  test.each<[unknown, 'fiat' | 'crypto', string]>([
    [13, 'fiat', 'from_currency must be a fiat currency; BTC is crypto.'],
    ['1', 'crypto', 'from_currency must be a crypto currency; USD is fiat.'],
  ])('%p asked as %s is unsupported_pair', (raw, kind, message) => {
    const err = problem(() => currencyParam(dictionary, 'from_currency', raw, kind));
    expect(err.code).toBe('unsupported_pair');
    expect(PROBLEM_CODES[err.code].status).toBe(422);
    expect(err.message).toBe(message);
    expect(err.errors).toEqual([{ path: 'from_currency', message: `expected a ${kind} currency` }]);
  });

  test('an unknown id is unknown_currency even when a kind is asked for', () => {
    expect(problem(() => currencyParam(dictionary, 'from_currency', 2, 'fiat')).code).toBe('unknown_currency');
  });
});

describe('providerCodesParam', () => {
  const ENABLED = new ProviderRegistry(['a', 'b', 'c', 'sandbox'].map((code) => ({ info: { code } }) as ProviderAdapter));

  test.each<[unknown, string[] | undefined]>([
    ['sandbox', ['sandbox']],
    ['a,b,c', ['a', 'b', 'c']],
    [' a , b ,c ', ['a', 'b', 'c']],
    ['a,b,a,b', ['a', 'b']],
    ['a,,b,', ['a', 'b']],
    ['b,a', ['b', 'a']],
    [undefined, undefined],
    ['', undefined],
    ['   ', undefined],
    [',,', undefined],
    [' , ', undefined],
  ])('%p -> %p', (raw, expected) => {
    expect(providerCodesParam('provider_codes', raw, ENABLED)).toEqual(expected);
  });

  test.each<unknown>([['a', 'b'], 42, null, { a: 1 }])('%p (a repeated parameter, or not a string) is a validation error', (raw) => {
    const error = problem(() => providerCodesParam('provider_codes', raw, ENABLED));
    expect(error.code).toBe('validation_error');
    expect(error.errors).toEqual([{ path: 'provider_codes', message: expect.stringContaining('comma-separated') }]);
  });

  test('an unknown or disabled provider is a validation error naming it and the enabled ones', () => {
    const error = problem(() => providerCodesParam('provider_codes', 'a,nope,b,gone', ENABLED));
    expect(error.code).toBe('validation_error');
    expect(error.errors).toEqual([
      { path: 'provider_codes', message: 'unknown or disabled provider nope, gone; enabled: a, b, c, sandbox' },
    ]);
  });
});

describe('fiatAmountParam', () => {
  test('at most the currency decimals, and above zero when asked', () => {
    expect(fiatAmountParam('amount', '100.25', USD, true)).toBe('100.25');
    expect(problem(() => fiatAmountParam('amount', '100.251', USD, true)).errors).toEqual([
      { path: 'amount', message: 'at most 2 decimal places' },
    ]);
    expect(problem(() => fiatAmountParam('amount', '0.00', USD, true)).errors).toEqual([
      { path: 'amount', message: 'must be greater than zero' },
    ]);
    expect(fiatAmountParam('amount', '0', USD, false)).toBe('0');
  });
});

describe('bodyFields', () => {
  test('an object as it is, anything else as no fields', () => {
    expect(bodyFields({ a: 1 })).toEqual({ a: 1 });
    for (const body of [null, undefined, 'text', 5, [1, 2]]) expect(bodyFields(body)).toEqual({});
  });
});

describe('FieldProblems', () => {
  const fail = (code: ProblemError['code'], path: string) => () => {
    throw new ProblemError(code, `${path} is wrong (${code}).`, [{ path, message: code }]);
  };

  test('no problem: settle returns the values', () => {
    const problems = new FieldProblems();
    const a = problems.take(() => 1);
    expect(problems.settle({ a, b: 'x' })).toEqual({ a: 1, b: 'x' });
  });

  test('one problem is thrown as it was', () => {
    const problems = new FieldProblems();
    const thrown = problem(fail('unknown_currency', 'x'));
    problems.add(thrown);
    expect(problem(() => problems.settle({}))).toBe(thrown);
  });

  test.each<[ProblemError['code'][], ProblemError['code']]>([
    [['validation_error', 'ticker_not_allowed'], 'ticker_not_allowed'],
    [['validation_error', 'unknown_currency', 'ticker_not_allowed'], 'ticker_not_allowed'],
    [['state_required', 'unknown_currency'], 'unknown_currency'],
    [['validation_error', 'state_required'], 'state_required'],
    [['unsupported_pair', 'validation_error'], 'validation_error'],
    [['unsupported_pair', 'unsupported_pair'], 'unsupported_pair'],
    [['validation_error', 'validation_error'], 'validation_error'],
  ])('of %j, %s leads; every field is listed in check order', (codes, lead) => {
    const problems = new FieldProblems();
    codes.forEach((code, i) => expect(problems.take(fail(code, `f${i}`))).toBeUndefined());
    const thrown = problem(() => problems.settle({}));
    expect(thrown.code).toBe(lead);
    expect(thrown.errors!.map((e) => e.path)).toEqual(codes.map((_, i) => `f${i}`));
    const leadIndex = codes.indexOf(lead);
    expect(thrown.message).toBe(
      `f${leadIndex} is wrong (${lead}). ${codes.length - 1} other field(s) are invalid too; errors lists them all.`,
    );
    expect(PROBLEM_CODES[thrown.code]).toBeDefined();
  });

  test("led by the schema's problem, the detail counts every field once, the schema's and the checks'", () => {
    const problems = new FieldProblems();
    problems.add(
      new SchemaProblem('query', [
        { path: 'a', message: 'required' },
        { path: 'b', message: 'x' },
        { path: 'b', message: 'y' },
      ]),
    );
    problems.take(fail('validation_error', 'c'));
    const thrown = problem(() => problems.settle({}));
    expect(thrown.code).toBe('validation_error');
    expect(thrown.message).toBe('The query has 3 invalid field(s); errors lists them all.');
    expect(thrown.errors!.map((e) => e.path)).toEqual(['a', 'b', 'b', 'c']);
  });

  test('has() knows the fields with a problem, for skipping the checks that depend on them', () => {
    const problems = new FieldProblems();
    problems.take(fail('validation_error', 'country'));
    expect(problems.has('country')).toBe(true);
    expect(problems.has('state')).toBe(false);
  });

  test('take with a field skips the check while that field has a problem, and runs it otherwise', () => {
    const problems = new FieldProblems();
    problems.take(fail('validation_error', 'country'));
    const check = jest.fn(() => 'GB');
    expect(problems.take(check, 'country')).toBeUndefined();
    expect(check).not.toHaveBeenCalled();
    expect(problems.take(check, 'state')).toBe('GB');
    expect(check).toHaveBeenCalledTimes(1);
  });

  test('an error that is not a ProblemError is not swallowed', () => {
    const problems = new FieldProblems();
    expect(() =>
      problems.take(() => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });

  test('a value missing without a problem is a bug, not an answer', () => {
    expect(() => new FieldProblems().settle({ a: undefined })).toThrow('a passed its checks but has no value');
  });
});
