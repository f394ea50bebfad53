import type { PaymentMethodProfile, SimulatorProfile } from '../kit/profile';

/**
 * Mercuryo quotes one rate per purchase whatever the payment method, and publishes one min/max per
 * fiat currency: every method shares these terms.
 */
const TERMS = { feeRate: '0.0395', feeFixedUsd: '0', minUsd: '25', maxUsd: '3500' } as const;

const method = (code: string, name: string, fiat?: readonly string[]): PaymentMethodProfile => ({
  code,
  name,
  ...TERMS,
  ...(fiat ? { fiat } : {}),
});

/**
 * A card-first European provider with mobile wallets and a wide choice of networks; no state-level
 * coverage (Mercuryo publishes none). Codes are Mercuryo's own: assets as `TICKER/NETWORK`,
 * payment methods as in lib/currencies.
 */
export const MERCURYO_PROFILE: SimulatorProfile = {
  code: 'mercuryo',
  name: 'Mercuryo',
  spread: '0.009',
  networkFeeUsd: '0.80',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'PL', 'PT', 'IE', 'AT', 'BE', 'CH', 'SE', 'TR', 'BR'],
  fiat: ['USD', 'EUR', 'GBP', 'PLN', 'CHF', 'SEK', 'TRY', 'BRL'],
  assets: [
    'BTC/BITCOIN',
    'ETH/ETHEREUM',
    'ETH/ARBITRUM',
    'ETH/BASE',
    'ETH/OPTIMISM',
    'ETH/ZKSYNC',
    'USDT/ETHEREUM',
    'USDT/TRON',
    'USDT/POLYGON',
    'USDT/BINANCESMARTCHAIN',
    'USDT/NEWTON',
    'USDC/ETHEREUM',
    'USDC/SOLANA',
    'USDC/BASE',
    'SOL/SOLANA',
    'TON/NEWTON',
    'TRX/TRON',
    'BNB/BINANCESMARTCHAIN',
    'XRP/RIPPLE',
    'DOGE/DOGECOIN',
    'LTC/LITECOIN',
    'POL/POLYGON',
    'NOT/NEWTON',
  ],
  paymentMethods: [
    method('card', 'Visa'),
    method('google', 'Google Pay', ['USD', 'EUR', 'GBP', 'PLN', 'CHF', 'SEK']),
    method('apple', 'Apple Pay', ['USD', 'EUR', 'GBP', 'PLN', 'CHF', 'SEK']),
    method('revolut_pay', 'Revolut Pay', ['EUR', 'GBP', 'PLN', 'CHF', 'SEK']),
    method('volt_banktransfer_eur', 'Bank payment SEPA', ['EUR']),
    method('unlimint_pix_brl', 'PIX instant payment', ['BRL']),
  ],
  // Mercuryo's rate carries no expiry; the field is unused by this simulator.
  quoteTtlSeconds: 60,
};
