import { usStatesExcept, type SimulatorProfile } from '../kit/profile';

/**
 * The simulated MoonPay: wide coverage, card-heavy, 4.5 % card fee, cheap local bank transfers,
 * a tight spread and a low network fee. Payment method codes are MoonPay's own ids.
 */
export const MOONPAY_PROFILE: SimulatorProfile = {
  code: 'moonpay',
  name: 'MoonPay',
  spread: '0.0095',
  networkFeeUsd: '0.60',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'AT', 'BE', 'PT', 'PL', 'SE', 'CH', 'CA', 'AU', 'BR'],
  states: { US: usStatesExcept('NY', 'RI') },
  fiat: ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'PLN', 'SEK', 'BRL'],
  assets: [
    'BTC/bitcoin',
    'ETH/ethereum',
    'ETH/base',
    'ETH/arbitrum',
    'USDT/ethereum',
    'USDT/tron',
    'USDT/polygon',
    'USDC/ethereum',
    'USDC/solana',
    'USDC/polygon',
    'USDC/base',
    'SOL/solana',
    'TRX/tron',
    'LTC/litecoin',
    'POL/polygon',
    'DOGE/dogecoin',
    'XRP/ripple',
    'TON/ton',
    'BNB/bsc',
    'ADA/cardano',
  ],
  paymentMethods: [
    { code: 'credit_debit_card', name: 'Credit or debit card', feeRate: '0.045', feeFixedUsd: '0', minUsd: '20', maxUsd: '12000' },
    { code: 'apple_pay', name: 'Apple Pay', feeRate: '0.045', feeFixedUsd: '0', minUsd: '20', maxUsd: '12000' },
    { code: 'google_pay', name: 'Google Pay', feeRate: '0.045', feeFixedUsd: '0', minUsd: '20', maxUsd: '12000' },
    { code: 'paypal', name: 'PayPal', feeRate: '0.049', feeFixedUsd: '0', minUsd: '20', maxUsd: '5000', fiat: ['USD', 'EUR', 'GBP'] },
    { code: 'revolut_pay', name: 'Revolut Pay', feeRate: '0.025', feeFixedUsd: '0', minUsd: '20', maxUsd: '12000', fiat: ['EUR', 'GBP'] },
    {
      code: 'sepa_bank_transfer',
      name: 'SEPA bank transfer',
      feeRate: '0.01',
      feeFixedUsd: '0',
      minUsd: '20',
      maxUsd: '30000',
      fiat: ['EUR'],
    },
    {
      code: 'gbp_bank_transfer',
      name: 'UK bank transfer',
      feeRate: '0.01',
      feeFixedUsd: '0',
      minUsd: '20',
      maxUsd: '30000',
      fiat: ['GBP'],
    },
    {
      code: 'ach_bank_transfer',
      name: 'ACH bank transfer',
      feeRate: '0.01',
      feeFixedUsd: '0',
      minUsd: '20',
      maxUsd: '30000',
      fiat: ['USD'],
    },
    { code: 'pix_instant_payment', name: 'PIX', feeRate: '0.015', feeFixedUsd: '0', minUsd: '20', maxUsd: '10000', fiat: ['BRL'] },
  ],
  quoteTtlSeconds: 1800,
};

/** One MoonPay currency code of the simulator's list, with the chain metadata MoonPay publishes. */
export interface SimulatedAsset {
  code: string;
  name: string;
  /** `TICKER/network` of the profile (the simulator's pricing key); absent for an asset it lists but cannot price. */
  asset?: string;
  networkCode: string;
  contractAddress?: string;
  chainId?: string;
  supportsTestMode: boolean;
  notAllowedCountries?: readonly string[];
  notAllowedUSStates?: readonly string[];
}

/** Stablecoins are not sold in Canada, and not in New York by this simulated MoonPay. */
const STABLECOIN_RULES = { notAllowedCountries: ['CA'], notAllowedUSStates: ['NY'] } as const;

