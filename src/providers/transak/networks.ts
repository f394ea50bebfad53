import type { CryptoCurrency, CurrencyDictionary } from '../../domain/currency';

/** Transak's `network` names for chains that carry tokens, onto the broker's network names. */
const TRANSAK_NETWORKS: Readonly<Record<string, string>> = {
  ethereum: 'ethereum',
  polygon: 'polygon',
  bsc: 'bsc',
  tron: 'tron',
  solana: 'solana',
  arbitrum: 'arbitrum',
  optimism: 'optimism',
  base: 'base',
  avaxcchain: 'avalanche',
  ton: 'ton',
};

/** Transak names a native coin's own chain `mainnet`; the coin says which chain that is. */
export const MAINNET = 'mainnet';
const MAINNET_COINS: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  LTC: 'litecoin',
  XRP: 'ripple',
  DOGE: 'dogecoin',
  ADA: 'cardano',
  XLM: 'stellar',
  DOT: 'polkadot',
  ATOM: 'cosmos',
  BCH: 'bitcoin_cash',
  ETC: 'ethereum_classic',
  ALGO: 'algorand',
  XTZ: 'tezos',
  DASH: 'dash',
  ZEC: 'zcash',
};

const BROKER_TO_TRANSAK = new Map(Object.entries(TRANSAK_NETWORKS).map(([transak, broker]) => [broker, transak]));

/** The broker's network of a Transak asset, or undefined for a chain the broker does not know. */
export function brokerNetwork(symbol: string, transakNetwork: string): string | undefined {
  if (transakNetwork === MAINNET) return MAINNET_COINS[symbol];
  return TRANSAK_NETWORKS[transakNetwork];
}

/** Transak's `network` for one of the broker's crypto currencies, or undefined where Transak has none. */
export function transakNetwork(crypto: CryptoCurrency): string | undefined {
  if (crypto.contract === undefined && MAINNET_COINS[crypto.ticker] === crypto.network) return MAINNET;
  return BROKER_TO_TRANSAK.get(crypto.network);
}

/**
 * The broker's currency ID of a Transak asset. A token must also match the contract the broker
 * knows, so a different token sold under the same symbol is never taken for it.
 */
export function cryptoId(
  dictionary: CurrencyDictionary,
  asset: { symbol: string; network: string; address?: string | null },
): number | undefined {
  const network = brokerNetwork(asset.symbol, asset.network);
  if (network === undefined) return undefined;
  const match = dictionary.currencies.find((c) => c.currency_type === 'crypto' && c.ticker === asset.symbol && c.network === network);
  if (!match) return undefined;
  const address = asset.address && !/^0x0+$/.test(asset.address) ? asset.address : undefined;
  if (match.contract !== undefined && address !== undefined && match.contract.toLowerCase() !== address.toLowerCase()) return undefined;
  return match.id;
}
