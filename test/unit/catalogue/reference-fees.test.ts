import {
  REFERENCE_QUOTE_TRIES,
  REFERENCE_USER,
  referenceQuotes,
  withReferenceFees,
  type QuoteFn,
} from '../../../src/catalogue/reference-fees';
import { currencyDictionary } from '../../../src/domain/currencies';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type CataloguePaymentMethod,
  type ProviderCatalogue,
  type QuoteRequest,
} from '../../../src/providers/types';

const USD = 1;
const EUR = 2;
const GBP = 3;
const CAD = 4;
const BTC = 13;
const USDT = 15;

const method = (code: string, limits: CataloguePaymentMethod['limits'], fee?: string): CataloguePaymentMethod => ({
  code,
  name: code,
  icon_url: null,
  limits,
  ...(fee === undefined ? {} : { fee }),
});

const catalogue = (paymentMethods: CataloguePaymentMethod[], over: Partial<ProviderCatalogue> = {}): ProviderCatalogue => ({
  fiat: [USD, EUR, GBP],
  crypto: [BTC, USDT],
  countries: [{ code: 'GB' }, { code: 'US', states: ['NY', 'TX'] }],
  paymentMethods,
  ...over,
});

const summary = (r: QuoteRequest) => ({
  fiat: r.fiat.ticker,
  crypto: r.crypto.id,
  amount: r.fiatAmount,
  country: r.country,
  state: r.state,
});

describe('referenceQuotes', () => {
  test('ten times the minimum, in the first served country the method works in, for the first crypto currency', () => {
    const card = method('card', { [USD]: { min: '25', max: '15000' }, [EUR]: { min: '20', max: '100' } });
    const requests = referenceQuotes(catalogue([card]), card, currencyDictionary);
    expect(requests.map(summary)).toEqual([
      { fiat: 'USD', crypto: BTC, amount: '250', country: 'GB', state: undefined },
      { fiat: 'EUR', crypto: BTC, amount: '100', country: 'GB', state: undefined },
    ]);
    expect(requests[0]).toMatchObject({ paymentMethod: 'card', externalUserId: REFERENCE_USER });
  });

  test('a regional rail is asked where it works, in a served state', () => {
    const ach = method('ach', { [USD]: { min: '50', max: '25000' } });
    expect(referenceQuotes(catalogue([ach]), ach, currencyDictionary).map(summary)).toEqual([
      { fiat: 'USD', crypto: BTC, amount: '500', country: 'US', state: 'NY' },
    ]);
  });

  test("a country with states the provider does not list takes the dictionary's first; one it serves in no state is passed over", () => {
    const ach = method('ach', { [USD]: { min: '5', max: '500' } });
    expect(referenceQuotes(catalogue([ach], { countries: [{ code: 'US' }] }), ach, currencyDictionary).map(summary)).toEqual([
      { fiat: 'USD', crypto: BTC, amount: '50', country: 'US', state: 'AK' },
    ]);
    expect(
      referenceQuotes(catalogue([ach], { countries: [{ code: 'US', states: [] }, { code: 'PR' }] }), ach, currencyDictionary).map(
        (r) => r.country,
      ),
    ).toEqual(['PR']);
  });

  test('a crypto currency not sold in the reference place is passed over', () => {
    const card = method('card', { [USD]: { min: '25', max: '15000' } });
    const restricted = catalogue([card], { cryptoNotSoldIn: { [BTC]: { countries: ['GB'] } } });
    expect(referenceQuotes(restricted, card, currencyDictionary).map((r) => r.crypto.id)).toEqual([USDT]);
  });

  test("the crypto currency's own limits narrow the method's; a fiat currency they leave no room in is skipped", () => {
    const card = method('card', {
      [USD]: { min: '10', max: '1000' },
      [EUR]: { min: '10', max: '1000' },
      [GBP]: { min: '10', max: '1000' },
    });
    const own = catalogue([card], { cryptoLimits: { [BTC]: { [USD]: { min: '30', max: '200' }, [EUR]: { min: '2000', max: '5000' } } } });
    expect(referenceQuotes(own, card, currencyDictionary).map(summary)).toEqual([
      { fiat: 'USD', crypto: BTC, amount: '200', country: 'GB', state: undefined },
      { fiat: 'GBP', crypto: BTC, amount: '100', country: 'GB', state: undefined },
    ]);
  });

  test('the amount is written at the fiat precision', () => {
    const card = method('card', { [USD]: { min: '2.555', max: '100' } });
    expect(referenceQuotes(catalogue([card]), card, currencyDictionary)[0]!.fiatAmount).toBe('25.55');
  });

  test(`at most ${REFERENCE_QUOTE_TRIES} fiat currencies, skipping IDs that are not fiat`, () => {
    const limit = { min: '10', max: '1000' };
    const many = method('card', { [USD]: limit, [EUR]: limit, [BTC]: limit, [GBP]: limit, [CAD]: limit, 5: limit, 6: limit });
    const requests = referenceQuotes(catalogue([many]), many, currencyDictionary);
    expect(requests).toHaveLength(REFERENCE_QUOTE_TRIES);
    expect(requests.map((r) => r.fiat.ticker).slice(0, 4)).toEqual(['USD', 'EUR', 'GBP', 'CAD']);
  });

  test('nothing to ask without a country the method works in or a crypto currency', () => {
    const pix = method('pix', { [USD]: { min: '10', max: '100' } });
    expect(referenceQuotes(catalogue([pix]), pix, currencyDictionary)).toEqual([]);
    const card = method('card', { [USD]: { min: '10', max: '100' } });
    expect(referenceQuotes(catalogue([card], { crypto: [] }), card, currencyDictionary)).toEqual([]);
  });
});

