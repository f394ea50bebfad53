import type { SellProfile } from '../kit/sell-pricing';
import { TRANSAK_PROFILE } from './profile';

/**
 * What the simulated Transak buys: assets on networks whose deposits need no tag, paid out by the
 * two payout methods seen in Transak's sell data (SEPA in EUR, Faster Payments in GBP), in the
 * countries it serves.
 */
export const TRANSAK_SELL_PROFILE: SellProfile = {
  spread: '0.0099',
  networkFeeUsd: '0',
  countries: TRANSAK_PROFILE.countries,
  states: TRANSAK_PROFILE.states,
  fiat: ['EUR', 'GBP'],
  assets: [
    'BTC/mainnet',
    'LTC/mainnet',
    'ETH/ethereum',
    'ETH/arbitrum',
    'ETH/base',
    'USDT/ethereum',
    'USDT/tron',
    'USDC/ethereum',
    'USDC/polygon',
    'USDC/solana',
    'SOL/solana',
  ],
  cryptoMinUsd: '30',
  cryptoMaxUsd: '15000',
  payoutMethods: [
    {
      code: 'sepa_bank_transfer',
      name: 'SEPA Bank Transfer',
      feeRate: '0.0499',
      feeFixedUsd: '0',
      minUsd: '25',
      maxUsd: '15000',
      fiat: ['EUR'],
    },
    {
      code: 'gbp_bank_transfer',
      name: 'Faster Payments',
      feeRate: '0.0499',
      feeFixedUsd: '0',
      minUsd: '25',
      maxUsd: '15000',
      fiat: ['GBP'],
    },
  ],
  quoteTtlSeconds: 60,
};

/** A sell order's deposit window: an hour, as in Transak's example (`autoExpiresAt` one hour after `createdAt`). */
export const SELL_DEPOSIT_WINDOW_MS = 60 * 60_000;
