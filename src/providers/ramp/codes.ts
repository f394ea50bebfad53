/**
 * Ramp's names for chains and payment methods, and the broker's. Ramp names an asset `{CHAIN}_{SYMBOL}`
 * (ETH_USDC, MATIC_POL); its chains map onto the broker's lower-case networks. Chains not listed
 * here have no network in the broker's dictionary and their assets are left out.
 */
export const RAMP_CHAIN_NETWORKS: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  SOLANA: 'solana',
  MATIC: 'polygon',
  TRON: 'tron',
  BSC: 'bsc',
  ARBITRUM: 'arbitrum',
  BASE: 'base',
  OPTIMISM: 'optimism',
  AVAX: 'avalanche',
  TON: 'ton',
  LTC: 'litecoin',
  DOGE: 'dogecoin',
  XRP: 'ripple',
  CARDANO: 'cardano',
  BCH: 'bitcoin_cash',
  COSMOS: 'cosmos',
  POLKADOT: 'polkadot',
  DOT: 'polkadot',
};

export const rampAssetSymbol = (asset: { chain: string; symbol: string }) => `${asset.chain}_${asset.symbol}`;

export const BROKER_PAYMENT_METHODS = ['card', 'apple_pay', 'google_pay', 'sepa', 'bank_transfer', 'pix'] as const;
export type RampBrokerMethod = (typeof BROKER_PAYMENT_METHODS)[number];

interface MethodCodes {
  name: string;
  /** The key of Ramp's quote (`PaymentMethodName`). */
  rampName: string;
  /** The widget's `paymentMethodType`, where the widget has one for this method. */
  widgetType?: string;
}

/**
 * Ramp's MANUAL_BANK_TRANSFER is SEPA in euros and a local bank transfer (Faster Payments in pounds)
 * otherwise, so it becomes `sepa` or `bank_transfer` by currency. AUTO_BANK_TRANSFER (open-banking
 * payment initiation) has no broker code and is left out.
 */
export const BROKER_METHOD_CODES: Readonly<Record<RampBrokerMethod, MethodCodes>> = {
  card: { name: 'Card', rampName: 'CARD_PAYMENT', widgetType: 'CARD' },
  apple_pay: { name: 'Apple Pay', rampName: 'APPLE_PAY', widgetType: 'APPLEPAY' },
  google_pay: { name: 'Google Pay', rampName: 'GOOGLE_PAY', widgetType: 'GOOGLEPAY' },
  sepa: { name: 'SEPA bank transfer', rampName: 'MANUAL_BANK_TRANSFER', widgetType: 'SEPA' },
  bank_transfer: { name: 'Bank transfer', rampName: 'MANUAL_BANK_TRANSFER' },
  pix: { name: 'Pix', rampName: 'PIX', widgetType: 'PIX' },
};

export function isBrokerMethod(code: string): code is RampBrokerMethod {
  return (BROKER_PAYMENT_METHODS as readonly string[]).includes(code);
}

/** The broker's code for a Ramp payment method taking this fiat currency, if it has one. */
export function brokerMethodFor(rampName: string, fiat: string): RampBrokerMethod | undefined {
  if (rampName === 'MANUAL_BANK_TRANSFER') return fiat === 'EUR' ? 'sepa' : 'bank_transfer';
  return BROKER_PAYMENT_METHODS.find((code) => BROKER_METHOD_CODES[code].rampName === rampName);
}
