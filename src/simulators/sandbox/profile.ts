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
    {
      code: 'bank_transfer',
      name: 'Bank transfer',
      feeRate: '0.01',
      feeFixedUsd: '0',
      minUsd: '50',
      maxUsd: '20000',
      fiat: ['USD', 'GBP', 'CAD', 'AUD', 'CHF', 'PLN', 'SEK', 'BRL'],
    },
    { code: 'sepa', name: 'SEPA transfer', feeRate: '0.008', feeFixedUsd: '0', minUsd: '30', maxUsd: '20000', fiat: ['EUR'] },
  ],
  quoteTtlSeconds: 300,
};
