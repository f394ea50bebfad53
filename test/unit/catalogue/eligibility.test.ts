import {
  cryptoSoldIn,
  eligibleMethods,
  methodsFor,
  sellsCryptoIn,
  servesRegion,
  supportsPair,
  type OfferRequestTerms,
} from '../../../src/catalogue/eligibility';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { FiatCurrency } from '../../../src/domain/currency';
import { decimal } from '../../../src/domain/money';
import type { CataloguePaymentMethod, ProviderCatalogue } from '../../../src/providers/types';

const USD = 1;
const EUR = 2;
const BTC = 13;
const ETH = 14;
const USDT = 15;

function method(code: string, limits: CataloguePaymentMethod['limits']): CataloguePaymentMethod {
  return { code, name: code, icon_url: null, fee: '1%', limits };
}

function catalogue(
  paymentMethods: CataloguePaymentMethod[] = [
    method('card', { [USD]: { min: '20', max: '5000' }, [EUR]: { min: '15', max: '4000' } }),
    method('bank_transfer', { [USD]: { min: '50', max: '20000' } }),
  ],
): ProviderCatalogue {
  return {
    fiat: [USD, EUR],
    crypto: [BTC],
    countries: [{ code: 'GB' }, { code: 'US', states: ['CA', 'NY'] }],
    paymentMethods,
  };
}

function terms(
  overrides: Partial<Omit<OfferRequestTerms, 'amount' | 'fiat'>> & { amount?: string; fiat?: number } = {},
): OfferRequestTerms {
  const { amount = '100', fiat = USD, ...rest } = overrides;
  return { fiat: currencyDictionary.fiat(fiat) as FiatCurrency, crypto: BTC, country: 'GB', ...rest, amount: decimal(amount) };
}

const codes = (result: ReturnType<typeof eligibleMethods>) => (Array.isArray(result) ? result.map((m) => m.code) : result);

describe('servesRegion', () => {
  test('a served country without states needs no state', () => {
    expect(servesRegion(catalogue(), 'GB')).toBeUndefined();
    expect(servesRegion(catalogue(), 'GB', 'XX')).toBeUndefined();
  });

  test('an unserved country is a country reason', () => {
    expect(servesRegion(catalogue(), 'DE')).toEqual({ code: 'country', message: 'does not serve DE' });
  });

  test('a country served in some states needs one of them', () => {
    expect(servesRegion(catalogue(), 'US', 'CA')).toBeUndefined();
    expect(servesRegion(catalogue(), 'US')).toEqual({ code: 'state', message: 'serves only some states of US' });
    expect(servesRegion(catalogue(), 'US', 'TX')).toEqual({ code: 'state', message: 'does not serve US-TX' });
  });
});

describe('supportsPair and methodsFor', () => {
  test('both currencies must be sold', () => {
    expect(supportsPair(catalogue(), USD, BTC)).toBe(true);
    expect(supportsPair(catalogue(), USD, ETH)).toBe(false);
    expect(supportsPair(catalogue(), 3, BTC)).toBe(false);
  });

  test('a method takes only the fiat currencies it has limits for', () => {
    expect(methodsFor(catalogue(), USD).map((m) => m.code)).toEqual(['card', 'bank_transfer']);
    expect(methodsFor(catalogue(), EUR).map((m) => m.code)).toEqual(['card']);
    expect(methodsFor(catalogue(), 3)).toEqual([]);
  });
});

