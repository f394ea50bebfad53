import type { CryptoCurrency } from '../../domain/currency';

/**
 * Banxa's names for blockchains and payment methods, and the broker's. Provider values with no
 * broker counterpart are left out, so the assets and methods using them are not offered.
 */

/** Banxa blockchain code (`blockchain` in quotes and orders, `blockchains[].id` in the crypto list) -> broker network. */
const NETWORK_BY_BLOCKCHAIN: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  TRON: 'tron',
  BSC: 'bsc',
  SOL: 'solana',
  MATIC: 'polygon',
  BASE: 'base',
  ARB: 'arbitrum',
  OPTIMISM: 'optimism',
  'AVAX-C': 'avalanche',
  TON: 'ton',
  LTC: 'litecoin',
  DOGE: 'dogecoin',
  XRP: 'ripple',
  XLM: 'stellar',
  ADA: 'cardano',
  DOT: 'polkadot',
  ALGO: 'algorand',
  ATOM: 'cosmos',
  BCH: 'bitcoin_cash',
};

const BLOCKCHAIN_BY_NETWORK: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(NETWORK_BY_BLOCKCHAIN).map(([blockchain, network]) => [network, blockchain]),
);

export function networkOfBlockchain(blockchain: string): string | undefined {
  return NETWORK_BY_BLOCKCHAIN[blockchain.toUpperCase()];
}

export function blockchainOfNetwork(network: string): string | undefined {
  return BLOCKCHAIN_BY_NETWORK[network];
}

/** Banxa `paymentMethodId` -> broker payment-method code. */
const METHOD_CODE_BY_ID: Readonly<Record<string, string>> = {
  'debit-credit-card': 'card',
  'apple-pay': 'apple_pay',
  'google-pay': 'google_pay',
  'sepa-bank-transfer': 'sepa',
  'gbp-bank-transfer': 'bank_transfer',
  'ach-bank-transfer': 'ach',
  'payid-bank-transfer': 'payid',
  upi: 'upi',
  pix: 'pix',
  paypal: 'paypal',
};

const METHOD_ID_BY_CODE: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(METHOD_CODE_BY_ID).map(([id, code]) => [code, id]),
);

export function methodCodeOf(paymentMethodId: string): string | undefined {
  return METHOD_CODE_BY_ID[paymentMethodId];
}

export function paymentMethodIdOf(code: string): string | undefined {
  return METHOD_ID_BY_CODE[code];
}

const ZERO_ADDRESS = /^0x0{40}$/i;

/** A token listed with a contract the broker knows under another address is a different token. */
export function sameToken(currency: CryptoCurrency, address: string | null | undefined): boolean {
  if (currency.contract === undefined || !address || ZERO_ADDRESS.test(address)) return true;
  return currency.contract.toLowerCase() === address.toLowerCase();
}
