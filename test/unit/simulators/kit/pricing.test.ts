import { quote, type QuoteInput, type QuoteResult } from '../../../../src/simulators/kit/pricing';
import type { SimulatorProfile } from '../../../../src/simulators/kit/profile';
import { SANDBOX_PROFILE } from '../../../../src/simulators/sandbox/profile';

const CARD = SANDBOX_PROFILE.paymentMethods.find((m) => m.code === 'card')!;
const SEPA = SANDBOX_PROFILE.paymentMethods.find((m) => m.code === 'sepa')!;
const BANK = SANDBOX_PROFILE.paymentMethods.find((m) => m.code === 'bank_transfer')!;

/** The sandbox profile with yen added (the stock profile does not sell for JPY). */
const WITH_JPY: SimulatorProfile = {
  ...SANDBOX_PROFILE,
  fiat: [...SANDBOX_PROFILE.fiat, 'JPY'],
  countries: [...SANDBOX_PROFILE.countries, 'JP'],
};

function input(overrides: Partial<QuoteInput> = {}): QuoteInput {
  return {
    fiat: 'USD',
    crypto: 'BTC',
    network: 'bitcoin',
    fiatAmount: '100',
    paymentMethod: 'card',
    country: 'US',
    state: 'CA',
    ...overrides,
  };
}

function failure(result: QuoteResult): Extract<QuoteResult, { ok: false }> {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result;
}