describe('withReferenceFees', () => {
  const quoteAnswering = (answer: (r: QuoteRequest) => { fee: string } | Error) => {
    const asked: string[] = [];
    const quote: QuoteFn = (r) => {
      asked.push(`${r.paymentMethod}:${r.fiat.ticker}`);
      const a = answer(r);
      if (a instanceof Error) return Promise.reject(a);
      return Promise.resolve({
        fiatAmount: r.fiatAmount,
        cryptoAmount: '0.001',
        processingFee: a.fee,
        networkFee: '1',
        paymentMethod: r.paymentMethod,
      });
    };
    return { quote, asked };
  };

  test("a method without a fee gets the processing fee's share of its reference quote; a published fee is kept and not asked for", async () => {
    const { quote, asked } = quoteAnswering(() => ({ fee: '4.98' }));
    const result = await withReferenceFees(
      catalogue([method('card', { [USD]: { min: '25', max: '15000' } }), method('sepa', { [EUR]: { min: '10', max: '100' } }, '0.5%')]),
      quote,
      { currencies: currencyDictionary },
    );
    expect(result.paymentMethods.map((m) => [m.code, m.fee])).toEqual([
      ['card', '1.99%'],
      ['sepa', '0.5%'],
    ]);
    expect(asked).toEqual(['card:USD']);
  });

  test('a refusal tries the next fiat currency', async () => {
    const { quote, asked } = quoteAnswering((r) =>
      r.fiat.ticker === 'USD' ? new ProviderRejectedError('currency', 'no USD') : { fee: '2' },
    );
    const card = method('card', { [USD]: { min: '10', max: '100' }, [EUR]: { min: '10', max: '100' } });
    const result = await withReferenceFees(catalogue([card]), quote, { currencies: currencyDictionary });
    expect(result.paymentMethods[0]!.fee).toBe('2%');
    expect(asked).toEqual(['card:USD', 'card:EUR']);
  });

  test('an outage stops at once and keeps the fee of the catalogue it replaces', async () => {
    const { quote, asked } = quoteAnswering(() => new ProviderUnavailableError('down'));
    const card = method('card', { [USD]: { min: '10', max: '100' }, [EUR]: { min: '10', max: '100' } });
    const missing: string[] = [];
    const result = await withReferenceFees(catalogue([card]), quote, {
      currencies: currencyDictionary,
      previous: catalogue([method('card', {}, '3%')]),
      onMissing: (m) => missing.push(m),
    });
    expect(result.paymentMethods[0]!.fee).toBe('3%');
    expect(asked).toEqual(['card:USD']);
    expect(missing).toEqual([]);
  });

  test('a method with no fee to read or keep stays without one, and is reported', async () => {
    const { quote } = quoteAnswering(() => new ProviderRejectedError('limits', 'no'));
    const missing: [string, string][] = [];
    const result = await withReferenceFees(
      catalogue([method('card', { [USD]: { min: '10', max: '100' } }), method('pix', { [USD]: { min: '1', max: '9' } })]),
      quote,
      {
        currencies: currencyDictionary,
        onMissing: (m, err) => missing.push([m, (err as Error).message]),
      },
    );
    expect(result.paymentMethods.map((m) => m.fee)).toEqual([undefined, undefined]);
    expect(missing.sort(([a], [b]) => a.localeCompare(b))).toEqual([
      ['card', 'no'],
      ['pix', expect.stringContaining('no reference quote can be asked')],
    ]);
  });

  test('a miss is reported transient after a timeout, an abort or an outage; not when refused everywhere or nothing could be asked', async () => {
    const errors: Record<string, Error> = {
      outage: new ProviderUnavailableError('GET /quote: HTTP 503'),
      timeout: new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      aborted: new DOMException('This operation was aborted', 'AbortError'),
      refused: new ProviderRejectedError('currency', 'no'),
      odd: new Error('a failure of no known kind'),
    };
    // (Not quoteAnswering: under jest a DOMException is no instance of the test's Error.)
    const quote: QuoteFn = (r) => Promise.reject(errors[r.paymentMethod]!);
    const missing: Record<string, boolean> = {};
    const limits = { [USD]: { min: '10', max: '100' }, [EUR]: { min: '10', max: '100' } };
    await withReferenceFees(
      catalogue([...Object.keys(errors).map((code) => method(code, limits)), method('nothing', { [USD]: { min: '1', max: '9' } })]),
      quote,
      { currencies: currencyDictionary, onMissing: (m, _err, transient) => (missing[m] = transient) },
    );
    expect(missing).toEqual({ outage: true, timeout: true, aborted: true, refused: false, odd: false, nothing: false });
  });

  test('keepPrevious takes the fees the previous catalogue has without asking, and asks only for the others', async () => {
    const { quote, asked } = quoteAnswering(() => ({ fee: '5' }));
    const limits = { [USD]: { min: '10', max: '100' } };
    const result = await withReferenceFees(catalogue([method('card', limits), method('google_pay', limits)]), quote, {
      currencies: currencyDictionary,
      previous: catalogue([method('card', {}, '3%'), method('google_pay', {})]),
      keepPrevious: true,
    });
    expect(result.paymentMethods.map((m) => [m.code, m.fee])).toEqual([
      ['card', '3%'],
      ['google_pay', '5%'],
    ]);
    expect(asked).toEqual(['google_pay:USD']);
  });

  test('a catalogue whose methods all publish a fee is returned as it is', async () => {
    const { quote, asked } = quoteAnswering(() => ({ fee: '1' }));
    const published = catalogue([method('card', { [USD]: { min: '10', max: '100' } }, '1%')]);
    expect(await withReferenceFees(published, quote, { currencies: currencyDictionary })).toBe(published);
    expect(asked).toEqual([]);
  });
});
