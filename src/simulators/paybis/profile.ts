import type { SimulatorProfile } from '../kit/profile';

/**
 * The simulated Paybis: European-born, card-first with a higher card fee than the others, SEPA,
 * Faster Payments and PIX, a mid spread and a network fee per quote. Assets are `<ticker>/<Paybis
 * currency code>` (the code names the chain: USDT-TRC20, USDC-SOL, ETH-BASE); methods by Paybis's ids.
 */
export const PAYBIS_PROFILE: SimulatorProfile = {
  code: 'paybis',
  name: 'Paybis',
  spread: '0.0125',
  networkFeeUsd: '1.90',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'PL', 'PT', 'AT', 'BE', 'IE', 'SE', 'DK', 'FI', 'CZ', 'CH', 'NO', 'CA', 'AU', 'BR'],
  fiat: ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'PLN', 'SEK', 'BRL'],
  assets: [
    'BTC/BTC',
    'ETH/ETH',
    'USDT/USDT',
    'USDT/USDT-TRC20',
    'USDT/USDT-POLYGON',
    'USDC/USDC',
    'USDC/USDC-SOL',
    'USDC/USDC-BASE',
    'ETH/ETH-BASE',
    'SOL/SOL',
    'TRX/TRX',
    'BNB/BNBSC',
    'POL/POL',
    'LTC/LTC',
    'XRP/XRP',
    'DOGE/DOGE',
    'TON/TON',
    // A code the broker has no network for: left out by the adapter.
    'XEC/XEC',
  ],
  paymentMethods: [
    { code: 'credit-card', name: 'Credit/debit card', feeRate: '0.0449', feeFixedUsd: '0', minUsd: '5', maxUsd: '20000' },
    { code: 'apple-pay', name: 'Apple Pay', feeRate: '0.0449', feeFixedUsd: '0', minUsd: '5', maxUsd: '10000' },
    { code: 'google-pay', name: 'Google Pay', feeRate: '0.0449', feeFixedUsd: '0', minUsd: '5', maxUsd: '10000' },
    {
      code: 'sepa-bank-transfer',
      name: 'SEPA bank transfer',
      feeRate: '0.0075',
      feeFixedUsd: '0',
      minUsd: '20',
      maxUsd: '50000',
      fiat: ['EUR'],
    },
    { code: 'faster-payments', name: 'Faster Payments', feeRate: '0.0075', feeFixedUsd: '0', minUsd: '20', maxUsd: '50000', fiat: ['GBP'] },
    { code: 'pix', name: 'PIX', feeRate: '0.015', feeFixedUsd: '0', minUsd: '10', maxUsd: '3000', fiat: ['BRL'] },
    // A method the broker has no code for: the adapter leaves it out.
    { code: 'skrill', name: 'Skrill', feeRate: '0.03', feeFixedUsd: '0', minUsd: '10', maxUsd: '5000' },
  ],
  quoteTtlSeconds: 60,
};

/** The Paybis code's ticker (the asset's price) and the blockchain name `meta.currencies` gives it. */
export const BLOCKCHAIN_OF_CODE: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  USDT: 'ethereum',
  'USDT-TRC20': 'tron',
  'USDT-POLYGON': 'polygon',
  USDC: 'ethereum',
  'USDC-SOL': 'solana',
  'USDC-BASE': 'base',
  'ETH-BASE': 'base',
  SOL: 'solana',
  TRX: 'tron',
  BNBSC: 'binance-smart-chain',
  POL: 'polygon',
  LTC: 'litecoin',
  XRP: 'ripple',
  DOGE: 'dogecoin',
  TON: 'ton',
  XEC: 'ecash',
};

/** The ticker of a Paybis code in the profile, for pricing; undefined for a code it does not sell. */
export function tickerOfCode(code: string): string | undefined {
  return PAYBIS_PROFILE.assets.find((a) => a.split('/')[1] === code)?.split('/')[0];
}
