/** The sandbox provider's orders: their record, statuses and the customer's actions in each. */
import type { SimulatorFaults } from '../kit/faults';

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

/** Statuses of an order the customer has not paid and that has not ended: the ones a partner's cancel ends. */
export const CANCELLABLE: readonly SimStatus[] = ['CREATED', 'AWAITING_PAYMENT', 'ON_HOLD'];

/** Statuses nothing moves an order out of. */
export const TERMINAL: readonly SimStatus[] = ['COMPLETED', 'REFUNDED'];

/** The sandbox provider's error body. */
export function sandboxError(code: string, message: string, extra: Record<string, unknown> = {}) {
  const details = Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined));
  return { error: { code, message, ...details } };
}

/** The order's fields the `oversizedField` switch can pad. */
const OVERSIZABLE = ['id', 'checkout_url', 'failure_reason', 'tx_hash'] as const;

/**
 * The order as the sandbox's answers and webhooks show it: itself, or with the field the
 * `oversizedField` switch names padded to `oversizedLength` characters (the checkout URL keeps
 * working: the padding is a query parameter).
 */
export function shownOrder(order: SimOrder, faults: Pick<SimulatorFaults, 'oversizedField' | 'oversizedLength'>): SimOrder {
  const field = OVERSIZABLE.find((key) => key === faults.oversizedField);
  if (field === undefined || faults.oversizedLength <= 0) return order;
  const value = order[field] ?? '';
  const base = field === 'checkout_url' ? `${value}${value.includes('?') ? '&' : '?'}pad=` : value;
  return { ...order, [field]: base.padEnd(faults.oversizedLength, 'x') };
}
