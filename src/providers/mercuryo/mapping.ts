/** Mercuryo's network names (`network` of lib/currencies and of the widget URL) to the broker's. */
export const MERCURYO_NETWORKS: Readonly<Record<string, string>> = {
  BITCOIN: 'bitcoin',
  ETHEREUM: 'ethereum',
  ARBITRUM: 'arbitrum',
  OPTIMISM: 'optimism',
  BASE: 'base',
  POLYGON: 'polygon',
  BINANCESMARTCHAIN: 'bsc',
  AVALANCHE: 'avalanche',
  TRON: 'tron',
  SOLANA: 'solana',
  NEWTON: 'ton',
  RIPPLE: 'ripple',
  LITECOIN: 'litecoin',
  DOGECOIN: 'dogecoin',
  BITCOINCASH: 'bitcoin_cash',
  CARDANO: 'cardano',
  STELLAR: 'stellar',
  POLKADOT: 'polkadot',
  COSMOS: 'cosmos',
  ALGORAND: 'algorand',
  TEZOS: 'tezos',
};

/**
 * Mercuryo's payment-method codes (lib/currencies `fiat_payment_methods`) to the broker's codes.
 * Methods with no broker code (e.g. Interac, Indonesian virtual accounts) are left out.
 */
export const MERCURYO_PAYMENT_METHODS: Readonly<Record<string, string>> = {
  card: 'card',
  apple: 'apple_pay',
  google: 'google_pay',
  revolut_pay: 'revolut_pay',
  volt_banktransfer_eur: 'sepa',
  unlimint_pix_brl: 'pix',
};

const invert = (table: Readonly<Record<string, string>>): ReadonlyMap<string, string> =>
  new Map(Object.entries(table).map(([provider, broker]) => [broker, provider]));

const NETWORK_TO_MERCURYO = invert(MERCURYO_NETWORKS);
const METHOD_TO_MERCURYO = invert(MERCURYO_PAYMENT_METHODS);

export const toMercuryoNetwork = (network: string): string | undefined => NETWORK_TO_MERCURYO.get(network);
export const toMercuryoPaymentMethod = (method: string): string | undefined => METHOD_TO_MERCURYO.get(method);
