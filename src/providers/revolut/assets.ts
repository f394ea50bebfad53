import type { CryptoCurrency, CurrencyDictionary, FiatCurrency } from '../../domain/currency';
import type { RevolutCrypto, RevolutRampConfig } from './schemas';

/**
 * Revolut's `Blockchain` values and the broker's networks. Blockchains without a broker network
 * (EOS, CELO, FANTOM, KUSAMA, ETHEREUMPOW, HEDERAHASHGRAPH, KAVA, NEAR, SONGBIRD, FLARE, CELESTIA)
 * are left out, so the assets on them are not offered.
 */
export const REVOLUT_BLOCKCHAINS: Readonly<Record<string, string>> = {
  BITCOIN: 'bitcoin',
  RIPPLE: 'ripple',
  BITCOINCASH: 'bitcoin_cash',
  LITECOIN: 'litecoin',
  ETHEREUM: 'ethereum',
  DOGECOIN: 'dogecoin',
  CARDANO: 'cardano',
  STELLAR: 'stellar',
  POLKADOT: 'polkadot',
  SOLANA: 'solana',
  AVALANCHE: 'avalanche',
  TEZOS: 'tezos',
  DASH: 'dash',
  ALGORAND: 'algorand',
  SMARTCHAIN: 'bsc',
  POLYGON: 'polygon',
  OPTIMISM: 'optimism',
  COSMOS: 'cosmos',
  ETHEREUMCLASSIC: 'ethereum_classic',
  TRON: 'tron',
  BASE: 'base',
};

/** Revolut's payment options (`payment_methods` of /config, `payment` of quotes and orders) and the broker's codes. */
export const REVOLUT_PAYMENT_METHODS: Readonly<Record<string, string>> = {
  card: 'card',
  revolut: 'revolut_pay',
  'apple-pay': 'apple_pay',
  'google-pay': 'google_pay',
};

const METHOD_BY_CODE: ReadonlyMap<string, string> = new Map(Object.entries(REVOLUT_PAYMENT_METHODS).map(([id, code]) => [code, id]));

export const revolutPaymentOf = (code: string): string | undefined => METHOD_BY_CODE.get(code);

const ZERO_ADDRESS = /^0x0{40}$/i;

/** A token Revolut lists with a contract the broker knows under another address is a different token. */
function sameToken(currency: CryptoCurrency, address: string | null | undefined): boolean {
  if (currency.contract === undefined || !address || ZERO_ADDRESS.test(address)) return true;
  return currency.contract.toLowerCase() === address.toLowerCase();
}

/** The broker's currency of one `/config` crypto entry; undefined when the dictionary has none. */
export function brokerCryptoOf(dictionary: CurrencyDictionary, crypto: RevolutCrypto): CryptoCurrency | undefined {
  const network = REVOLUT_BLOCKCHAINS[crypto.blockchain.toUpperCase()];
  if (network === undefined) return undefined;
  const match = dictionary.currencies.find(
    (c) => c.currency_type === 'crypto' && c.ticker === crypto.currency.toUpperCase() && c.network === network,
  ) as CryptoCurrency | undefined;
  return match && sameToken(match, crypto.smartContractAddress) ? match : undefined;
}

export function brokerFiatOf(dictionary: CurrencyDictionary, code: string): FiatCurrency | undefined {
  return dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === code.toUpperCase()) as FiatCurrency | undefined;
}

/** A `/config` answer indexed both ways: Revolut's crypto ids by broker currency ID and back. */
export interface RevolutAssetIndex {
  config: RevolutRampConfig;
  /** Broker crypto currency ID -> Revolut crypto id. */
  revolutIdOf: ReadonlyMap<number, string>;
  /** Revolut crypto id -> broker crypto currency ID. */
  brokerIdOf: ReadonlyMap<string, number>;
}

export function indexConfig(dictionary: CurrencyDictionary, config: RevolutRampConfig): RevolutAssetIndex {
  const revolutIdOf = new Map<number, string>();
  const brokerIdOf = new Map<string, number>();
  for (const crypto of config.crypto) {
    const currency = brokerCryptoOf(dictionary, crypto);
    if (currency === undefined) continue;
    brokerIdOf.set(crypto.id, currency.id);
    if (!revolutIdOf.has(currency.id)) revolutIdOf.set(currency.id, crypto.id);
  }
  return { config, revolutIdOf, brokerIdOf };
}
