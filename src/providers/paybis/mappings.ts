/**
 * Paybis's names for currencies and payment methods, and the broker's. Paybis names a token on
 * another chain than its home one with a suffix (USDT-TRC20, USDC-SOL, ETH-BASE); codes and methods
 * with no broker counterpart are left out, so the assets and methods using them are not offered.
 */

/** Paybis currency code -> the broker's ticker and network. */
const ASSET_BY_CODE: Readonly<Record<string, { ticker: string; network: string }>> = {
  BTC: { ticker: 'BTC', network: 'bitcoin' },
  ETH: { ticker: 'ETH', network: 'ethereum' },
  USDT: { ticker: 'USDT', network: 'ethereum' },
  USDC: { ticker: 'USDC', network: 'ethereum' },
  'USDT-TRC20': { ticker: 'USDT', network: 'tron' },
  'USDT-POLYGON': { ticker: 'USDT', network: 'polygon' },
  'USDT-SOL': { ticker: 'USDT', network: 'solana' },
  'USDC-SOL': { ticker: 'USDC', network: 'solana' },
  'USDC-POLYGON': { ticker: 'USDC', network: 'polygon' },
  'USDC-BASE': { ticker: 'USDC', network: 'base' },
  'ETH-BASE': { ticker: 'ETH', network: 'base' },
  SOL: { ticker: 'SOL', network: 'solana' },
  TRX: { ticker: 'TRX', network: 'tron' },
  BNBSC: { ticker: 'BNB', network: 'bsc' },
  POL: { ticker: 'POL', network: 'polygon' },
  AVAXC: { ticker: 'AVAX', network: 'avalanche' },
  LTC: { ticker: 'LTC', network: 'litecoin' },
  DOGE: { ticker: 'DOGE', network: 'dogecoin' },
  XRP: { ticker: 'XRP', network: 'ripple' },
  TON: { ticker: 'TON', network: 'ton' },
  ADA: { ticker: 'ADA', network: 'cardano' },
  XLM: { ticker: 'XLM', network: 'stellar' },
  BCH: { ticker: 'BCH', network: 'bitcoin_cash' },
};

const CODE_BY_ASSET: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ASSET_BY_CODE).map(([code, { ticker, network }]) => [`${ticker}/${network}`, code]),
);

export function assetOfCode(code: string): { ticker: string; network: string } | undefined {
  return ASSET_BY_CODE[code.toUpperCase()];
}

export function codeOfAsset(ticker: string, network: string): string | undefined {
  return CODE_BY_ASSET[`${ticker.toUpperCase()}/${network}`];
}

/** Paybis payment method id -> broker payment-method code. */
const METHOD_CODE_BY_ID: Readonly<Record<string, string>> = {
  'credit-card': 'card',
  'apple-pay': 'apple_pay',
  'google-pay': 'google_pay',
  'sepa-bank-transfer': 'sepa',
  'faster-payments': 'bank_transfer',
  pix: 'pix',
};

const METHOD_ID_BY_CODE: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(METHOD_CODE_BY_ID).map(([id, code]) => [code, id]),
);

export function methodCodeOf(id: string): string | undefined {
  return METHOD_CODE_BY_ID[id];
}

export function methodIdOf(code: string): string | undefined {
  return METHOD_ID_BY_CODE[code];
}

/**
 * Where Paybis serves buyers. Paybis publishes no countries endpoint (an integration's code keeps its
 * own list); this is the adapter's list, unconfirmed against Paybis's supported-countries page.
 */
export const PAYBIS_COUNTRIES: readonly string[] = [
  'US',
  'GB',
  'DE',
  'FR',
  'ES',
  'IT',
  'NL',
  'PL',
  'PT',
  'AT',
  'BE',
  'IE',
  'SE',
  'DK',
  'FI',
  'CZ',
  'CH',
  'NO',
  'CA',
  'AU',
  'BR',
];
/** US states Paybis does not serve (unconfirmed). */
export const PAYBIS_EXCLUDED_US_STATES: readonly string[] = ['NY', 'HI', 'LA'];
