import type { SellOrderStatus } from '../../domain/sell-order-status';
import { sellStatusMapper } from '../kit/sell-status-map';

/**
 * Every order status Banxa documents (Hosted Checkout "Order Statuses", with their sell meanings),
 * and the spellings the buy map accepts, onto the broker's sell status set; any other is refused.
 * docs/providers/banxa.md, "Sell (off-ramp)", gives each row's source.
 */
export const BANXA_SELL_STATUS_MAP = {
  /** Created (KYC submitted); the conditions for Banxa to accept the crypto are not met yet. */
  pendingPayment: 'created',
  /** Held for extra identity checks before the order is ready. */
  extraVerification: 'created',
  /** Ready to receive the crypto: the customer sends it to the order's deposit address. */
  waitingPayment: 'waiting_for_deposit',
  /** The crypto was received. */
  paymentReceived: 'deposit_received',
  /** Deprecated; final verification and processing. */
  inProgress: 'processing',
  /** Its sell meaning is not documented: read as under way. */
  cryptoTransferred: 'processing',
  coinTransferred: 'processing',
  /** The fiat was sent to the customer. */
  complete: 'complete',
  completed: 'complete',
  succeeded: 'complete',
  /** No crypto arrived in time; revives if it arrives late. */
  expired: 'expired',
  /** The crypto was returned to the customer's wallet. */
  refunded: 'refunded',
  /** Cancelled by Banxa's risk and compliance checks. */
  cancelled: 'failed',
  /** Declined by the payment systems (the payout rail). */
  declined: 'failed',
} as const satisfies Record<string, SellOrderStatus>;

export type BanxaSellStatus = keyof typeof BANXA_SELL_STATUS_MAP;
export const BANXA_SELL_STATUSES = Object.keys(BANXA_SELL_STATUS_MAP) as [BanxaSellStatus, ...BanxaSellStatus[]];

export const mapBanxaSellStatus = sellStatusMapper('Banxa', BANXA_SELL_STATUS_MAP, {
  cancelled: 'cancelled_by_provider',
  declined: 'payout_declined',
});

/** The statuses at which a sell order's lookup names Banxa's deposit address: ready to receive the crypto, or later. */
export const BANXA_DEPOSIT_STATUSES: ReadonlySet<string> = new Set<BanxaSellStatus>([
  'waitingPayment',
  'paymentReceived',
  'inProgress',
  'cryptoTransferred',
  'coinTransferred',
  'complete',
  'completed',
  'succeeded',
  'refunded',
]);
