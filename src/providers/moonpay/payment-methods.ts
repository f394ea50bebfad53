/**
 * MoonPay's `paymentMethod` ids (widget parameter, quotes, transactions) and the broker codes they
 * stand for. MoonPay's v3 API has no payment-method catalogue, so which fiat currencies each method
 * takes is MoonPay's documented coverage; methods with no broker code (Open Banking, Interac, Venmo,
 * MoonPay balance) are left out.
 */
export interface MoonpayMethod {
  id: string;
  code: string;
  name: string;
  /** Fiat codes (upper case) the method takes; every fiat MoonPay sells for when absent. */
  fiat?: readonly string[];
}

export const MOONPAY_METHODS: readonly MoonpayMethod[] = [
  { id: 'credit_debit_card', code: 'card', name: 'Credit or debit card' },
  { id: 'apple_pay', code: 'apple_pay', name: 'Apple Pay' },
  { id: 'google_pay', code: 'google_pay', name: 'Google Pay' },
  { id: 'paypal', code: 'paypal', name: 'PayPal' },
  { id: 'revolut_pay', code: 'revolut_pay', name: 'Revolut Pay' },
  { id: 'sepa_bank_transfer', code: 'sepa', name: 'SEPA bank transfer', fiat: ['EUR'] },
  { id: 'gbp_bank_transfer', code: 'bank_transfer', name: 'UK bank transfer (Faster Payments)', fiat: ['GBP'] },
  { id: 'ach_bank_transfer', code: 'ach', name: 'ACH bank transfer', fiat: ['USD'] },
  { id: 'pix_instant_payment', code: 'pix', name: 'PIX', fiat: ['BRL'] },
];

export function methodByCode(code: string): MoonpayMethod | undefined {
  return MOONPAY_METHODS.find((m) => m.code === code);
}

export function methodTakes(method: MoonpayMethod, fiat: string): boolean {
  return method.fiat === undefined || method.fiat.includes(fiat);
}
