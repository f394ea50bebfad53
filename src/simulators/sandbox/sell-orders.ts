/** Sandbox Pay's sell (off-ramp) orders: their record, statuses and the customer's actions in each. */

export const SELL_STATUSES = [
  'AWAITING_DEPOSIT',
  'DEPOSIT_CONFIRMING',
  'PAYOUT_PENDING',
  'COMPLETED',
  'PAYOUT_FAILED',
  'EXPIRED',
  'REFUNDED',
] as const;
export type SimSellStatus = (typeof SELL_STATUSES)[number];

/** Where the customer sends the crypto: made by the provider for this order alone. */
export interface SimDeposit {
  address: string;
  /** The destination tag the transfer must carry (XRP). */
  memo?: string;
  network: string;
  /** The crypto amount to send. */
  amount: string;
  /** The end of the deposit window: an order without a deposit by then expires. */
  expires_at: string;
}

export interface SimSellOrder {
  id: string;
  partner_order_id: string;
  side: 'sell';
  status: SimSellStatus;
  crypto_currency: string;
  network: string;
  /** The crypto amount the order was made for. */
  crypto_amount: string;
  /** The crypto amount that arrived, once a deposit has (another than crypto_amount after a wrong amount). */
  received_crypto_amount?: string;
  fiat_currency: string;
  /** The payout, fees taken off: the quote's, then the one computed from what arrived. */
  fiat_amount: string;
  processing_fee: string;
  network_fee: string;
  payout_method: string;
  country: string;
  state?: string;
  refund_address: string;
  deposit: SimDeposit;
  /** The customer's deposit transaction, once seen. */
  deposit_tx_hash?: string;
  /** The payout's reference at the payout rail, once sent. */
  payout_reference?: string;
  /** The transaction that returned the crypto to the refund address. */
  refund_tx_hash?: string;
  failure_reason?: string;
  checkout_url: string;
  return_url?: string;
  created_at: string;
  updated_at: string;
}

/** What the checkout offers in each status (`POST /sell/checkout/{id}` with `{"action": …}`). */
export const SELL_ACTIONS_BY_STATUS: Record<SimSellStatus, readonly string[]> = {
  AWAITING_DEPOSIT: ['pay', 'wrong_amount', 'wrong_network', 'late', 'fail', 'refund', 'expire'],
  DEPOSIT_CONFIRMING: ['fail', 'refund'],
  PAYOUT_PENDING: ['fail', 'refund'],
  COMPLETED: [],
  PAYOUT_FAILED: ['refund'],
  EXPIRED: ['pay', 'late', 'wrong_amount', 'refund'],
  REFUNDED: [],
};

/** Statuses nothing moves a sell order out of. */
export const SELL_TERMINAL: readonly SimSellStatus[] = ['COMPLETED', 'REFUNDED'];
