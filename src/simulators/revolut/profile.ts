import type { SimulatorProfile } from '../kit/profile';

/**
 * The simulated Revolut Ramp: UK and EEA first, the US too (no state rules), four payment options
 * with one set of limits per fiat currency, Revolut Pay cheapest. Assets are priced as
 * `<currency>/<Revolut blockchain>`; payment methods by Revolut's ids.
 */
export const REVOLUT_PROFILE: SimulatorProfile = {
  code: 'revolut',
  name: 'Revolut Ramp',
  spread: '0.0085',
  networkFeeUsd: '0.95',
  countries: ['GB', 'US', 'DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'PT', 'AT', 'BE', 'PL', 'SE', 'FI', 'DK', 'NO', 'CH', 'AU'],
  fiat: ['GBP', 'EUR', 'USD', 'PLN', 'SEK', 'CHF', 'AUD'],
  assets: [
    'BTC/BITCOIN',
    'ETH/ETHEREUM',
    'USDT/ETHEREUM',
    'USDC/ETHEREUM',
    'SOL/SOLANA',
    'USDC/SOLANA',
    'ETH/BASE',
    'USDC/BASE',
    'ETH/OPTIMISM',
    'POL/POLYGON',
    'USDC/POLYGON',
    'XRP/RIPPLE',
    'DOGE/DOGECOIN',
    'ADA/CARDANO',
    'LTC/LITECOIN',
    'AVAX/AVALANCHE',
    'TRX/TRON',
    // Listed on a blockchain the broker has no network for: left out by the adapter.
    'FLR/FLARE',
  ],
  paymentMethods: [
    { code: 'card', name: 'Card', feeRate: '0.0149', feeFixedUsd: '0', minUsd: '15', maxUsd: '9000' },
    { code: 'revolut', name: 'Revolut Pay', feeRate: '0.0099', feeFixedUsd: '0', minUsd: '15', maxUsd: '9000' },
    { code: 'apple-pay', name: 'Apple Pay', feeRate: '0.0149', feeFixedUsd: '0', minUsd: '15', maxUsd: '9000' },
    { code: 'google-pay', name: 'Google Pay', feeRate: '0.0149', feeFixedUsd: '0', minUsd: '15', maxUsd: '9000' },
  ],
  quoteTtlSeconds: 30,
};

/** One `/config` crypto entry: its id, currency, blockchain and (tokens) contract. */
export interface RevolutSimCrypto {
  id: string;
  currency: string;
  blockchain: string;
  smartContractAddress?: string;
}

const CONTRACTS: Readonly<Record<string, string>> = {
  'USDT/ETHEREUM': '0xdAC17F958D2ee523a2206206994597C13D831ec7',
  'USDC/ETHEREUM': '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  'USDC/SOLANA': 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  'USDC/BASE': '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  'USDC/POLYGON': '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
};

/** Short blockchain names in ids, as Revolut writes them (`USDT-ETH`); a native coin's id is its currency on its home chain. */
const ID_SUFFIX: Readonly<Record<string, string>> = {
  ETHEREUM: 'ETH',
  SOLANA: 'SOL',
  POLYGON: 'POLYGON',
  BASE: 'BASE',
  OPTIMISM: 'OPTIMISM',
};
const HOME_CHAIN: Readonly<Record<string, string>> = { ETH: 'ETHEREUM', SOL: 'SOLANA', POL: 'POLYGON' };

export const REVOLUT_CRYPTO: readonly RevolutSimCrypto[] = REVOLUT_PROFILE.assets.map((asset) => {
  const [currency = '', blockchain = ''] = asset.split('/');
  const native = !(asset in CONTRACTS);
  const home = HOME_CHAIN[currency] ?? blockchain;
  const id = native && home === blockchain ? currency : `${currency}-${ID_SUFFIX[blockchain] ?? blockchain}`;
  return { id, currency, blockchain, ...(CONTRACTS[asset] ? { smartContractAddress: CONTRACTS[asset] } : {}) };
});

export const findCrypto = (id: string): RevolutSimCrypto | undefined => REVOLUT_CRYPTO.find((c) => c.id === id);

/** The partner fee percentages the simulated partner agreed with Revolut. */
export const FEE_PERCENTAGES: readonly number[] = [0.5, 1];
