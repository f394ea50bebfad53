import data from '../../../src/domain/data/currencies.json';
import { currencyDictionary } from '../../../src/domain/currencies';
import { CurrencyDictionary, CurrencyFileSchema, CurrencySchema, NETWORK_PATTERN, type Currency } from '../../../src/domain/currency';
import { FIXTURE_BTC, FIXTURE_USD } from '../../helpers/fixtures';

const USD: Currency = FIXTURE_USD;
const BTC: Currency = FIXTURE_BTC;
const USDT_ETH: Currency = {
  id: 15,
  ticker: 'USDT',
  network: 'ethereum',
  currency_type: 'crypto',
  precision: 6,
  name: 'Tether',
  icon_url: 'https://example.com/usdt.svg',
};
const USDT_TRON: Currency = { ...USDT_ETH, id: 16, network: 'tron' };

describe('the checked-in dictionary (currencies.ts)', () => {
  const all = currencyDictionary.currencies;

  test('loads and validates', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all).toHaveLength((data as { currencies: unknown[] }).currencies.length);
    expect(() => CurrencyFileSchema.parse(data)).not.toThrow();
  });

  test('ids are unique positive integers', () => {
    const ids = all.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(Number.isInteger(id)).toBe(true);
      expect(id).toBeGreaterThan(0);
    }
  });

  test('ticker + network pairs are unique', () => {
    const keys = all.map((c) => `${c.ticker}/${c.network ?? ''}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('has both fiat and crypto entries', () => {
    expect(all.filter((c) => c.currency_type === 'fiat').length).toBeGreaterThan(0);
    expect(all.filter((c) => c.currency_type === 'crypto').length).toBeGreaterThan(0);
  });

  test('fiat entries carry no network; crypto entries carry one', () => {
    for (const c of all) {
      if (c.currency_type === 'fiat') expect(c.network).toBeUndefined();
      else expect(c.network).toMatch(NETWORK_PATTERN);
    }
  });

  test('precision is an integer between 0 and 18', () => {
    for (const c of all) {
      expect(Number.isInteger(c.precision)).toBe(true);
      expect(c.precision).toBeGreaterThanOrEqual(0);
      expect(c.precision).toBeLessThanOrEqual(18);
    }
  });

  test('known entries: USD, JPY (precision 0), BTC on bitcoin, ETH on ethereum (precision 18)', () => {
    expect(currencyDictionary.get(1)).toMatchObject({ ticker: 'USD', currency_type: 'fiat', precision: 2 });
    expect(currencyDictionary.get(7)).toMatchObject({ ticker: 'JPY', currency_type: 'fiat', precision: 0 });
    expect(currencyDictionary.get(13)).toMatchObject({ ticker: 'BTC', network: 'bitcoin', currency_type: 'crypto', precision: 8 });
    expect(currencyDictionary.get(14)).toMatchObject({ ticker: 'ETH', network: 'ethereum', currency_type: 'crypto', precision: 18 });
  });

  test('fiat() / crypto() / get() on every entry return the right kind', () => {
    for (const c of all) {
      expect(currencyDictionary.get(c.id)).toBe(c);
      if (c.currency_type === 'fiat') {
        expect(currencyDictionary.fiat(c.id)).toBe(c);
        expect(currencyDictionary.crypto(c.id)).toBeUndefined();
      } else {
        expect(currencyDictionary.crypto(c.id)).toBe(c);
        expect(currencyDictionary.fiat(c.id)).toBeUndefined();
      }
    }
  });

  test('unknown ids give undefined', () => {
    const unused = Math.max(...all.map((c) => c.id)) + 1;
    for (const id of [0, -1, unused, 1.5, Number.NaN]) {
      expect(currencyDictionary.get(id)).toBeUndefined();
      expect(currencyDictionary.fiat(id)).toBeUndefined();
      expect(currencyDictionary.crypto(id)).toBeUndefined();
    }
  });
});

describe('CurrencyDictionary', () => {
  const dictionary = new CurrencyDictionary([USD, BTC, USDT_ETH, USDT_TRON]);

  test('get() returns any kind by id', () => {
    expect(dictionary.get(1)).toEqual(USD);
    expect(dictionary.get(13)).toEqual(BTC);
    expect(dictionary.get(99)).toBeUndefined();
  });

  test('fiat() returns only fiat', () => {
    expect(dictionary.fiat(1)).toEqual(USD);
    expect(dictionary.fiat(13)).toBeUndefined();
    expect(dictionary.fiat(99)).toBeUndefined();
  });

  test('crypto() returns only crypto', () => {
    expect(dictionary.crypto(13)).toEqual(BTC);
    expect(dictionary.crypto(16)).toEqual(USDT_TRON);
    expect(dictionary.crypto(1)).toBeUndefined();
    expect(dictionary.crypto(99)).toBeUndefined();
  });

  test('the same ticker on two networks is allowed', () => {
    expect(dictionary.crypto(15)?.network).toBe('ethereum');
    expect(dictionary.crypto(16)?.network).toBe('tron');
  });

  test('a duplicate id throws', () => {
    expect(() => new CurrencyDictionary([USD, { ...BTC, id: 1 }])).toThrow('duplicate currency id 1');
  });

  test('a duplicate ticker + network throws', () => {
    expect(() => new CurrencyDictionary([BTC, { ...BTC, id: 99, name: 'Bitcoin again' }])).toThrow('duplicate currency BTC/bitcoin');
  });

  test('a duplicate fiat ticker throws', () => {
    expect(() => new CurrencyDictionary([USD, { ...USD, id: 2 }])).toThrow('duplicate currency USD/fiat');
  });

  test('fromJson validates and builds', () => {
    const built = CurrencyDictionary.fromJson({ currencies: [USD, BTC] });
    expect(built.currencies).toEqual([USD, BTC]);
    expect(built.crypto(13)).toEqual(BTC);
  });

  test.each<[string, unknown]>([
    ['no currencies key', {}],
    ['an empty list', { currencies: [] }],
    ['not an object', 'currencies'],
    ['a bad entry', { currencies: [USD, { ...BTC, precision: 19 }] }],
  ])('fromJson refuses %s', (_label, json) => {
    expect(() => CurrencyDictionary.fromJson(json)).toThrow();
  });

  test('fromJson refuses duplicates too', () => {
    expect(() => CurrencyDictionary.fromJson({ currencies: [USD, { ...BTC, id: 1 }] })).toThrow('duplicate currency id 1');
  });
});

describe('CurrencySchema', () => {
  test.each<[string, Currency]>([
    ['fiat', USD],
    ['crypto', BTC],
    ['precision 0', { ...USD, precision: 0 }],
    ['precision 18', { ...BTC, precision: 18 }],
    ['a 10-character ticker', { ...BTC, ticker: 'ABCDEFGH12' }],
    ['a network with digits and underscores', { ...BTC, network: 'bnb_chain_2' }],
  ])('accepts %s', (_label, entry) => {
    expect(CurrencySchema.safeParse(entry).success).toBe(true);
  });

  test.each<[string, unknown]>([
    ['a fiat with a network', { ...USD, network: 'ethereum' }],
    ['a crypto without a network', { ...BTC, network: undefined }],
    ['id 0', { ...USD, id: 0 }],
    ['a negative id', { ...USD, id: -1 }],
    ['a fractional id', { ...USD, id: 1.5 }],
    ['a string id', { ...USD, id: '1' }],
    ['a lowercase ticker', { ...USD, ticker: 'usd' }],
    ['a one-letter ticker', { ...USD, ticker: 'U' }],
    ['an 11-character ticker', { ...USD, ticker: 'ABCDEFGHIJK' }],
    ['a ticker with a dash', { ...USD, ticker: 'US-D' }],
    ['an uppercase network', { ...BTC, network: 'Bitcoin' }],
    ['a network with a dash', { ...BTC, network: 'bnb-chain' }],
    ['an empty network', { ...BTC, network: '' }],
    ['an unknown currency_type', { ...USD, currency_type: 'stock' }],
    ['a negative precision', { ...USD, precision: -1 }],
    ['precision 19', { ...USD, precision: 19 }],
    ['a fractional precision', { ...USD, precision: 2.5 }],
    ['an empty name', { ...USD, name: '' }],
    ['a bad icon_url', { ...USD, icon_url: 'not a url' }],
    ['a missing name', { id: 1, ticker: 'USD', currency_type: 'fiat', precision: 2, icon_url: 'https://x.example/a.svg' }],
  ])('refuses %s', (_label, entry) => {
    expect(CurrencySchema.safeParse(entry).success).toBe(false);
  });

  test('the network refinement reports on the network path', () => {
    const result = CurrencySchema.safeParse({ ...USD, network: 'ethereum' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['network']);
  });
});
