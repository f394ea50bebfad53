/** The simulator's own market: reference prices it quotes from. Numbers are illustrative, not live. */
export const USD_PRICE: Readonly<Record<string, string>> = {
  BTC: '95000',
  ETH: '3200',
  USDT: '1',
  USDC: '1',
  SOL: '180',
  TRX: '0.25',
  LTC: '95',
  POL: '0.45',
  DOGE: '0.32',
  XRP: '2.2',
  TON: '5.1',
  BNB: '640',
  AVAX: '35',
  ADA: '0.75',
};

/** Units of each fiat currency per US dollar. */
export const FIAT_PER_USD: Readonly<Record<string, string>> = {
  USD: '1',
  EUR: '0.92',
  GBP: '0.79',
  CAD: '1.37',
  AUD: '1.52',
  CHF: '0.88',
  JPY: '151',
  BRL: '5.6',
  PLN: '3.95',
  SEK: '10.6',
  TRY: '34.2',
  INR: '84',
};
