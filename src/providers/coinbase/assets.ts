import type { Currency, CurrencyDictionary } from '../../domain/currency';
import type { CoinbaseBuyOptions, CoinbaseNetwork, CoinbasePurchaseCurrency } from './schemas';

/**
 * Coinbase's network names (buy options, `purchaseNetwork`, session token `blockchains`) onto the
 * broker's. Names beyond the documented examples (ethereum, base, polygon, solana) are as Coinbase's
 * buy options list them; unconfirmed ones simply match nothing.
 */
export const COINBASE_NETWORKS: Readonly<Record<string, string>> = {
  bitcoin: 'bitcoin',
  ethereum: 'ethereum',
  base: 'base',
  polygon: 'polygon',
  solana: 'solana',
  arbitrum: 'arbitrum',
  optimism: 'optimism',
  avacchain: 'avalanche',
  litecoin: 'litecoin',
  dogecoin: 'dogecoin',
  bitcoincash: 'bitcoin_cash',
  ethereumclassic: 'ethereum_classic',
  ripple: 'ripple',
  stellar: 'stellar',
  cardano: 'cardano',
  algorand: 'algorand',
  tezos: 'tezos',
  dash: 'dash',
  zcash: 'zcash',
};

/** The broker network name a Coinbase network name stands for, and back. */
export const brokerNetwork = (name: string): string | undefined =>
  Object.hasOwn(COINBASE_NETWORKS, name) ? COINBASE_NETWORKS[name] : undefined;
export const coinbaseNetwork = (network: string): string | undefined =>
  Object.keys(COINBASE_NETWORKS).find((name) => COINBASE_NETWORKS[name] === network);

/** What a broker crypto currency is at Coinbase: the asset (UUID and symbol) and the network to buy it on. */
export interface CoinbaseAsset {
  currency: CoinbasePurchaseCurrency;
  network: CoinbaseNetwork;
}

/** Coinbase's offer in one place, keyed by the broker's currency IDs; assets the dictionary lacks are absent. */
export interface CoinbaseAssetIndex {
  /** Fiat currency ID → Coinbase's limits per payment method id. */
  fiat: ReadonlyMap<number, ReadonlyMap<string, { min: string; max: string }>>;
  crypto: ReadonlyMap<number, CoinbaseAsset>;
}

/** EVM addresses compare without case; base58 and other encodings are case-sensitive. */
const sameContract = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b);

export function brokerFiat(dictionary: CurrencyDictionary, code: string): Currency | undefined {
  return dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === code.toUpperCase());
}

/** The broker's crypto currency of a symbol on a Coinbase network: a token by its contract where Coinbase gives one, else by symbol. */
export function brokerCrypto(
  dictionary: CurrencyDictionary,
  symbol: string,
  networkName: string,
  contract?: string | null,
): Currency | undefined {
  const network = brokerNetwork(networkName);
  if (network === undefined) return undefined;
  const ticker = symbol.toUpperCase();
  return dictionary.currencies.find((c) => {
    if (c.currency_type !== 'crypto' || c.network !== network) return false;
    if (contract) return c.contract !== undefined && sameContract(c.contract, contract);
    return c.contract === undefined && c.ticker === ticker;
  });
}

export function indexOptions(dictionary: CurrencyDictionary, options: CoinbaseBuyOptions): CoinbaseAssetIndex {
  const fiat = new Map<number, Map<string, { min: string; max: string }>>();
  for (const currency of options.paymentCurrencies) {
    const match = brokerFiat(dictionary, currency.id);
    if (!match || fiat.has(match.id)) continue;
    fiat.set(match.id, new Map(currency.limits.map((l) => [l.id, { min: l.min, max: l.max }])));
  }
  const crypto = new Map<number, CoinbaseAsset>();
  for (const currency of options.purchaseCurrencies) {
    for (const network of currency.networks) {
      const match = brokerCrypto(dictionary, currency.symbol, network.name, network.contractAddress);
      if (match && !crypto.has(match.id)) crypto.set(match.id, { currency, network });
    }
  }
  return { fiat, crypto };
}
