import { methodLimits } from '../kit/pricing';
import { usStatesExcept, type PaymentMethodProfile, type SimulatorProfile } from '../kit/profile';

/** An asset as the simulated Ramp lists it; the profile names it `SYMBOL/CHAIN`. */
export interface RampSimAsset {
  symbol: string;
  chain: string;
  name: string;
  decimals: number;
  /** Token contract; null for a chain's native coin. */
  address: string | null;
  /** The asset's own minimum, in USD; the global minimum applies when absent (Ramp's -1). */
  minUsd?: string;
}

export const RAMP_SIM_ASSETS: readonly RampSimAsset[] = [
  { symbol: 'BTC', chain: 'BTC', name: 'Bitcoin', decimals: 8, address: null, minUsd: '30' },
  { symbol: 'ETH', chain: 'ETH', name: 'Ether', decimals: 18, address: null },
  { symbol: 'USDC', chain: 'ETH', name: 'USD Coin', decimals: 6, address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
  { symbol: 'USDT', chain: 'ETH', name: 'Tether', decimals: 6, address: '0xdAC17F958D2ee523a2206206994597C13D831ec7' },
  { symbol: 'ETH', chain: 'BASE', name: 'Ether on Base', decimals: 18, address: null },
  { symbol: 'USDC', chain: 'BASE', name: 'USD Coin on Base', decimals: 6, address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
  { symbol: 'ETH', chain: 'ARBITRUM', name: 'Ether on Arbitrum', decimals: 18, address: null },
  { symbol: 'POL', chain: 'MATIC', name: 'Polygon', decimals: 18, address: null },
  { symbol: 'USDC', chain: 'MATIC', name: 'USD Coin on Polygon', decimals: 6, address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' },
  { symbol: 'SOL', chain: 'SOLANA', name: 'Solana', decimals: 9, address: null },
  { symbol: 'USDC', chain: 'SOLANA', name: 'USD Coin on Solana', decimals: 6, address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
  { symbol: 'TRX', chain: 'TRON', name: 'Tron', decimals: 6, address: null },
  { symbol: 'USDT', chain: 'TRON', name: 'Tether on Tron', decimals: 6, address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
  { symbol: 'XRP', chain: 'XRP', name: 'XRP', decimals: 6, address: null },
  { symbol: 'DOGE', chain: 'DOGE', name: 'Dogecoin', decimals: 8, address: null },
  { symbol: 'TON', chain: 'TON', name: 'Toncoin', decimals: 9, address: null },
  // A chain the broker has no network for: its adapter must leave it out.
  { symbol: 'GLMR', chain: 'MOONBEAM', name: 'Glimmer', decimals: 18, address: null },
];

/** Ramp's limits are one range per currency, not per payment method: every method shares it. */
const LIMITS_USD = { minUsd: '15', maxUsd: '12000' };

const method = (code: string, name: string, feeRate: string, fiat?: readonly string[]): PaymentMethodProfile => ({
  code,
  name,
  feeRate,
  feeFixedUsd: '0',
  ...LIMITS_USD,
  ...(fiat ? { fiat } : {}),
});

/**
 * The simulated Ramp: Europe, the UK, Brazil and most US states; low bank-transfer fees, a tight
 * spread and a small network fee. Payment methods carry Ramp's own names.
 */
export const RAMP_PROFILE: SimulatorProfile = {
  code: 'ramp',
  name: 'Ramp Network (simulator)',
  spread: '0.0085',
  networkFeeUsd: '0.75',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'IE', 'PT', 'PL', 'SE', 'CH', 'BR'],
  states: { US: usStatesExcept('NY', 'HI', 'AK', 'NV') },
  fiat: ['USD', 'EUR', 'GBP', 'PLN', 'SEK', 'CHF', 'BRL'],
  assets: RAMP_SIM_ASSETS.map((a) => `${a.symbol}/${a.chain}`),
  paymentMethods: [
    method('CARD_PAYMENT', 'Card', '0.0249'),
    method('APPLE_PAY', 'Apple Pay', '0.0249'),
    method('GOOGLE_PAY', 'Google Pay', '0.0249'),
    method('MANUAL_BANK_TRANSFER', 'Manual bank transfer', '0.0049', ['EUR', 'GBP']),
    method('PIX', 'Pix', '0.0099', ['BRL']),
  ],
  quoteTtlSeconds: 60,
};

/** The fee range Ramp publishes with its asset list, in per cent. */
export const RAMP_FEE_PERCENT = { min: '0.49', max: '2.49' };

export const MAIN_CURRENCY: Readonly<Record<string, string>> = { US: 'USD', GB: 'GBP', PL: 'PLN', SE: 'SEK', CH: 'CHF', BR: 'BRL' };

/** Limits as a method-less profile, for the kit's currency conversion. */
const ANY_METHOD = method('ANY', 'Any payment method', '0');

/** The range every purchase in this fiat currency must fall in. */
export const globalLimits = (fiat: string) => methodLimits(ANY_METHOD, fiat);

/** The asset's own minimum in this fiat currency, where it has one. */
export function assetMinimum(asset: RampSimAsset, fiat: string) {
  return asset.minUsd === undefined ? undefined : methodLimits({ ...ANY_METHOD, minUsd: asset.minUsd }, fiat).min;
}
