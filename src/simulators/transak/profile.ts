import { usStatesExcept, type SimulatorProfile } from '../kit/profile';

/** An asset as the simulated Transak lists it: symbol, Transak's network name, token contract. */
export interface SimulatedAsset {
  symbol: string;
  name: string;
  network: string;
  address?: string;
  /** Listed but switched off, as Transak lists some assets. */
  isAllowed?: boolean;
}

/** What the simulated Transak sells; networks and ids are Transak's own (`mainnet` for native L1 coins). */
export const TRANSAK_ASSETS: readonly SimulatedAsset[] = [
  { symbol: 'BTC', name: 'Bitcoin', network: 'mainnet' },
  { symbol: 'LTC', name: 'Litecoin', network: 'mainnet' },
  { symbol: 'DOGE', name: 'Dogecoin', network: 'mainnet' },
  { symbol: 'XRP', name: 'XRP', network: 'mainnet' },
  { symbol: 'ETH', name: 'Ethereum', network: 'ethereum' },
  { symbol: 'ETH', name: 'Ethereum', network: 'arbitrum' },
  { symbol: 'ETH', name: 'Ethereum', network: 'base' },
  { symbol: 'USDT', name: 'Tether', network: 'ethereum', address: '0xdac17f958d2ee523a2206206994597c13d831ec7' },
  { symbol: 'USDT', name: 'Tether', network: 'tron', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
  { symbol: 'USDT', name: 'Tether', network: 'bsc', address: '0x55d398326f99059ff775485246999027b3197955' },
  { symbol: 'USDC', name: 'USD Coin', network: 'ethereum', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' },
  { symbol: 'USDC', name: 'USD Coin', network: 'polygon', address: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359' },
  { symbol: 'USDC', name: 'USD Coin', network: 'base', address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' },
  { symbol: 'USDC', name: 'USD Coin', network: 'solana', address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
  { symbol: 'SOL', name: 'Solana', network: 'solana' },
  { symbol: 'POL', name: 'Polygon', network: 'polygon' },
  { symbol: 'BNB', name: 'BNB', network: 'bsc' },
  { symbol: 'AVAX', name: 'Avalanche', network: 'avaxcchain' },
  { symbol: 'TON', name: 'Toncoin', network: 'ton' },
  // A chain the broker has no currency for, and an asset Transak lists but has switched off.
  { symbol: 'ETH', name: 'Ethereum', network: 'linea' },
  { symbol: 'TRX', name: 'Tron', network: 'tron', isAllowed: false },
];

/**
 * A global card-first provider: wide coverage, card and wallet payments everywhere, cheap local bank
 * transfers in Europe, the UK and the US; higher card fees and tighter minimums than the sandboxes.
 */
export const TRANSAK_PROFILE: SimulatorProfile = {
  code: 'transak',
  name: 'Transak',
  spread: '0.0099',
  networkFeeUsd: '2.50',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'PT', 'AT', 'BE', 'PL', 'SE', 'CH', 'CA', 'AU', 'BR', 'IN', 'TR'],
  states: { US: usStatesExcept('NY', 'HI', 'LA', 'VT') },
  fiat: ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'PLN', 'SEK', 'BRL', 'INR', 'TRY'],
  assets: TRANSAK_ASSETS.filter((a) => a.isAllowed !== false).map((a) => `${a.symbol}/${a.network}`),
  paymentMethods: [
    { code: 'credit_debit_card', name: 'Card Payment', feeRate: '0.0499', feeFixedUsd: '0', minUsd: '30', maxUsd: '3000' },
    { code: 'apple_pay', name: 'Apple Pay', feeRate: '0.0499', feeFixedUsd: '0', minUsd: '30', maxUsd: '1500' },
    { code: 'google_pay', name: 'Google Pay', feeRate: '0.0499', feeFixedUsd: '0', minUsd: '30', maxUsd: '1500' },
    {
      code: 'sepa_bank_transfer',
      name: 'SEPA Bank Transfer',
      feeRate: '0.0099',
      feeFixedUsd: '0',
      minUsd: '25',
      maxUsd: '15000',
      fiat: ['EUR'],
    },
    {
      code: 'gbp_bank_transfer',
      name: 'Faster Payments',
      feeRate: '0.0099',
      feeFixedUsd: '0',
      minUsd: '25',
      maxUsd: '15000',
      fiat: ['GBP'],
    },
    {
      code: 'ach_bank_transfer',
      name: 'ACH Bank Transfer',
      feeRate: '0.0125',
      feeFixedUsd: '0',
      minUsd: '50',
      maxUsd: '10000',
      fiat: ['USD'],
    },
    { code: 'pm_wire', name: 'Wire Transfer', feeRate: '0.005', feeFixedUsd: '10', minUsd: '1000', maxUsd: '50000', fiat: ['USD'] },
  ],
  // Required by the profile type; Transak's quotes state no expiry, so none is sent.
  quoteTtlSeconds: 60,
};
