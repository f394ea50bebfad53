/**
 * Transak's payment method ids and the broker's codes. Methods with no broker code (for example
 * `pm_wire`) are left out. `ach_bank_transfer` is not in Transak's public documentation (see
 * docs/providers/transak.md, "Unconfirmed").
 */
const TRANSAK_TO_BROKER: Readonly<Record<string, string>> = {
  credit_debit_card: 'card',
  apple_pay: 'apple_pay',
  google_pay: 'google_pay',
  sepa_bank_transfer: 'sepa',
  gbp_bank_transfer: 'bank_transfer',
  ach_bank_transfer: 'ach',
};

const BROKER_TO_TRANSAK = new Map(Object.entries(TRANSAK_TO_BROKER).map(([transak, broker]) => [broker, transak]));

export function brokerPaymentMethod(transakId: string): string | undefined {
  return Object.hasOwn(TRANSAK_TO_BROKER, transakId) ? TRANSAK_TO_BROKER[transakId] : undefined;
}

export function transakPaymentMethod(brokerCode: string): string | undefined {
  return BROKER_TO_TRANSAK.get(brokerCode);
}
