import { eligibleMethods, methodsFor, servesRegion, supportsPair, type OfferRequestTerms } from '../../src/catalogue/eligibility';
import { decimal } from '../../src/domain/money';
import type { CataloguePaymentMethod, ProviderCatalogue } from '../../src/providers/types';

const USD = 1;
const EUR = 2;
const BTC = 13;
const ETH = 14;

function method(code: string, limits: CataloguePaymentMethod['limits']): CataloguePaymentMethod {
  return { code, name: code, icon_url: null, fee: '1%', limits };
}

function catalogue(paymentMethods: CataloguePaymentMethod[] = [
  method('card', { [USD]: { min: '20', max: '5000' }, [EUR]: { min: '15', max: '4000' } }),
  method('bank_transfer', { [USD]: { min: '50', max: '20000' } }),
]): ProviderCatalogue {
  return {
    fiat: [USD, EUR],
    crypto: [BTC],
    countries: [{ code: 'GB' }, { code: 'US', states: ['CA', 'NY'] }],
    paymentMethods,
  };
}

function terms(overrides: Partial<Omit<OfferRequestTerms, 'amount'>> & { amount?: string } = {}): OfferRequestTerms {
  const { amount = '100', ...rest } = overrides;
  return { fiat: USD, crypto: BTC, country: 'GB', ...rest, amount: decimal(amount) };
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
      message: 'amount must be between 20 and 20000',
      min_amount: '20',
      max_amount: '20000',
    });
    expect(eligibleMethods(catalogue(), terms({ amount: '1', paymentMethod: 'bank_transfer' }))).toMatchObject({ min_amount: '50', max_amount: '20000' });
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
    expect(eligibleMethods(cat, terms())).toEqual({ code: 'payment_method', message: 'does not offer any payment method for this currency' });
  });

  test('the region is checked before the pair, and the pair before the methods', () => {
    expect(eligibleMethods(catalogue(), terms({ country: 'DE', crypto: ETH, paymentMethod: 'apple_pay' }))).toMatchObject({ code: 'country' });
    expect(eligibleMethods(catalogue(), terms({ country: 'US', crypto: ETH }))).toMatchObject({ code: 'state' });
    expect(eligibleMethods(catalogue(), terms({ crypto: ETH, paymentMethod: 'apple_pay' }))).toEqual({
      code: 'currency',
      message: 'does not sell this currency pair',
    });
  });

  test('a refreshed catalogue brings its own limits: parsed limits of the old one are not reused', () => {
    const before = catalogue();
    expect(codes(eligibleMethods(before, terms({ amount: '30' })))).toEqual(['card']);
    const after = catalogue([method('card', { [USD]: { min: '40', max: '5000' } }), method('bank_transfer', { [USD]: { min: '25', max: '90' } })]);
    expect(codes(eligibleMethods(after, terms({ amount: '30' })))).toEqual(['bank_transfer']);
    expect(codes(eligibleMethods(before, terms({ amount: '30' })))).toEqual(['card']);
  });
});
