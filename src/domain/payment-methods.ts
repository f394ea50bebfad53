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

/**
 * Payment rails that only work in their own country or zone. A method with such a code is offered
 * only there, whatever a provider's catalogue says about the fiat it takes: ACH is US domestic, so
 * a provider taking USD by ACH does not take it from a customer in Germany. Codes not listed (cards,
 * wallets, generic bank transfers) have no inherent region. SEPA: the EPC's list of SEPA scheme
 * countries (EU and EEA members, their outermost regions with their own ISO codes, and the other
 * participants).
 */
export const PAYMENT_METHOD_REGIONS: Partial<Record<PaymentMethodCode, ReadonlySet<string>>> = {
  ach: new Set(['US', 'PR', 'GU', 'VI', 'AS', 'MP']),
  pix: new Set(['BR']),
  upi: new Set(['IN']),
  payid: new Set(['AU']),
  sepa: new Set([
    // EU
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
    // EU outermost regions and territories with their own ISO 3166-1 codes
    'AX',
    'BL',
    'GF',
    'GP',
    'MF',
    'MQ',
    'RE',
    'YT',
    // EEA
    'IS',
    'LI',
    'NO',
    // the other participants
    'AD',
    'AL',
    'CH',
    'GB',
    'GG',
    'GI',
    'IM',
    'JE',
    'MC',
    'MD',
    'ME',
    'MK',
    'PM',
    'SM',
    'VA',
  ]),
};

/** Whether a method code can be used by a customer in this country (always, for a code without a region). */
export function methodWorksIn(code: string, country: string): boolean {
  const region = (PAYMENT_METHOD_REGIONS as Record<string, ReadonlySet<string> | undefined>)[code];
  return region === undefined || region.has(country);
}
