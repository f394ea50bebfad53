/**
 * The simulated Ramp's sales (off-ramp), as an independent reading of Ramp's documentation
 * (docs/providers/ramp.md, "Sell (off-ramp)"): three statuses, CREATED, RELEASED and EXPIRED, and
 * the customer's actions on the widget that move a sale between them. Ramp documents no failed or
 * refunded sale, so the simulator has no action that makes one.
 */
import { cryptoLimits, type SellProfile } from '../kit/sell-pricing';

export type SimSaleStatus = 'CREATED' | 'RELEASED' | 'EXPIRED';

/** `RampSale` as the simulator keeps it; the deposit address is the widget's alone, never sent in the API or a webhook. */
export interface SimSale {
  id: string;
  saleViewToken: string;
  status: SimSaleStatus;
  createdAt: string;
  updatedAt: string;
  transactionHash: string | null;
  exchangeRate: string;
  crypto: {
    amount: string;
    assetInfo: { address: string | null; symbol: string; chain: string; type: string; name: string; decimals: number };
    status: string | null;
  };
  fiat: { amount: string; currencySymbol: string; status: string; payoutMethod: string };
  fees: { amount: string; currencySymbol: string };
}

/** A sale, the widget session that made it, where its webhooks go, and what only the widget shows. */
export interface SaleRecord {
  sale: SimSale;
  session: string;
  offrampWebhookV3Url?: string;
  depositAddress: string;
  depositMemo?: string;
  network: string;
}

/** One step of a sale's walk: its status, and whether Ramp has now seen the customer's transaction. */
export interface SaleStep {
  status: SimSaleStatus;
  deposit?: boolean;
}

/**
 * The widget's actions: `pay` (the crypto arrives, the payout is released), `hold` (the crypto
 * arrives, nothing more), `wrong_amount` (a tenth less arrives, then as pay), `expire` (nothing
 * arrives in Ramp's window). `fail` and `refund` have no documented sale signal and are refused.
 */
export const SALE_ACTIONS = ['pay', 'hold', 'wrong_amount', 'expire'] as const;
export type SaleAction = (typeof SALE_ACTIONS)[number];
export const UNDOCUMENTED_SALE_ACTIONS = ['fail', 'refund'] as const;

export function allowedSaleActions(sale: SimSale): SaleAction[] {
  if (sale.status !== 'CREATED') return [];
  return sale.transactionHash ? ['pay'] : [...SALE_ACTIONS];
}

export function salePlan(action: SaleAction, sale: SimSale): SaleStep[] {
  switch (action) {
    case 'expire':
      return [{ status: 'EXPIRED' }];
    case 'hold':
      return [{ status: 'CREATED', deposit: true }];
    default:
      return sale.transactionHash ? [{ status: 'RELEASED' }] : [{ status: 'CREATED', deposit: true }, { status: 'RELEASED' }];
  }
}

/**
 * What the simulated Ramp buys and how it pays out: the documented payout method names (CARD
 * everywhere, SEPA in euros, AMERICAN_BANK_TRANSFER in dollars); assets as `SYMBOL/CHAIN`.
 */
export const RAMP_SELL_PROFILE: SellProfile = {
  spread: '0.009',
  networkFeeUsd: '0.5',
  countries: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'AT', 'IE', 'PT'],
  fiat: ['EUR', 'GBP', 'USD'],
  assets: ['ETH/ETH', 'USDC/ETH', 'ETH/BASE', 'USDC/BASE', 'POL/MATIC', 'USDC/MATIC', 'SOL/SOLANA', 'USDC/SOLANA'],
  cryptoMinUsd: '20',
  cryptoMaxUsd: '10000',
  payoutMethods: [
    { code: 'CARD', name: 'Card', feeRate: '0.029', feeFixedUsd: '0', minUsd: '15', maxUsd: '10000' },
    { code: 'SEPA', name: 'SEPA', feeRate: '0.0099', feeFixedUsd: '0', minUsd: '15', maxUsd: '10000', fiat: ['EUR'] },
    {
      code: 'AMERICAN_BANK_TRANSFER',
      name: 'ACH',
      feeRate: '0.0099',
      feeFixedUsd: '0',
      minUsd: '15',
      maxUsd: '10000',
      fiat: ['USD'],
    },
  ],
  quoteTtlSeconds: 0,
};

/** The countries each payout method serves (Ramp's `payout-methods` lists them in lower case). */
export const PAYOUT_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  CARD: ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'AT', 'IE', 'PT'],
  SEPA: ['DE', 'FR', 'ES', 'IT', 'NL', 'AT', 'IE', 'PT'],
  AMERICAN_BANK_TRANSFER: ['US'],
};

/** The payout method the widget's customer picks for a currency: the bank transfer where there is one, else card. */
export function widgetPayoutMethod(fiat: string): string {
  return RAMP_SELL_PROFILE.payoutMethods.find((m) => m.code !== 'CARD' && m.fiat?.includes(fiat))?.code ?? 'CARD';
}

/** The crypto limits of an asset in its own units, as the kit reckons them. */
export const saleCryptoLimits = (symbol: string) => cryptoLimits(RAMP_SELL_PROFILE, symbol);

/** Ramp's chain names onto the deposit-address kit's network names. */
export const SALE_CHAIN_NETWORKS: Readonly<Record<string, string>> = {
  ETH: 'ethereum',
  BASE: 'base',
  MATIC: 'polygon',
  SOLANA: 'solana',
};
