/** The sandbox provider's orders: their record, statuses and the customer's actions in each. */

export type SimStatus = 'CREATED' | 'AWAITING_PAYMENT' | 'ON_HOLD' | 'PAYMENT_RECEIVED' | 'COMPLETED' | 'FAILED' | 'EXPIRED' | 'REFUNDED';

export interface SimOrder {
  id: string;
  partner_order_id: string;
  status: SimStatus;
  fiat_currency: string;
  fiat_amount: string;
  crypto_currency: string;
  network: string;
  crypto_amount: string;
  wallet_address: string;
  payment_method: string;
  country: string;
  checkout_url: string;
  return_url?: string;
  failure_reason?: string;
  tx_hash?: string;
  created_at: string;
  updated_at: string;
}

export const ACTIONS_BY_STATUS: Record<SimStatus, readonly string[]> = {
  CREATED: ['pay', 'hold', 'fail', 'expire'],
  AWAITING_PAYMENT: ['pay', 'hold', 'fail', 'expire'],
  ON_HOLD: ['pay', 'fail', 'expire'],
  PAYMENT_RECEIVED: ['refund', 'fail'],
  COMPLETED: [],
  FAILED: ['refund'],
  EXPIRED: ['pay'],
  REFUNDED: [],
};

/** Statuses nothing moves an order out of. */
export const TERMINAL: readonly SimStatus[] = ['COMPLETED', 'REFUNDED'];

/** The sandbox provider's error body. */
export function sandboxError(code: string, message: string, extra: Record<string, unknown> = {}) {
  const details = Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined));
  return { error: { code, message, ...details } };
}
