/**
 * The broker's payment-method codes: the same for every provider, so integrators can filter and
 * compare offers by method. Adapters map their provider's own method ids onto these.
 */
export const PAYMENT_METHOD_NAMES = {
  card: 'Card',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
  sepa: 'SEPA bank transfer',
  bank_transfer: 'Bank transfer',
  ach: 'ACH bank transfer',
  pix: 'Pix',
  upi: 'UPI',
  paypal: 'PayPal',
  revolut_pay: 'Revolut Pay',
  payid: 'PayID',
} as const;

export type PaymentMethodCode = keyof typeof PAYMENT_METHOD_NAMES;

/** The broker's name for a method code; the provider's own name for a code the broker does not define. */
export function paymentMethodName(code: string, providerName: string): string {
  return (PAYMENT_METHOD_NAMES as Record<string, string>)[code] ?? providerName;
}
