import type { SimulatorProfile } from '../kit/profile';

/**
 * The simulated Alchemy Pay: Asia and Europe heavy, no US, card only (the one `payWayCode` the
 * documentation names), a 3.5 % ramp fee with a fixed part, a wider spread and a higher network fee.
 */
export const ALCHEMYPAY_PROFILE: SimulatorProfile = {
  code: 'alchemypay',
  name: 'Alchemy Pay',
  spread: '0.015',
  networkFeeUsd: '1.20',
  countries: ['GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'PL', 'TR', 'AU', 'JP', 'IN', 'BR', 'US'],
  fiat: ['USD', 'EUR', 'GBP', 'AUD', 'JPY', 'TRY', 'BRL', 'PLN'],
  assets: [
    'BTC/bitcoin',
    'ETH/ethereum',
    'ETH/arbitrum',
    'ETH/base',
    'USDT/tron',
    'USDT/ethereum',
    'USDT/bsc',
    'USDC/ethereum',
    'USDC/solana',
    'SOL/solana',
    'TON/ton',
    'BNB/bsc',
  ],
  paymentMethods: [{ code: '10001', name: 'Credit card', feeRate: '0.035', feeFixedUsd: '0.25', minUsd: '15', maxUsd: '3000' }],
  quoteTtlSeconds: 60,
};

/** Alchemy Pay's network codes of the profile's networks. */
export const NETWORK_CODES: Readonly<Record<string, string>> = {
  bitcoin: 'BTC',
  ethereum: 'ETH',
  arbitrum: 'ARBITRUM',
  base: 'BASE',
  tron: 'TRX',
  bsc: 'BSC',
  solana: 'SOL',
  ton: 'TON',
};

/** The country Alchemy Pay names for each fiat currency (EUR answers DE, as its Payment Method Query says). */
export const FIAT_COUNTRY: Readonly<Record<string, string>> = {
  USD: 'US',
  EUR: 'DE',
  GBP: 'GB',
  AUD: 'AU',
  JPY: 'JP',
  TRY: 'TR',
  BRL: 'BR',
  PLN: 'PL',
};

/** The profile's asset of an Alchemy Pay `crypto` + `network`, as `TICKER/network`. */
export function assetOf(crypto: string, network: string): { ticker: string; network: string } | undefined {
  const brokerNetwork = Object.entries(NETWORK_CODES).find(([, code]) => code === network)?.[0];
  if (!brokerNetwork || !ALCHEMYPAY_PROFILE.assets.includes(`${crypto}/${brokerNetwork}`)) return undefined;
  return { ticker: crypto, network: brokerNetwork };
}