function success(result: QuoteResult): Extract<QuoteResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected a quote, got ${JSON.stringify(result)}`);
  return result;
}

describe('quote: supported cases', () => {
  test('USD 100 by card for BTC', () => {
    // fee 100 * 0.0399 + 0.30 = 4.29; network fee 1.50; price 95000 * 1.012 = 96140; 94.21 / 96140
    expect(quote(SANDBOX_PROFILE, input())).toEqual({
      ok: true,
      price: '96140.00',
      cryptoAmount: '0.00097992',
      processingFee: '4.29',
      networkFee: '1.50',
      method: CARD,
    });
  });

  test('EUR 250 by SEPA for ETH on ethereum', () => {
    // fee 250 * 0.008 = 2.00; network 1.50 * 0.92 = 1.38; price 3200 * 0.92 * 1.012 = 2979.328 (shown rounded up)
    expect(
      quote(
        SANDBOX_PROFILE,
        input({ fiat: 'EUR', crypto: 'ETH', network: 'ethereum', fiatAmount: '250', paymentMethod: 'sepa', country: 'DE' }),
      ),
    ).toEqual({
      ok: true,
      price: '2979.33',
      cryptoAmount: '0.08277705',
      processingFee: '2.00',
      networkFee: '1.38',
      method: SEPA,
    });
  });

  test('GBP 1000 by bank transfer for SOL', () => {
    expect(
      quote(
        SANDBOX_PROFILE,
        input({ fiat: 'GBP', crypto: 'SOL', network: 'solana', fiatAmount: '1000', paymentMethod: 'bank_transfer', country: 'GB' }),
      ),
    ).toEqual({ ok: true, price: '143.91', cryptoAmount: '6.87120239', processingFee: '10.00', networkFee: '1.19', method: BANK });
  });

  test('stablecoins get 6 decimals', () => {
    const result = success(quote(SANDBOX_PROFILE, input({ crypto: 'USDT', network: 'tron' })));
    expect(result.cryptoAmount).toBe('93.092885');
    expect(result.price).toBe('1.02');
  });

  test('JPY fees have no decimals', () => {
    // fee 15000 * 0.0399 + 0.30 * 151 = 643.8 -> 644; network 1.5 * 151 = 226.5 -> 227; price 95000 * 151 * 1.012
    expect(quote(WITH_JPY, input({ fiat: 'JPY', fiatAmount: '15000', country: 'JP' }))).toEqual({
      ok: true,
      price: '14517140',
      cryptoAmount: '0.00097326',
      processingFee: '644',
      networkFee: '227',
      method: CARD,
    });
  });

  test('the country is optional', () => {
    expect(success(quote(SANDBOX_PROFILE, input({ country: undefined }))).cryptoAmount).toBe('0.00097992');
  });

  test.each(SANDBOX_PROFILE.assets)('%s: positive crypto amount, fees at 2 decimals', (asset) => {
    const [crypto, network] = asset.split('/') as [string, string];
    const result = success(quote(SANDBOX_PROFILE, input({ crypto, network, fiatAmount: '500' })));
    expect(Number(result.cryptoAmount)).toBeGreaterThan(0);
    expect(result.cryptoAmount).toMatch(/^\d+(\.\d{1,8})?$/);
    expect(result.processingFee).toMatch(/^\d+\.\d{2}$/);
    expect(result.networkFee).toMatch(/^\d+\.\d{2}$/);
    expect(result.price).toMatch(/^\d+\.\d{2}$/);
  });

  // Bank transfer (1 %) in every fiat it takes; SEPA (0.8 %) for EUR.
  test.each(SANDBOX_PROFILE.fiat)('%s: fees at 2 decimals', (fiat) => {
    const method = fiat === 'EUR' ? 'sepa' : 'bank_transfer';
    const result = success(quote(SANDBOX_PROFILE, input({ fiat, fiatAmount: '1000', paymentMethod: method })));
    expect(result.processingFee).toBe(fiat === 'EUR' ? '8.00' : '10.00');
    expect(result.networkFee).toMatch(/^\d+\.\d{2}$/);
  });

  test('fees are rounded up', () => {
    // 33.33 * 0.0399 + 0.30 = 1.629867 -> 1.63
    expect(success(quote(SANDBOX_PROFILE, input({ fiatAmount: '33.33' }))).processingFee).toBe('1.63');
  });
});

describe('quote: unsupported requests', () => {
  test.each<[string, Partial<QuoteInput>, string, string]>([
    ['an unknown fiat', { fiat: 'XYZ' }, 'unsupported_fiat', 'fiat XYZ is not supported'],
    ['a fiat the market knows but the profile does not sell', { fiat: 'JPY' }, 'unsupported_fiat', 'fiat JPY is not supported'],
    ['a lowercase fiat', { fiat: 'usd' }, 'unsupported_fiat', 'fiat usd is not supported'],
    ['an unknown asset', { crypto: 'XYZ' }, 'unsupported_asset', 'XYZ on bitcoin is not supported'],
    ['an asset on another network', { network: 'ethereum' }, 'unsupported_asset', 'BTC on ethereum is not supported'],
    [
      'a market asset the profile does not sell',
      { crypto: 'DOGE', network: 'dogecoin' },
      'unsupported_asset',
      'DOGE on dogecoin is not supported',
    ],
    ['an unserved country', { country: 'JP' }, 'unsupported_country', 'country JP is not served'],
    ['an unserved state', { country: 'US', state: 'NY' }, 'unsupported_state', 'state NY of US is not served'],
    ['a US order without a state', { country: 'US', state: undefined }, 'unsupported_state', 'state (none) of US is not served'],
    ['a method not taking this fiat', { paymentMethod: 'sepa' }, 'unsupported_payment_method', 'payment method sepa is not offered'],
    ['an unknown payment method', { paymentMethod: 'paypal' }, 'unsupported_payment_method', 'payment method paypal is not offered'],
  ])('%s', (_label, change, code, message) => {
    expect(quote(SANDBOX_PROFILE, input(change))).toEqual({ ok: false, status: 422, code, message });
  });

  test('fiat is checked before asset, asset before country, country before payment method', () => {
    const all = { fiat: 'XYZ', crypto: 'XYZ', country: 'JP', paymentMethod: 'paypal' };
    expect(failure(quote(SANDBOX_PROFILE, input(all))).code).toBe('unsupported_fiat');
    expect(failure(quote(SANDBOX_PROFILE, input({ ...all, fiat: 'USD' }))).code).toBe('unsupported_asset');
    expect(failure(quote(SANDBOX_PROFILE, input({ ...all, fiat: 'USD', crypto: 'BTC' }))).code).toBe('unsupported_country');
    expect(failure(quote(SANDBOX_PROFILE, input({ paymentMethod: 'paypal', fiatAmount: '1' }))).code).toBe('unsupported_payment_method');
  });
});

describe('quote: amount limits', () => {
  test.each<[string, string, string, string, string]>([
    // fiat, method, amount, min, max
    ['USD', 'card', '19.99', '20.00', '5000.00'],
    ['USD', 'card', '5000.01', '20.00', '5000.00'],
    ['EUR', 'card', '18.39', '18.40', '4600.00'],
    ['EUR', 'card', '4600.01', '18.40', '4600.00'],
    ['SEK', 'bank_transfer', '529.99', '530.00', '212000.00'],
    ['EUR', 'sepa', '27.59', '27.60', '18400.00'],
    ['USD', 'card', '0', '20.00', '5000.00'],
  ])('%s %s %s is out of range (%s to %s)', (fiat, paymentMethod, fiatAmount, min, max) => {
    expect(quote(SANDBOX_PROFILE, input({ fiat, paymentMethod, fiatAmount }))).toEqual({
      ok: false,
      status: 422,
      code: 'amount_out_of_range',
      message: `amount must be between ${min} and ${max} ${fiat}`,
      min,
      max,
    });
  });

  test.each<[string, string, string]>([
    ['USD', 'card', '20'],
    ['USD', 'card', '5000'],
    ['EUR', 'card', '18.40'],
    ['EUR', 'card', '4600.00'],
    ['SEK', 'bank_transfer', '530'],
  ])('%s %s %s is inside the bounds', (fiat, paymentMethod, fiatAmount) => {
    expect(quote(SANDBOX_PROFILE, input({ fiat, paymentMethod, fiatAmount })).ok).toBe(true);
  });

  test('JPY bounds are whole yen', () => {
    expect(quote(WITH_JPY, input({ fiat: 'JPY', fiatAmount: '3019', country: 'JP' }))).toEqual({
      ok: false,
      status: 422,
      code: 'amount_out_of_range',
      message: 'amount must be between 3020 and 755000 JPY',
      min: '3020',
      max: '755000',
    });
    expect(quote(WITH_JPY, input({ fiat: 'JPY', fiatAmount: '3020', country: 'JP' })).ok).toBe(true);
    expect(failure(quote(WITH_JPY, input({ fiat: 'JPY', fiatAmount: '755001', country: 'JP' }))).max).toBe('755000');
  });

  test('an amount that does not cover the fees is out of range with only a minimum', () => {
    const noMinimum: SimulatorProfile = {
      ...SANDBOX_PROFILE,
      paymentMethods: [{ ...CARD, minUsd: '0' }],
    };
    // 1.00 - 0.34 fee - 1.50 network fee < 0
    expect(quote(noMinimum, input({ fiatAmount: '1' }))).toEqual({
      ok: false,
      status: 422,
      code: 'amount_out_of_range',
      message: 'amount does not cover the fees',
      min: '0.00',
    });
  });
});
