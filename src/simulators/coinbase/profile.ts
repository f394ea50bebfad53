import { v5 as uuidv5 } from 'uuid';
import { usStatesExcept, type SimulatorProfile } from '../kit/profile';

/**
 * The simulated Coinbase Onramp: debit cards and Apple Pay at a flat 2.5 %, ACH for US dollars at
 * 1.5 %, a wide spread and a low network fee; few countries. Payment method codes are Coinbase's ids.
 */
export const COINBASE_PROFILE: SimulatorProfile = {
  code: 'coinbase',
  name: 'Coinbase Onramp',
  spread: '0.015',
  networkFeeUsd: '0.35',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'CA', 'AU'],
  states: { US: usStatesExcept('NY', 'HI') },
  fiat: ['USD', 'EUR', 'GBP', 'CAD', 'AUD'],
  assets: [
    'BTC/bitcoin',
    'ETH/ethereum',
    'ETH/base',
    'USDC/ethereum',
    'USDC/base',
    'USDC/polygon',
    'USDC/solana',
    'SOL/solana',
    'LTC/litecoin',
    'DOGE/dogecoin',
    'POL/polygon',
  ],
  paymentMethods: [
    { code: 'CARD', name: 'Debit card', feeRate: '0.025', feeFixedUsd: '0', minUsd: '5', maxUsd: '7500' },
    { code: 'APPLE_PAY', name: 'Apple Pay', feeRate: '0.025', feeFixedUsd: '0', minUsd: '5', maxUsd: '7500', fiat: ['USD'] },
    { code: 'ACH_BANK_ACCOUNT', name: 'ACH', feeRate: '0.015', feeFixedUsd: '0', minUsd: '10', maxUsd: '25000', fiat: ['USD'] },
    { code: 'FIAT_WALLET', name: 'Coinbase balance', feeRate: '0.01', feeFixedUsd: '0', minUsd: '2', maxUsd: '1000000' },
  ],
  quoteTtlSeconds: 60,
};

/** Which fiat each country pays in (a country's buy options list only its own currency). */
export const COUNTRY_FIAT: Readonly<Record<string, string>> = {
  US: 'USD',
  GB: 'GBP',
  DE: 'EUR',
  FR: 'EUR',
  ES: 'EUR',
  IT: 'EUR',
  NL: 'EUR',
  CA: 'CAD',
  AU: 'AUD',
};

/** Assets not sold in some countries: the simulator's own restrictions, so the catalogue has some. */
export const NOT_SOLD_IN: Readonly<Record<string, readonly string[]>> = { DOGE: ['GB', 'CA'], POL: ['AU'] };

/** Token contracts, as Coinbase's buy options list them per network. */
const CONTRACTS: Readonly<Record<string, string>> = {
  'USDC/ethereum': '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  'USDC/base': '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  'USDC/polygon': '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  'USDC/solana': 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
};

const CHAIN_IDS: Readonly<Record<string, string>> = { ethereum: '1', base: '8453', polygon: '137' };
const NAMES: Readonly<Record<string, string>> = {
  BTC: 'Bitcoin',
  ETH: 'Ethereum',
  USDC: 'USDC',
  SOL: 'Solana',
  LTC: 'Litecoin',
  DOGE: 'Dogecoin',
  POL: 'Polygon',
};

const NAMESPACE = '6f1c2a3b-4d5e-5f60-8a7b-9c0d1e2f3a4b';
/** An asset's UUID, stable as Coinbase's are. */
export const assetId = (symbol: string) => uuidv5(`coinbase-asset:${symbol}`, NAMESPACE);

export interface SimAsset {
  id: string;
  symbol: string;
  name: string;
  networks: { name: string; displayName: string; contractAddress: string; chainId: string }[];
}

/** The profile's assets grouped by symbol, each with its networks, as the buy options list them. */
export const COINBASE_ASSETS: readonly SimAsset[] = (() => {
  const bySymbol = new Map<string, SimAsset>();
  for (const entry of COINBASE_PROFILE.assets) {
    const [symbol = '', network = ''] = entry.split('/');
    const asset = bySymbol.get(symbol) ?? { id: assetId(symbol), symbol, name: NAMES[symbol] ?? symbol, networks: [] };
    asset.networks.push({
      name: network,
      displayName: network.charAt(0).toUpperCase() + network.slice(1),
      contractAddress: CONTRACTS[entry] ?? '',
      chainId: CHAIN_IDS[network] ?? '',
    });
    bySymbol.set(symbol, asset);
  }
  return [...bySymbol.values()];
})();

/** The asset a quote or token names, by UUID or symbol (Coinbase takes either). */
export const findAsset = (idOrSymbol: string): SimAsset | undefined =>
  COINBASE_ASSETS.find((a) => a.id === idOrSymbol || a.symbol === idOrSymbol.toUpperCase());
