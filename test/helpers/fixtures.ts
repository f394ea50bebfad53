import type { CryptoCurrency, FiatCurrency } from '../../src/domain/currency';

/** Stand-alone currency fixtures for unit tests that build their own dictionary. */
export const FIXTURE_USD: FiatCurrency = {
  id: 1,
  ticker: 'USD',
  currency_type: 'fiat',
  precision: 2,
  name: 'US Dollar',
  icon_url: 'https://example.com/usd.svg',
};

export const FIXTURE_BTC: CryptoCurrency = {
  id: 13,
  ticker: 'BTC',
  network: 'bitcoin',
  currency_type: 'crypto',
  precision: 8,
  name: 'Bitcoin',
  icon_url: 'https://example.com/btc.svg',
};
