/**
 * Coinbase's payment method ids (buy options limits, quotes, `defaultPaymentMethod`) and the broker
 * codes they stand for. Coinbase balances (`FIAT_WALLET`, `CRYPTO_ACCOUNT`) have no broker code
 * and are left out.
 */
export interface CoinbaseMethod {
  id: string;
  code: string;
  name: string;
}

export const COINBASE_METHODS: readonly CoinbaseMethod[] = [
  { id: 'CARD', code: 'card', name: 'Debit card' },
  { id: 'APPLE_PAY', code: 'apple_pay', name: 'Apple Pay' },
  { id: 'ACH_BANK_ACCOUNT', code: 'ach', name: 'ACH bank transfer' },
];

export const methodByCode = (code: string): CoinbaseMethod | undefined => COINBASE_METHODS.find((m) => m.code === code);
export const methodById = (id: string): CoinbaseMethod | undefined => COINBASE_METHODS.find((m) => m.id === id);