export const MOONPAY_ASSETS: readonly SimulatedAsset[] = [
  { code: 'btc', name: 'Bitcoin', asset: 'BTC/bitcoin', networkCode: 'bitcoin', supportsTestMode: true },
  { code: 'eth', name: 'Ethereum', asset: 'ETH/ethereum', networkCode: 'ethereum', chainId: '1', supportsTestMode: true },
  { code: 'eth_base', name: 'Ethereum (Base)', asset: 'ETH/base', networkCode: 'base', chainId: '8453', supportsTestMode: true },
  {
    code: 'eth_arbitrum',
    name: 'Ethereum (Arbitrum)',
    asset: 'ETH/arbitrum',
    networkCode: 'arbitrum',
    chainId: '42161',
    supportsTestMode: true,
  },
  {
    code: 'usdt',
    name: 'Tether (ERC-20)',
    asset: 'USDT/ethereum',
    networkCode: 'ethereum',
    chainId: '1',
    contractAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7',
    supportsTestMode: true,
    ...STABLECOIN_RULES,
  },
  {
    code: 'usdt_trx',
    name: 'Tether (TRC-20)',
    asset: 'USDT/tron',
    networkCode: 'tron',
    contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    supportsTestMode: true,
    ...STABLECOIN_RULES,
  },
  {
    code: 'usdt_polygon',
    name: 'Tether (Polygon)',
    asset: 'USDT/polygon',
    networkCode: 'polygon',
    chainId: '137',
    contractAddress: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f',
    supportsTestMode: true,
    ...STABLECOIN_RULES,
  },
  {
    code: 'usdc',
    name: 'USD Coin (ERC-20)',
    asset: 'USDC/ethereum',
    networkCode: 'ethereum',
    chainId: '1',
    contractAddress: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    supportsTestMode: true,
    ...STABLECOIN_RULES,
  },
  {
    code: 'usdc_sol',
    name: 'USD Coin (Solana)',
    asset: 'USDC/solana',
    networkCode: 'solana',
    contractAddress: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    supportsTestMode: true,
    ...STABLECOIN_RULES,
  },
  {
    code: 'usdc_polygon',
    name: 'USD Coin (Polygon)',
    asset: 'USDC/polygon',
    networkCode: 'polygon',
    chainId: '137',
    contractAddress: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
    supportsTestMode: true,
    ...STABLECOIN_RULES,
  },
  {
    code: 'usdc_base',
    name: 'USD Coin (Base)',
    asset: 'USDC/base',
    networkCode: 'base',
    chainId: '8453',
    contractAddress: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    supportsTestMode: true,
    ...STABLECOIN_RULES,
  },
  { code: 'sol', name: 'Solana', asset: 'SOL/solana', networkCode: 'solana', supportsTestMode: true },
  { code: 'trx', name: 'TRON', asset: 'TRX/tron', networkCode: 'tron', supportsTestMode: true, notAllowedUSStates: ['NY'] },
  { code: 'ltc', name: 'Litecoin', asset: 'LTC/litecoin', networkCode: 'litecoin', supportsTestMode: true },
  { code: 'pol_polygon', name: 'POL (Polygon)', asset: 'POL/polygon', networkCode: 'polygon', chainId: '137', supportsTestMode: true },
  { code: 'doge', name: 'Dogecoin', asset: 'DOGE/dogecoin', networkCode: 'dogecoin', supportsTestMode: true },
  { code: 'xrp', name: 'XRP', asset: 'XRP/ripple', networkCode: 'ripple', supportsTestMode: true },
  { code: 'ton', name: 'Toncoin', asset: 'TON/ton', networkCode: 'ton', supportsTestMode: true },
  { code: 'bnb_bsc', name: 'BNB (BNB Chain)', asset: 'BNB/bsc', networkCode: 'binance_smart_chain', chainId: '56', supportsTestMode: true },
  { code: 'ada', name: 'Cardano', asset: 'ADA/cardano', networkCode: 'cardano', supportsTestMode: false },
  {
    code: 'shib',
    name: 'Shiba Inu (ERC-20)',
    networkCode: 'ethereum',
    chainId: '1',
    contractAddress: '0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce',
    supportsTestMode: true,
  },
];

/** Countries the simulated MoonPay lists but does not serve. */
export const MOONPAY_REFUSED_COUNTRIES: readonly string[] = ['CU', 'IR', 'KP'];
