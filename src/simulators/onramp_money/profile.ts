import type { PaymentMethodProfile, SimulatorProfile } from '../kit/profile';

/** Onramp.money publishes one min/max per fiatType (limits endpoint): every method of a fiat shares it. */
const TERMS = { feeRate: '0.0149', feeFixedUsd: '0', minUsd: '12', maxUsd: '6000' } as const;

const method = (code: string, name: string, fiat: readonly string[]): PaymentMethodProfile => ({ code, name, ...TERMS, fiat });

/**
 * A local-rails provider (UPI, bank transfers, PIX, SEPA) for India, Turkey, Brazil and the euro
 * area; no cards. Codes are Onramp.money's own: assets as `TICKER/<chain symbol>`, payment methods as
 * fetchAllCountryConfig names them.
 */
export const ONRAMP_MONEY_PROFILE: SimulatorProfile = {
  code: 'onramp_money',
  name: 'Onramp.money',
  spread: '0.011',
  networkFeeUsd: '0.35',
  countries: ['IN', 'TR', 'BR', 'DE', 'FR', 'ES', 'IT', 'NL', 'AT', 'BE', 'IE', 'PT', 'FI'],
  fiat: ['INR', 'TRY', 'BRL', 'EUR'],
  assets: [
    'BTC/btc',
    'ETH/erc20',
    'ETH/arbitrum',
    'USDT/erc20',
    'USDT/bep20',
    'USDT/trc20',
    'USDT/matic20',
    'USDT/ton',
    'USDC/erc20',
    'USDC/bep20',
    'USDC/matic20',
    'USDC/spl',
    'SOL/spl',
    'BNB/bep20',
    'TRX/trc20',
  ],
  paymentMethods: [
    method('UPI', 'UPI', ['INR']),
    method('IMPS', 'IMPS', ['INR']),
    method('TRY_BANK_TRANSFER', 'Turkish bank transfer', ['TRY']),
    method('PIX', 'PIX', ['BRL']),
    method('SEPA_BANK_TRANSFER', 'SEPA bank transfer', ['EUR']),
  ],
  quoteTtlSeconds: 60,
};

/**
 * Onramp.money's numbering (allConfigMapping): fiatType per currency code. 1 to 8 as documented;
 * EUR, IDR, GBP and USD are the simulator's own numbers (GBP and USD are mapped but not sold, so a
 * customer who pays in them, the paidFiatCurrency switch, is reported as such).
 */
export const FIAT_TYPES: Readonly<Record<string, number>> = {
  INR: 1,
  TRY: 2,
  AED: 3,
  MXN: 4,
  VND: 5,
  NGN: 6,
  BRL: 7,
  PEN: 8,
  EUR: 12,
  IDR: 14,
  GBP: 20,
  USD: 21,
};
/** coinId per coin code. */
export const COIN_IDS: Readonly<Record<string, number>> = { btc: 0, eth: 6, usdt: 54, bnb: 72, trx: 16, usdc: 116, sol: 138 };
/** chainId per chain symbol, with the aliases the mapping lists beside them. */
export const CHAIN_IDS: Readonly<Record<string, number>> = {
  erc20: 0,
  bep20: 1,
  trc20: 2,
  matic20: 3,
  spl: 4,
  arbitrum: 13,
  ton: 15,
  btc: 10002,
  eth: 0,
  bsc: 1,
  trx: 2,
  matic: 3,
  sol: 4,
};
/** `paymentType` of the widget and of transactions: 1 instant transfer, 2 bank transfer. */
export const PAYMENT_TYPES: Readonly<Record<string, number>> = { UPI: 1, IMPS: 2, TRY_BANK_TRANSFER: 2, PIX: 2, SEPA_BANK_TRANSFER: 2 };
