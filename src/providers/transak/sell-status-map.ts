import type { SellOrderStatus } from '../../domain/sell-order-status';
import { sellStatusMapper } from '../kit/sell-status-map';

/**
 * Every status Transak documents for an off-ramp order (docs.transak.com tracking-user-kyc-and-order-status,
 * webhooks), onto the broker's sell status set; any other is refused. docs/providers/transak.md,
 * "Sell (off-ramp)", gives each row's source.
 */
export const TRANSAK_SELL_STATUS_MAP = {
  /** The order exists (the customer finished the widget); the crypto has not arrived. */
  AWAITING_PAYMENT_FROM_USER: 'waiting_for_deposit',
  /** The customer says they sent it; Transak has not received it yet. */
  PAYMENT_DONE_MARKED_BY_USER: 'waiting_for_deposit',
  /** Documented for on-ramp orders; a sell in it is under way. */
  PROCESSING: 'processing',
  /** The crypto was received and reconciled; the fiat transfer is initiated. */
  PENDING_DELIVERY_FROM_TRANSAK: 'processing',
  /** The crypto was received; the payout could not be made yet (a banking issue). */
  ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK: 'processing',
  /** The fiat was sent to the customer's bank account. */
  COMPLETED: 'complete',
  /** No crypto arrived before `autoExpiresAt`. */
  EXPIRED: 'expired',
  FAILED: 'failed',
  CANCELLED: 'failed',
  REFUNDED: 'refunded',
} as const satisfies Record<string, SellOrderStatus>;

export type TransakSellStatus = keyof typeof TRANSAK_SELL_STATUS_MAP;
export const TRANSAK_SELL_STATUSES = Object.keys(TRANSAK_SELL_STATUS_MAP) as [TransakSellStatus, ...TransakSellStatus[]];

export const mapTransakSellStatus = sellStatusMapper('Transak', TRANSAK_SELL_STATUS_MAP, {
  FAILED: 'payout_failed',
  CANCELLED: 'cancelled',
});
