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

/**
 * The countries Alchemy Pay names for each fiat currency: the Crypto - Fiat Query answers one entry
 * per currency and country, so EUR comes once for each euro country served (DE first, as its
 * Payment Method Query names EUR's country).
 */
export const FIAT_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  USD: ['US'],
  EUR: ['DE', 'FR', 'ES', 'IT', 'NL'],
  GBP: ['GB'],
  AUD: ['AU'],
  JPY: ['JP'],
  TRY: ['TR'],
  BRL: ['BR'],
  PLN: ['PL'],
};

/** The first country named for a fiat currency. */
export const fiatCountry = (currency: string): string => FIAT_COUNTRIES[currency]?.[0] ?? 'US';

/** The profile's asset of an Alchemy Pay `crypto` + `network`, as `TICKER/network`. */
export function assetOf(crypto: string, network: string): { ticker: string; network: string } | undefined {
  const brokerNetwork = Object.entries(NETWORK_CODES).find(([, code]) => code === network)?.[0];
  if (!brokerNetwork || !ALCHEMYPAY_PROFILE.assets.includes(`${crypto}/${brokerNetwork}`)) return undefined;
  return { ticker: crypto, network: brokerNetwork };
}
