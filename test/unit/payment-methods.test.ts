import { PAYMENT_METHOD_NAMES, paymentMethodName } from '../../src/domain/payment-methods';

test('every broker code has a display name; other codes keep the provider name', () => {
  expect(Object.keys(PAYMENT_METHOD_NAMES).sort()).toEqual(
    ['ach', 'apple_pay', 'bank_transfer', 'card', 'google_pay', 'payid', 'paypal', 'pix', 'revolut_pay', 'sepa', 'upi'],
  );
  expect(paymentMethodName('apple_pay', 'Apple pay')).toBe('Apple Pay');
  expect(paymentMethodName('card', 'Debit credit card')).toBe('Card');
  expect(paymentMethodName('carrier_pigeon', 'Carrier pigeon')).toBe('Carrier pigeon');
});
