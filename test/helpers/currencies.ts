import { currencyDictionary } from '../../src/domain/currencies';
import type { CryptoCurrency, Currency, FiatCurrency } from '../../src/domain/currency';

/** A currency of the broker's dictionary by ticker (and network, for crypto); throws when there is none. */
export function currencyOf(ticker: string, network?: string): Currency {
  const currency = currencyDictionary.currencies.find((c) => c.ticker === ticker && c.network === network);
  if (!currency) throw new Error(`no ${ticker}/${network ?? 'fiat'} in the currency dictionary`);
  return currency;
}

export const currencyId = (ticker: string, network?: string): number => currencyOf(ticker, network).id;

export const fiatOf = (ticker: string): FiatCurrency => currencyOf(ticker) as FiatCurrency;

export const cryptoOf = (ticker: string, network: string): CryptoCurrency => currencyOf(ticker, network) as CryptoCurrency;
