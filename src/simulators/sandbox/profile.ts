import { usStatesExcept, type SimulatorProfile } from '../kit/profile';

/** A broad card-and-bank provider: many countries and assets, mid-range fees. */
export const SANDBOX_PROFILE: SimulatorProfile = {
  code: 'sandbox',
  name: 'Sandbox Pay',
  spread: '0.012',
  networkFeeUsd: '1.50',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'PL', 'SE', 'CA', 'AU', 'CH', 'BR'],
  states: { US: usStatesExcept('NY', 'HI') },
  fiat: ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'PLN', 'SEK', 'BRL'],
  assets: [
    'BTC/bitcoin',
    'ETH/ethereum',
    'USDT/ethereum',
    'USDT/tron',
    'USDC/ethereum',
    'USDC/solana',
    'USDC/polygon',
    'SOL/solana',
    'TRX/tron',
    'LTC/litecoin',
    'POL/polygon',
    'ETH/base',
  ],
  paymentMethods: [
    { code: 'card', name: 'Card', feeRate: '0.0399', feeFixedUsd: '0.30', minUsd: '20', maxUsd: '5000' },
    { code: 'bank_transfer', name: 'Bank transfer', feeRate: '0.01', feeFixedUsd: '0', minUsd: '50', maxUsd: '20000', fiat: ['USD', 'GBP', 'CAD', 'AUD', 'CHF', 'PLN', 'SEK', 'BRL'] },
    { code: 'sepa', name: 'SEPA transfer', feeRate: '0.008', feeFixedUsd: '0', minUsd: '30', maxUsd: '20000', fiat: ['EUR'] },
  ],
  quoteTtlSeconds: 300,
};

/** A European bank-transfer specialist: cheap SEPA, tighter card limits, no Americas. */
export const SANDBOX_EU_PROFILE: SimulatorProfile = {
  code: 'sandbox_eu',
  name: 'Sandbox Euro',
  spread: '0.008',
  networkFeeUsd: '0.90',
  countries: ['GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'IE', 'PT', 'PL', 'SE', 'DK', 'FI', 'CH', 'NO'],
  fiat: ['EUR', 'GBP', 'PLN', 'SEK', 'CHF'],
  assets: ['BTC/bitcoin', 'ETH/ethereum', 'USDC/ethereum', 'USDT/ethereum', 'SOL/solana', 'USDC/solana', 'LTC/litecoin'],
  paymentMethods: [
    { code: 'sepa', name: 'SEPA Instant', feeRate: '0.005', feeFixedUsd: '0', minUsd: '15', maxUsd: '50000', fiat: ['EUR'] },
    { code: 'bank_transfer', name: 'Faster Payments', feeRate: '0.006', feeFixedUsd: '0', minUsd: '15', maxUsd: '30000', fiat: ['GBP'] },
    { code: 'card', name: 'Debit card', feeRate: '0.0299', feeFixedUsd: '0.25', minUsd: '15', maxUsd: '2500' },
  ],
  quoteTtlSeconds: 90,
};

/** A US-first provider: card and ACH in most states, wallets and stablecoins, higher card fees. */
export const SANDBOX_US_PROFILE: SimulatorProfile = {
  code: 'sandbox_us',
  name: 'Sandbox States',
  spread: '0.015',
  networkFeeUsd: '2.00',
  countries: ['US', 'CA'],
  states: { US: usStatesExcept('NY', 'TX', 'LA', 'HI') },
  fiat: ['USD', 'CAD'],
  assets: ['BTC/bitcoin', 'ETH/ethereum', 'USDC/ethereum', 'USDC/base', 'ETH/base', 'USDC/polygon', 'SOL/solana', 'USDT/tron', 'TRX/tron'],
  paymentMethods: [
    { code: 'card', name: 'Credit or debit card', feeRate: '0.045', feeFixedUsd: '0.50', minUsd: '10', maxUsd: '3000' },
    { code: 'ach', name: 'ACH bank transfer', feeRate: '0.0075', feeFixedUsd: '0', minUsd: '25', maxUsd: '25000', fiat: ['USD'] },
    { code: 'apple_pay', name: 'Apple Pay', feeRate: '0.045', feeFixedUsd: '0.50', minUsd: '10', maxUsd: '1500' },
  ],
  quoteTtlSeconds: 120,
};

export const SIMULATOR_PROFILES: readonly SimulatorProfile[] = [SANDBOX_PROFILE, SANDBOX_EU_PROFILE, SANDBOX_US_PROFILE];
