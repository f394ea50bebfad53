import type { OrderStatus } from '../../domain/order-status';
import { FAILED_AT_PROVIDER, statusMapper, UnknownProviderStatusError, type StatusMapping } from '../kit/status-map';

/** Every documented buy order status (`Order.status`) onto the broker's status set. */
export const REVOLUT_STATUS_MAP = {
  AWAITING_PAYMENT: 'pending',
  /** Paid; Revolut is buying and sending the crypto. */
  PROCESSING: 'processing',
  /** Always with a `transaction_hash`. */
  COMPLETED: 'complete',
  /** Refined by `fail_reason` below. */
  FAILED: 'failed',
} as const satisfies Record<string, OrderStatus>;

export type RevolutStatus = keyof typeof REVOLUT_STATUS_MAP;
export const REVOLUT_STATUSES = Object.keys(REVOLUT_STATUS_MAP) as RevolutStatus[];

/** Every documented buy webhook event onto the order status it announces. */
export const REVOLUT_EVENT_STATUS = {
  /** The customer started the purchase in Revolut Ramp: the order awaits payment. */
  ORDER_CREATED: 'AWAITING_PAYMENT',
  ORDER_PROCESSING: 'PROCESSING',
  ORDER_COMPLETED: 'COMPLETED',
  ORDER_FAILED: 'FAILED',
} as const satisfies Record<string, RevolutStatus>;

export type RevolutEvent = keyof typeof REVOLUT_EVENT_STATUS;

/**
 * Not a Revolut status: `/buy` only makes a redirect URL, and Revolut has no order until the customer
 * starts the purchase, so until then a lookup finds nothing (404) and the order is reported under this name.
 */
export const REVOLUT_NO_ORDER = 'NO_ORDER_YET';

/**
 * What each documented `fail_reason` means. The customer who never paid lets the order expire; the
 * others stay `failed` with the broker's reason. A reason Revolut adds later stays a plain `failed`.
 */
export const REVOLUT_FAIL_REASONS: Readonly<Record<string, StatusMapping>> = {
  PAYMENT_NOT_RECEIVED: { status: 'expired' },
  PAYMENT_DECLINED: { status: 'failed', failureReason: 'payment_declined' },
  CRYPTO_WITHDRAWAL_FAILED: { status: 'failed', failureReason: 'crypto_delivery_failed' },
  OTHER: { status: 'failed', failureReason: FAILED_AT_PROVIDER },
};

const mapListedStatus = statusMapper('Revolut Ramp', REVOLUT_STATUS_MAP);

/** An order's status, refined for FAILED by its fail reason; UnknownProviderStatusError for an undocumented status. */
export function mapRevolutStatus(status: string, failReason?: string | null): StatusMapping {
  if (status === REVOLUT_NO_ORDER) return { status: 'created' };
  const mapped = mapListedStatus(status);
  if (mapped.status !== 'failed') return mapped;
  if (failReason && Object.hasOwn(REVOLUT_FAIL_REASONS, failReason)) return REVOLUT_FAIL_REASONS[failReason]!;
  return { status: 'failed', failureReason: FAILED_AT_PROVIDER };
}

/** The order status a webhook event announces; UnknownProviderStatusError for any other event (the sell flow's among them). */
export function revolutStatusOfEvent(event: string): RevolutStatus {
  if (!Object.hasOwn(REVOLUT_EVENT_STATUS, event)) throw new UnknownProviderStatusError('Revolut Ramp', event);
  return REVOLUT_EVENT_STATUS[event as RevolutEvent];
}
