import { simStatusOf } from '../../../../src/simulators/paybis/orders';

test("a phantom's status is read in the webhook's words or the list's, and nothing else", () => {
  expect(simStatusOf('completed')).toBe('completed');
  expect(simStatusOf('payment-error')).toBe('payment-error');
  expect(simStatusOf('payment_error')).toBe('payment-error');
  expect(simStatusOf('refunded')).toBeUndefined();
  expect(simStatusOf('created')).toBeUndefined();
});