describe('payment rails of one region', () => {
  const withRails = () =>
    catalogue([
      method('card', { [USD]: { min: '20', max: '5000' } }),
      method('ach', { [USD]: { min: '10', max: '25000' } }),
      method('sepa', { [EUR]: { min: '10', max: '25000' } }),
    ]);

  test('methodsFor with a country leaves out a rail that does not work there; without one, nothing is left out', () => {
    expect(methodsFor(withRails(), USD, 'GB').map((m) => m.code)).toEqual(['card']);
    expect(methodsFor(withRails(), USD, 'US').map((m) => m.code)).toEqual(['card', 'ach']);
    expect(methodsFor(withRails(), USD).map((m) => m.code)).toEqual(['card', 'ach']);
    expect(methodsFor(withRails(), EUR, 'GB').map((m) => m.code)).toEqual(['sepa']);
    expect(methodsFor(withRails(), EUR, 'US')).toEqual([]);
  });

  test('offers in a country use only the rails that work there, and say why a requested one is out', () => {
    expect(codes(eligibleMethods(withRails(), terms({ country: 'GB' })))).toEqual(['card']);
    expect(codes(eligibleMethods(withRails(), terms({ country: 'US', state: 'CA' })))).toEqual(['card', 'ach']);
    expect(eligibleMethods(withRails(), terms({ country: 'GB', paymentMethod: 'ach' }))).toEqual({
      code: 'payment_method',
      message: 'ach is not available in GB',
    });
    // below the card minimum in GB, ACH's lower minimum does not count
    expect(eligibleMethods(withRails(), terms({ country: 'GB', amount: '15' }))).toMatchObject({ code: 'limits', min_amount: '20.00' });
  });
});

describe('crypto currencies not sold in some places', () => {
  /** USDT is sold, but not in Canada nor in New York; BTC is sold everywhere served. */
  function restricted(): ProviderCatalogue {
    return {
      ...catalogue(),
      crypto: [BTC, USDT],
      countries: [{ code: 'GB' }, { code: 'CA' }, { code: 'US', states: ['CA', 'NY'] }],
      cryptoNotSoldIn: { [USDT]: { countries: ['CA'], states: { US: ['NY'] } } },
    };
  }

  test('an excluded country is a country reason, an excluded state a state reason', () => {
    expect(sellsCryptoIn(restricted(), USDT, 'CA')).toEqual({ code: 'country', message: 'does not sell this crypto currency in CA' });
    expect(sellsCryptoIn(restricted(), USDT, 'US', 'NY')).toEqual({
      code: 'state',
      message: 'does not sell this crypto currency in US-NY',
    });
  });

  test('other places, other crypto currencies and catalogues without exclusions are not affected', () => {
    expect(sellsCryptoIn(restricted(), USDT, 'GB')).toBeUndefined();
    expect(sellsCryptoIn(restricted(), USDT, 'US', 'CA')).toBeUndefined();
    // Only "US-NY" is excluded, not a state called NY elsewhere.
    expect(sellsCryptoIn(restricted(), USDT, 'GB', 'NY')).toBeUndefined();
    expect(sellsCryptoIn(restricted(), BTC, 'CA')).toBeUndefined();
    expect(sellsCryptoIn(restricted(), BTC, 'US', 'NY')).toBeUndefined();
    expect(sellsCryptoIn(catalogue(), BTC, 'CA')).toBeUndefined();
  });

  test('supportsPair with a place (the /providers check) leaves the pair out where the crypto currency is not sold', () => {
    expect(supportsPair(restricted(), USD, USDT)).toBe(true);
    expect(supportsPair(restricted(), USD, USDT, { country: 'CA' })).toBe(false);
    expect(supportsPair(restricted(), USD, USDT, { country: 'US', state: 'NY' })).toBe(false);
    expect(supportsPair(restricted(), USD, USDT, { country: 'US', state: 'CA' })).toBe(true);
    // Without a state, sold in some of the country's states counts as sold in it.
    expect(supportsPair(restricted(), USD, USDT, { country: 'US' })).toBe(true);
    expect(supportsPair(restricted(), USD, USDT, { country: 'GB' })).toBe(true);
    expect(supportsPair(restricted(), USD, BTC, { country: 'CA' })).toBe(true);
    expect(supportsPair(restricted(), USD, ETH, { country: 'GB' })).toBe(false);
    expect(supportsPair(restricted(), USD, USDT, {})).toBe(true);
  });

  test('cryptoSoldIn (the /currency_pairs list) keeps catalogue order and drops what the place excludes', () => {
    expect(cryptoSoldIn(restricted(), { country: 'CA' })).toEqual([BTC]);
    expect(cryptoSoldIn(restricted(), { country: 'US', state: 'NY' })).toEqual([BTC]);
    expect(cryptoSoldIn(restricted(), { country: 'US', state: 'CA' })).toEqual([BTC, USDT]);
    expect(cryptoSoldIn(restricted(), { country: 'US' })).toEqual([BTC, USDT]);
    expect(cryptoSoldIn(restricted(), { country: 'GB' })).toEqual([BTC, USDT]);
    expect(cryptoSoldIn(restricted(), {})).toEqual([BTC, USDT]);
    expect(cryptoSoldIn(catalogue(), { country: 'CA' })).toEqual([BTC]);
  });

  test('eligibleMethods refuses before any quote: country or state reason after the pair, before the methods', () => {
    expect(eligibleMethods(restricted(), terms({ crypto: USDT, country: 'CA' }))).toEqual({
      code: 'country',
      message: 'does not sell this crypto currency in CA',
    });
    expect(eligibleMethods(restricted(), terms({ crypto: USDT, country: 'US', state: 'NY', paymentMethod: 'apple_pay' }))).toEqual({
      code: 'state',
      message: 'does not sell this crypto currency in US-NY',
    });
    expect(codes(eligibleMethods(restricted(), terms({ crypto: USDT, country: 'US', state: 'CA' })))).toEqual(['card', 'bank_transfer']);
    expect(codes(eligibleMethods(restricted(), terms({ crypto: USDT, country: 'GB' })))).toEqual(['card', 'bank_transfer']);
    expect(codes(eligibleMethods(restricted(), terms({ crypto: BTC, country: 'CA' })))).toEqual(['card', 'bank_transfer']);
    // The place itself and the pair are checked first.
    expect(eligibleMethods(restricted(), terms({ crypto: USDT, country: 'DE' }))).toMatchObject({
      code: 'country',
      message: 'does not serve DE',
    });
    expect(eligibleMethods(restricted(), terms({ crypto: USDT, country: 'US', state: 'TX' }))).toMatchObject({
      code: 'state',
      message: 'does not serve US-TX',
    });
    expect(eligibleMethods(restricted(), terms({ fiat: 3, crypto: USDT, country: 'CA' }))).toMatchObject({ code: 'currency' });
  });
});

