import { country } from '../../../src/domain/countries';
import { methodWorksIn, PAYMENT_METHOD_NAMES, PAYMENT_METHOD_REGIONS, paymentMethodName } from '../../../src/domain/payment-methods';

test('every broker code has a display name; other codes keep the provider name', () => {
  expect(Object.keys(PAYMENT_METHOD_NAMES).sort()).toEqual([
    'ach',
    'apple_pay',
    'bank_transfer',
    'card',
    'google_pay',
    'payid',
    'paypal',
    'pix',
    'revolut_pay',
    'sepa',
    'upi',
  ]);
  expect(paymentMethodName('apple_pay', 'Apple pay')).toBe('Apple Pay');
  expect(paymentMethodName('card', 'Debit credit card')).toBe('Card');
  expect(paymentMethodName('carrier_pigeon', 'Carrier pigeon')).toBe('Carrier pigeon');
});

describe('payment rails that work only in their own region', () => {
  test('are broker codes, and name real ISO 3166-1 countries', () => {
    for (const [code, region] of Object.entries(PAYMENT_METHOD_REGIONS)) {
      expect(Object.keys(PAYMENT_METHOD_NAMES)).toContain(code);
      for (const countryCode of region) expect([code, countryCode, country(countryCode)?.code]).toEqual([code, countryCode, countryCode]);
    }
    expect(Object.keys(PAYMENT_METHOD_REGIONS).sort()).toEqual(['ach', 'payid', 'pix', 'sepa', 'upi']);
  });

  test.each<[string, string, boolean]>([
    ['ach', 'US', true],
    ['ach', 'PR', true],
    ['ach', 'GB', false],
    ['ach', 'CA', false],
    ['pix', 'BR', true],
    ['pix', 'PT', false],
    ['upi', 'IN', true],
    ['upi', 'US', false],
    ['payid', 'AU', true],
    ['payid', 'NZ', false],
    ['sepa', 'DE', true],
    ['sepa', 'GB', true],
    ['sepa', 'CH', true],
    ['sepa', 'RE', true],
    ['sepa', 'US', false],
    ['sepa', 'BR', false],
    ['sepa', 'TR', false],
    ['card', 'GB', true],
    ['bank_transfer', 'BR', true],
    ['carrier_pigeon', 'ZZ', true],
  ])('%s in %s: %s', (code, countryCode, works) => {
    expect(methodWorksIn(code, countryCode)).toBe(works);
  });

  test('SEPA covers every EU member', () => {
    const eu = [
      'AT',
      'BE',
      'BG',
      'HR',
      'CY',
      'CZ',
      'DK',
      'EE',
      'FI',
      'FR',
      'DE',
      'GR',
      'HU',
      'IE',
      'IT',
      'LV',
      'LT',
      'LU',
      'MT',
      'NL',
      'PL',
      'PT',
      'RO',
      'SK',
      'SI',
      'ES',
      'SE',
    ];
    expect(eu).toHaveLength(27);
    for (const code of eu) expect([code, methodWorksIn('sepa', code)]).toEqual([code, true]);
  });
});
