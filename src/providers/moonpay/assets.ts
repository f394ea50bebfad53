import type { Currency, CurrencyDictionary } from '../../domain/currency';
import type { MoonpayCurrency } from './schemas';

/** MoonPay `metadata.networkCode` values onto the broker's network names. */
export const MOONPAY_NETWORKS: Readonly<Record<string, string>> = {
  bitcoin: 'bitcoin',
  ethereum: 'ethereum',
  tron: 'tron',
  solana: 'solana',
  polygon: 'polygon',
  base: 'base',
  arbitrum: 'arbitrum',
  optimism: 'optimism',
  binance_smart_chain: 'bsc',
  bnb_chain: 'bsc',
  avalanche_c_chain: 'avalanche',
  litecoin: 'litecoin',
  dogecoin: 'dogecoin',
  ripple: 'ripple',
  ton: 'ton',
  cardano: 'cardano',
  stellar: 'stellar',
  polkadot: 'polkadot',
  cosmos: 'cosmos',
  bitcoin_cash: 'bitcoin_cash',
  ethereum_classic: 'ethereum_classic',
  algorand: 'algorand',
  tezos: 'tezos',
  dash: 'dash',
  zcash: 'zcash',
};

/** MoonPay's currencies keyed by the broker's currency IDs; MoonPay assets the dictionary lacks are absent. */
export interface MoonpayAssetIndex {
  fiat: ReadonlyMap<number, MoonpayCurrency>;
  crypto: ReadonlyMap<number, MoonpayCurrency>;
}

/** EVM addresses compare without case; base58 and other encodings are case-sensitive. */
const sameContract = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b);

/** The broker's fiat currency of a MoonPay fiat code (`usd`). */
export function brokerFiat(dictionary: CurrencyDictionary, code: string): Currency | undefined {
  return dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === code.toUpperCase());
}

/**
 * A crypto code is the symbol, then a chain suffix for tokens and L2 coins (`usdt_trx`, `eth_base`);
 * the chain itself comes from the metadata, and a token is matched by its contract where MoonPay gives one.
 */
export function brokerCrypto(dictionary: CurrencyDictionary, currency: Pick<MoonpayCurrency, 'code' | 'metadata'>): Currency | undefined {
  const network = MOONPAY_NETWORKS[currency.metadata?.networkCode ?? ''];
  if (network === undefined) return undefined;
  const contract = currency.metadata?.contractAddress || undefined;
  const ticker = currency.code.split('_')[0]!.toUpperCase();
  return dictionary.currencies.find((c) => {
    if (c.currency_type !== 'crypto' || c.network !== network) return false;
    if (contract !== undefined) return c.contract !== undefined && sameContract(c.contract, contract);
    return c.ticker === ticker;
  });
}

/** Sandbox (test) keys can buy only the assets MoonPay marks as supported in test mode. */
function buyable(currency: MoonpayCurrency, testMode: boolean): boolean {
  if (currency.isSuspended === true) return false;
  return testMode ? currency.supportsTestMode !== false : currency.supportsLiveMode !== false;
}

export function indexCurrencies(
  dictionary: CurrencyDictionary,
  currencies: readonly MoonpayCurrency[],
  testMode: boolean,
): MoonpayAssetIndex {
  const fiat = new Map<number, MoonpayCurrency>();
  const crypto = new Map<number, MoonpayCurrency>();
  for (const currency of currencies) {
    if (currency.type === 'fiat') {
      const match = brokerFiat(dictionary, currency.code);
      if (match && !fiat.has(match.id)) fiat.set(match.id, currency);
    } else if (currency.type === 'crypto' && buyable(currency, testMode)) {
      const match = brokerCrypto(dictionary, currency);
      if (match && !crypto.has(match.id)) crypto.set(match.id, currency);
    }
  }
  return { fiat, crypto };
}