describe('eligibleMethods', () => {
  test('every method whose limits hold the amount, in catalogue order', () => {
    expect(codes(eligibleMethods(catalogue(), terms()))).toEqual(['card', 'bank_transfer']);
    expect(codes(eligibleMethods(catalogue(), terms({ amount: '30' })))).toEqual(['card']);
    expect(codes(eligibleMethods(catalogue(), terms({ amount: '6000' })))).toEqual(['bank_transfer']);
  });

  test('limits are inclusive at both ends, compared as decimals', () => {
    expect(codes(eligibleMethods(catalogue(), terms({ amount: '20' })))).toEqual(['card']);
    expect(codes(eligibleMethods(catalogue(), terms({ amount: '20.00' })))).toEqual(['card']);
    expect(codes(eligibleMethods(catalogue(), terms({ amount: '5000' })))).toEqual(['card', 'bank_transfer']);
    expect(codes(eligibleMethods(catalogue(), terms({ amount: '19.99' })))).toMatchObject({ code: 'limits' });
    expect(codes(eligibleMethods(catalogue(), terms({ amount: '20000.01' })))).toMatchObject({ code: 'limits' });
  });

  test('outside every method, the reason spans the lowest minimum and the highest maximum', () => {
    expect(eligibleMethods(catalogue(), terms({ amount: '5' }))).toEqual({
      code: 'limits',
      message: 'amount must be between 20.00 and 20000.00 USD',
      min_amount: '20.00',
      max_amount: '20000.00',
    });
    expect(eligibleMethods(catalogue(), terms({ amount: '1', paymentMethod: 'bank_transfer' }))).toMatchObject({
      min_amount: '50.00',
      max_amount: '20000.00',
    });
  });

  test('a payment method filter keeps only that method', () => {
    expect(codes(eligibleMethods(catalogue(), terms({ paymentMethod: 'bank_transfer' })))).toEqual(['bank_transfer']);
    expect(eligibleMethods(catalogue(), terms({ paymentMethod: 'apple_pay' }))).toEqual({
      code: 'payment_method',
      message: 'does not offer apple_pay for this currency',
    });
    expect(eligibleMethods(catalogue(), terms({ fiat: EUR, paymentMethod: 'bank_transfer' }))).toMatchObject({ code: 'payment_method' });
  });

  test('a fiat currency no method takes is a payment_method reason', () => {
    const cat = { ...catalogue([method('card', { [EUR]: { min: '1', max: '10' } })]) };
    expect(eligibleMethods(cat, terms())).toEqual({
      code: 'payment_method',
      message: 'does not offer any payment method for this currency',
    });
  });

  test('the region is checked before the pair, and the pair before the methods', () => {
    expect(eligibleMethods(catalogue(), terms({ country: 'DE', crypto: ETH, paymentMethod: 'apple_pay' }))).toMatchObject({
      code: 'country',
    });
    expect(eligibleMethods(catalogue(), terms({ country: 'US', crypto: ETH }))).toMatchObject({ code: 'state' });
    expect(eligibleMethods(catalogue(), terms({ crypto: ETH, paymentMethod: 'apple_pay' }))).toEqual({
      code: 'currency',
      message: 'does not sell this currency pair',
    });
  });

  test('a refreshed catalogue brings its own limits: parsed limits of the old one are not reused', () => {
    const before = catalogue();
    expect(codes(eligibleMethods(before, terms({ amount: '30' })))).toEqual(['card']);
    const after = catalogue([
      method('card', { [USD]: { min: '40', max: '5000' } }),
      method('bank_transfer', { [USD]: { min: '25', max: '90' } }),
    ]);
    expect(codes(eligibleMethods(after, terms({ amount: '30' })))).toEqual(['bank_transfer']);
    expect(codes(eligibleMethods(before, terms({ amount: '30' })))).toEqual(['card']);
  });
});

