/** What makes one simulated provider differ from another: coverage, pricing, fees and limits. */
export interface PaymentMethodProfile {
  code: string;
  name: string;
  /** Processing fee as a fraction of the fiat amount, e.g. "0.0399". */
  feeRate: string;
  /** Fixed part of the processing fee, in USD. */
  feeFixedUsd: string;
  minUsd: string;
  maxUsd: string;
}

export interface SimulatorProfile {
  code: string;
  name: string;
  /** Markup over the reference price, e.g. "0.01" for 1 %. */
  spread: string;
  /** Network fee charged per order, in USD. */
  networkFeeUsd: string;
  countries: readonly string[];
  fiat: readonly string[];
  /** Supported assets as `TICKER/network`. */
  assets: readonly string[];
  paymentMethods: readonly PaymentMethodProfile[];
  quoteTtlSeconds: number;
}

export const SANDBOX_PROFILE: SimulatorProfile = {
  code: 'sandbox',
  name: 'Sandbox Pay',
  spread: '0.012',
  networkFeeUsd: '1.50',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'PL', 'SE', 'CA', 'AU', 'CH', 'BR'],
  fiat: ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'PLN', 'SEK', 'BRL'],
  assets: [
    'BTC/bitcoin',
    'ETH/ethereum',
    'USDT/ethereum',
    'USDT/tron',
    'USDC/ethereum',
    'USDC/solana',
    'USDC/polygon',
    'SOL/solana',
    'TRX/tron',
    'LTC/litecoin',
    'POL/polygon',
    'ETH/base',
  ],
  paymentMethods: [
    { code: 'card', name: 'Card', feeRate: '0.0399', feeFixedUsd: '0.30', minUsd: '20', maxUsd: '5000' },
    { code: 'bank_transfer', name: 'Bank transfer', feeRate: '0.01', feeFixedUsd: '0', minUsd: '50', maxUsd: '20000' },
    { code: 'sepa', name: 'SEPA transfer', feeRate: '0.008', feeFixedUsd: '0', minUsd: '30', maxUsd: '20000' },
  ],
  quoteTtlSeconds: 300,
};
