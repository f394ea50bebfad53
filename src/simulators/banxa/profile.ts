import { usStatesExcept, type SimulatorProfile } from '../kit/profile';

/**
 * The simulated Banxa: Australian-born, broad card coverage plus local bank rails (PayID, PIX, UPI,
 * SEPA, Faster Payments, ACH), a lower spread than the sandbox providers and a flat network fee.
 * Assets are named as Banxa names them: `<coin>/<Banxa blockchain code>`; payment methods by Banxa's ids.
 */
export const BANXA_PROFILE: SimulatorProfile = {
  code: 'banxa',
  name: 'Banxa',
  spread: '0.0105',
  networkFeeUsd: '1.10',
  countries: ['US', 'GB', 'DE', 'AU', 'CA', 'FR', 'ES', 'IT', 'NL', 'IE', 'AT', 'PL', 'SE', 'CH', 'BR', 'IN', 'NZ'],
  states: { US: usStatesExcept('NY', 'NV', 'HI') },
  fiat: ['USD', 'EUR', 'GBP', 'AUD', 'CAD', 'CHF', 'PLN', 'SEK', 'BRL', 'INR'],
  assets: [
    'BTC/BTC',
    'ETH/ETH',
    'USDT/ETH',
    'USDT/TRON',
    'USDT/BSC',
    'USDC/ETH',
    'USDC/SOL',
    'USDC/MATIC',
    'USDC/BASE',
    'ETH/BASE',
    'ETH/ARB',
    'SOL/SOL',
    'TRX/TRON',
    'BNB/BSC',
    'LTC/LTC',
    'POL/MATIC',
    'AVAX/AVAX-C',
    'XRP/XRP',
    'DOGE/DOGE',
    'TON/TON',
    'ADA/ADA',
    // Listed by Banxa on a chain the broker has no network for: left out by the adapter.
    'USDC/STELLAR-SOROBAN',
  ],
  paymentMethods: [
    { code: 'debit-credit-card', name: 'Debit credit card', feeRate: '0.0199', feeFixedUsd: '0', minUsd: '25', maxUsd: '15000' },
    { code: 'apple-pay', name: 'Apple pay', feeRate: '0.0199', feeFixedUsd: '0', minUsd: '25', maxUsd: '7500' },
    { code: 'google-pay', name: 'Google pay', feeRate: '0.0199', feeFixedUsd: '0', minUsd: '25', maxUsd: '7500' },
    {
      code: 'sepa-bank-transfer',
      name: 'Sepa bank transfer',
      feeRate: '0.004',
      feeFixedUsd: '0',
      minUsd: '50',
      maxUsd: '30000',
      fiat: ['EUR'],
    },
    {
      code: 'gbp-bank-transfer',
      name: 'Gbp bank transfer',
      feeRate: '0.004',
      feeFixedUsd: '0',
      minUsd: '50',
      maxUsd: '30000',
      fiat: ['GBP'],
    },
    {
      code: 'ach-bank-transfer',
      name: 'Ach bank transfer',
      feeRate: '0.005',
      feeFixedUsd: '0',
      minUsd: '50',
      maxUsd: '25000',
      fiat: ['USD'],
    },
    {
      code: 'payid-bank-transfer',
      name: 'Payid bank transfer',
      feeRate: '0',
      feeFixedUsd: '0',
      minUsd: '20',
      maxUsd: '20000',
      fiat: ['AUD'],
    },
    { code: 'pix', name: 'Pix', feeRate: '0.01', feeFixedUsd: '0', minUsd: '10', maxUsd: '5000', fiat: ['BRL'] },
    { code: 'upi', name: 'Upi', feeRate: '0.012', feeFixedUsd: '0', minUsd: '10', maxUsd: '2500', fiat: ['INR'] },
    // A method the broker has no code for: the adapter leaves it out.
    { code: 'interac', name: 'Interac', feeRate: '0.01', feeFixedUsd: '0', minUsd: '20', maxUsd: '5000', fiat: ['CAD'] },
  ],
  quoteTtlSeconds: 60,
};

/** Token contracts as Banxa lists them (`blockchains[].address`); native coins carry none. */
export const BANXA_CONTRACTS: Readonly<Record<string, string>> = {
  'USDT/ETH': '0xdAC17F958D2ee523a2206206994597C13D831ec7',
  'USDT/TRON': 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  'USDT/BSC': '0x55d398326f99059fF775485246999027B3197955',
  'USDC/ETH': '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  'USDC/SOL': 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  'USDC/MATIC': '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  'USDC/BASE': '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
};

/** Country names for `GET /v2/countries`. */
export const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  US: 'United States',
  GB: 'United Kingdom',
  DE: 'Germany',
  AU: 'Australia',
  CA: 'Canada',
  FR: 'France',
  ES: 'Spain',
  IT: 'Italy',
  NL: 'Netherlands',
  IE: 'Ireland',
  AT: 'Austria',
  PL: 'Poland',
  SE: 'Sweden',
  CH: 'Switzerland',
  BR: 'Brazil',
  IN: 'India',
  NZ: 'New Zealand',
};
