import type { Currency, CryptoCurrency, CurrencyDictionary } from '../../domain/currency';

/** Alchemy Pay network codes ("Network Code") onto the broker's network names; others are left out. */
export const ALCHEMYPAY_NETWORKS: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  BSC: 'bsc',
  TRX: 'tron',
  SOL: 'solana',
  MATIC: 'polygon',
  ARBITRUM: 'arbitrum',
  BASE: 'base',
  TON: 'ton',
  LTC: 'litecoin',
  DOGE: 'dogecoin',
  XRP: 'ripple',
  ADA: 'cardano',
};

const NETWORK_CODES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ALCHEMYPAY_NETWORKS).map(([code, network]) => [network, code]),
);

/** Alchemy Pay's network code of a broker network, if it has one. */
export const networkCodeOf = (network: string): string | undefined => NETWORK_CODES[network];

/**
 * Alchemy Pay's `payWayCode`s the broker has a code for. Only `10001` (credit card) is documented
 * by name (the quote examples, `payType: CREDIT_CARD`); other codes are left out until confirmed.
 */
export const ALCHEMYPAY_METHODS: readonly { payWayCode: string; code: string; name: string }[] = [
  { payWayCode: '10001', code: 'card', name: 'Credit or debit card' },
];

export const methodByCode = (code: string) => ALCHEMYPAY_METHODS.find((m) => m.code === code);
export const methodByPayWay = (payWayCode: string) => ALCHEMYPAY_METHODS.find((m) => m.payWayCode === payWayCode);

/** The broker's fiat currency of an Alchemy Pay fiat code (`USD`). */
export function brokerFiat(dictionary: CurrencyDictionary, code: string): Currency | undefined {
  return dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === code.toUpperCase());
}

/** The broker's crypto currency of an Alchemy Pay `crypto` + `network` pair (symbol and network code). */
export function brokerCrypto(dictionary: CurrencyDictionary, crypto: string, network: string): Currency | undefined {
  const brokerNetwork = ALCHEMYPAY_NETWORKS[network.toUpperCase()];
  if (brokerNetwork === undefined) return undefined;
  return dictionary.currencies.find(
    (c) => c.currency_type === 'crypto' && c.network === brokerNetwork && c.ticker === crypto.toUpperCase(),
  );
}

/** Alchemy Pay's `crypto` and `network` for a broker crypto currency, or undefined off its networks. */
export function alchemypayAsset(crypto: CryptoCurrency): { crypto: string; network: string } | undefined {
  const network = networkCodeOf(crypto.network);
  return network === undefined ? undefined : { crypto: crypto.ticker, network };
}
