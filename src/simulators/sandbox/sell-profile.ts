import { usStatesExcept } from '../kit/profile';
import type { SellProfile } from '../kit/sell-pricing';

/** What Sandbox Pay buys from customers, where, and how it pays them. */
export const SANDBOX_SELL_PROFILE: SellProfile = {
  spread: '0.01',
  networkFeeUsd: '1.00',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'PL', 'SE', 'CA', 'AU', 'CH'],
  states: { US: usStatesExcept('NY', 'HI') },
  fiat: ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'PLN', 'SEK'],
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
    'ETH/base',
    'XRP/ripple',
  ],
  cryptoMinUsd: '10',
  cryptoMaxUsd: '50000',
  payoutMethods: [
    { code: 'card_payout', name: 'Card payout', feeRate: '0.02', feeFixedUsd: '0.50', minUsd: '10', maxUsd: '5000' },
    { code: 'sepa', name: 'SEPA transfer', feeRate: '0.005', feeFixedUsd: '0', minUsd: '10', maxUsd: '25000', fiat: ['EUR'] },
    { code: 'ach', name: 'ACH transfer', feeRate: '0.0075', feeFixedUsd: '0', minUsd: '10', maxUsd: '25000', fiat: ['USD'] },
  ],
  quoteTtlSeconds: 300,
};
