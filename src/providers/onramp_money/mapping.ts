/**
 * Onramp.money's chain symbols (allConfigMapping `chainSymbolMapping`, the widget's `network`) to
 * the broker's networks. `btc` for Bitcoin's own chain is not in the published mapping excerpt:
 * unconfirmed (docs/providers/onramp_money.md).
 */
export const ONRAMP_MONEY_NETWORKS: Readonly<Record<string, string>> = {
  btc: 'bitcoin',
  erc20: 'ethereum',
  bep20: 'bsc',
  trc20: 'tron',
  matic20: 'polygon',
  spl: 'solana',
  arbitrum: 'arbitrum',
  ton: 'ton',
};

/**
 * Onramp.money's payment-method names (fetchAllCountryConfig `paymentMethods`) to the broker's
 * codes. Local QR and wallet methods without a broker code (VIET-QR, THAI_QR, KHIPU, MPESA_PAYBILL...) are left out.
 */
export const ONRAMP_MONEY_PAYMENT_METHODS: Readonly<Record<string, string>> = {
  UPI: 'upi',
  IMPS: 'bank_transfer',
  TRY_BANK_TRANSFER: 'bank_transfer',
  'AED-BANK-TRANSFER': 'bank_transfer',
  'NG-BANK-TRANSFER': 'bank_transfer',
  IDR_BANK_TRANSFER: 'bank_transfer',
  SPEI: 'bank_transfer',
  PIX: 'pix',
  SEPA_BANK_TRANSFER: 'sepa',
};

/**
 * The widget's `paymentMethod` for a broker method: 1 "Instant transfer (e.g. UPI)", 2 "Bank
 * transfer (e.g. IMPS/FAST)" (Hosted Mode; fetchAllCountryConfig lists PIX and SEPA as 2).
 */
export const WIDGET_PAYMENT_METHOD: Readonly<Record<string, string>> = { upi: '1', bank_transfer: '2', sepa: '2', pix: '2' };

/**
 * Where each fiat currency is bought. Onramp.money publishes its currencies by fiatType, not by
 * country: the countries are the adapter's reading of its "Fiat currencies" page (unconfirmed).
 */
export const FIAT_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  INR: ['IN'],
  TRY: ['TR'],
  AED: ['AE'],
  MXN: ['MX'],
  VND: ['VN'],
  NGN: ['NG'],
  BRL: ['BR'],
  PEN: ['PE'],
  IDR: ['ID'],
  EUR: ['AT', 'BE', 'DE', 'EE', 'ES', 'FI', 'FR', 'IE', 'IT', 'LT', 'LU', 'LV', 'NL', 'PT', 'SI', 'SK'],
};

const invert = (table: Readonly<Record<string, string>>): ReadonlyMap<string, string> =>
  new Map(Object.entries(table).map(([provider, broker]) => [broker, provider]));

const NETWORK_TO_ONRAMP_MONEY = invert(ONRAMP_MONEY_NETWORKS);

export const toOnrampMoneyNetwork = (network: string): string | undefined => NETWORK_TO_ONRAMP_MONEY.get(network);