describe('limits of one crypto currency (cryptoLimits)', () => {
  const narrowed = (cryptoLimits: ProviderCatalogue['cryptoLimits']): ProviderCatalogue => ({
    ...catalogue(),
    crypto: [BTC, ETH],
    cryptoLimits,
  });

  test("the crypto currency's minimum and maximum narrow every method's limits in that fiat currency", () => {
    const cat = narrowed({ [BTC]: { [USD]: { min: '60', max: '8000' } } });
    expect(codes(eligibleMethods(cat, terms({ amount: '30' })))).toMatchObject({
      code: 'limits',
      min_amount: '60.00',
      max_amount: '8000.00',
    });
    expect(codes(eligibleMethods(cat, terms({ amount: '60' })))).toEqual(['card', 'bank_transfer']);
    expect(codes(eligibleMethods(cat, terms({ amount: '6000' })))).toEqual(['bank_transfer']);
    expect(eligibleMethods(cat, terms({ amount: '9000' }))).toEqual({
      code: 'limits',
      message: 'amount must be between 60.00 and 8000.00 USD',
      min_amount: '60.00',
      max_amount: '8000.00',
    });
  });

  test('other crypto currencies and other fiat currencies keep the methods’ limits', () => {
    const cat = narrowed({ [BTC]: { [USD]: { min: '60', max: '8000' } } });
    expect(codes(eligibleMethods(cat, terms({ crypto: ETH, amount: '30' })))).toEqual(['card']);
    expect(codes(eligibleMethods(cat, terms({ fiat: EUR, amount: '30' })))).toEqual(['card']);
  });

  test('a minimum above every method’s maximum leaves no method: a payment_method reason, not an empty range', () => {
    const cat = narrowed({ [BTC]: { [USD]: { min: '30000', max: '90000' } } });
    expect(eligibleMethods(cat, terms({ amount: '30000' }))).toEqual({
      code: 'payment_method',
      message: "no payment method reaches this crypto currency's limits",
    });
  });

  test('a method whose range the crypto currency empties does not widen the reason', () => {
    const cat = narrowed({ [BTC]: { [USD]: { min: '6000', max: '90000' } } });
    expect(eligibleMethods(cat, terms({ amount: '100' }))).toMatchObject({ code: 'limits', min_amount: '6000.00', max_amount: '20000.00' });
  });
});
