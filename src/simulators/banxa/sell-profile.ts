import type { SellProfile } from '../kit/sell-pricing';
import { BANXA_PROFILE } from './profile';

/**
 * What the simulated Banxa buys from customers (Hosted Checkout "Create Sell Order"): assets named
 * `<coin>/<Banxa blockchain code>` as its buy profile names them, paid out by the three payout
 * methods Banxa's sell documentation names: PayID (AUD), SEPA (EUR) and PIX (BRL).
 */
export const BANXA_SELL_PROFILE: SellProfile = {
  spread: '0.0105',
  networkFeeUsd: '0',
  countries: BANXA_PROFILE.countries.filter((c) => c !== 'US'),
  fiat: ['AUD', 'EUR', 'BRL'],
  assets: ['BTC/BTC', 'ETH/ETH', 'USDT/ETH', 'USDT/TRON', 'SOL/SOL', 'XRP/XRP', 'LTC/LTC'],
  cryptoMinUsd: '20',
  cryptoMaxUsd: '20000',
  payoutMethods: [
    { code: 'payid-bank-transfer', name: 'PayID', feeRate: '0.01', feeFixedUsd: '0', minUsd: '20', maxUsd: '20000', fiat: ['AUD'] },
    {
      code: 'sepa-bank-transfer',
      name: 'SEPA bank transfer',
      feeRate: '0.01',
      feeFixedUsd: '0',
      minUsd: '20',
      maxUsd: '20000',
      fiat: ['EUR'],
    },
    { code: 'pix', name: 'PIX', feeRate: '0.015', feeFixedUsd: '0', minUsd: '10', maxUsd: '5000', fiat: ['BRL'] },
  ],
  quoteTtlSeconds: 60,
};

/** The broker network of each Banxa blockchain code the simulated Banxa buys on: the deposit address is made for it. */
export const BANXA_SELL_NETWORKS: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  TRON: 'tron',
  SOL: 'solana',
  XRP: 'ripple',
  LTC: 'litecoin',
};
