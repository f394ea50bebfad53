import { cryptoLimits, type SellProfile } from '../kit/sell-pricing';
import { MOONPAY_PROFILE, type SimulatedAsset } from './profile';

/** What the simulated MoonPay buys, paid out by the payout methods MoonPay documents for sells. */
export const MOONPAY_SELL_PROFILE: SellProfile = {
  spread: '0.01',
  networkFeeUsd: '0',
  countries: MOONPAY_PROFILE.countries,
  states: MOONPAY_PROFILE.states,
  fiat: ['EUR', 'GBP', 'USD'],
  assets: ['BTC/bitcoin', 'ETH/ethereum', 'USDC/ethereum', 'USDT/tron', 'SOL/solana', 'LTC/litecoin'],
  cryptoMinUsd: '20',
  cryptoMaxUsd: '20000',
  payoutMethods: [
    { code: 'credit_debit_card', name: 'Card payout', feeRate: '0.045', feeFixedUsd: '0', minUsd: '20', maxUsd: '20000' },
    { code: 'sepa_bank_transfer', name: 'SEPA', feeRate: '0.01', feeFixedUsd: '0', minUsd: '20', maxUsd: '20000', fiat: ['EUR'] },
    { code: 'gbp_bank_transfer', name: 'Faster Payments', feeRate: '0.01', feeFixedUsd: '0', minUsd: '20', maxUsd: '20000', fiat: ['GBP'] },
    { code: 'ach_bank_transfer', name: 'ACH', feeRate: '0.01', feeFixedUsd: '0', minUsd: '20', maxUsd: '20000', fiat: ['USD'] },
  ],
  quoteTtlSeconds: 1800,
};

/** Whether the simulated MoonPay buys the asset, and its sell limits in its own units. */
export function sellTerms(asset: SimulatedAsset): { isSellSupported: boolean; minSellAmount: number | null; maxSellAmount: number | null } {
  if (!asset.asset || !MOONPAY_SELL_PROFILE.assets.includes(asset.asset))
    return { isSellSupported: false, minSellAmount: null, maxSellAmount: null };
  const limits = cryptoLimits(MOONPAY_SELL_PROFILE, asset.asset.split('/')[0]!);
  return { isSellSupported: true, minSellAmount: limits.min.toNumber(), maxSellAmount: limits.max.toNumber() };
}
