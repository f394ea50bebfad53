import type { SellProfile } from '../kit/sell-pricing';
import { MERCURYO_PROFILE } from './profile';

/**
 * What the simulated Mercuryo buys by its off-ramp: a few assets (Mercuryo's `TICKER/NETWORK`
 * names), paid out to a card in EUR or USD only ("Only EUR and USD", off-ramp guide), one fee
 * (Mercuryo's sell quote has a single `fee` in the fiat currency).
 */
export const MERCURYO_SELL_PROFILE: SellProfile = {
  spread: '0.009',
  networkFeeUsd: '0',
  countries: MERCURYO_PROFILE.countries,
  fiat: ['EUR', 'USD'],
  assets: ['BTC/BITCOIN', 'ETH/ETHEREUM', 'USDT/TRON', 'USDT/ETHEREUM', 'SOL/SOLANA', 'LTC/LITECOIN'],
  cryptoMinUsd: '25',
  cryptoMaxUsd: '5000',
  payoutMethods: [{ code: 'card', name: 'Card payout', feeRate: '0.0395', feeFixedUsd: '0', minUsd: '15', maxUsd: '5000' }],
  quoteTtlSeconds: 0,
};

/** Mercuryo's network names to the simulator kit's (its deposit addresses and transaction hashes). */
export const KIT_NETWORK: Readonly<Record<string, string>> = {
  BITCOIN: 'bitcoin',
  ETHEREUM: 'ethereum',
  TRON: 'tron',
  SOLANA: 'solana',
  LITECOIN: 'litecoin',
};

/** Mercuryo's 6-hour rule: no crypto within 6 hours of the start, and the request fails (off-ramp guide). */
export const MERCURYO_DEPOSIT_WINDOW_MS = 6 * 60 * 60 * 1000;
