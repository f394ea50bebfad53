import type { OrderStatus } from '../../domain/order-status';
import { statusMapper, type StatusMapping } from '../kit/status-map';

/**
 * Every transaction status Paybis documents and the spellings integrations meet, onto the broker's
 * status set. Documented: the transaction status webhook's `started`, `cancelled`, `rejected`,
 * `payment-error`, `completed` (changelog 2022-09-01); the transaction list writes `created` and
 * `payment_error`. Seen in a partner's integration, not in the documentation: `pending`,
 * `payment-authorized`, `paid`, `confirming`.
 */
export const PAYBIS_STATUS_MAP = {
  /** The request exists; the customer has not started a transaction in the widget (also the adapter's view before one exists). */
  created: 'created',
  /** The customer started the transaction in the widget. */
  started: 'pending',
  pending: 'pending',
  'payment-authorized': 'processing',
  paid: 'processing',
  /** Crypto sent, waiting for confirmations. */
  confirming: 'processing',
  completed: 'complete',
  /**
   * Cancelled by the customer or not paid in time: ended without payment. `expired`, not `failed`:
   * the customer may pay on another transaction of the same request, and only `expired` lets that
   * payment still move the order (src/domain/order-status.ts).
   */
  cancelled: 'expired',
  /** Refused by Paybis's compliance checks. */
  rejected: 'failed',
  /** The payment was declined: ended without payment, like `cancelled`. */
  'payment-error': 'expired',
  payment_error: 'expired',
} as const satisfies Record<string, OrderStatus>;

export type PaybisStatus = keyof typeof PAYBIS_STATUS_MAP;
export const PAYBIS_STATUSES = Object.keys(PAYBIS_STATUS_MAP) as PaybisStatus[];

const FAILURE_REASONS: Partial<Record<PaybisStatus, string>> = {
  rejected: 'rejected_by_provider',
};

export const mapPaybisStatus = statusMapper('Paybis', PAYBIS_STATUS_MAP, FAILURE_REASONS);

/**
 * A listed transaction's mapping, told whether the list shows it paid. `rejected` (Paybis's
 * compliance) comes before or after the payment: before, it ended without payment like
 * `cancelled` (`expired`, so a payment on another transaction still moves the order); after, the
 * order `failed` with money moved.
 */
export function mapPaybisListedStatus(status: string, paid: boolean): StatusMapping {
  return status === 'rejected' && !paid ? { status: 'expired' } : mapPaybisStatus(status);
}

/**
 * Statuses whose webhook the adapter leaves to the order's lookup: a transaction that ended
 * without payment (cancelled, declined), and `rejected`, which may have come before the payment
 * and the webhook does not say which (its mapping then differs: mapPaybisListedStatus).
 */
const LEFT_TO_LOOKUP: ReadonlySet<string> = new Set<PaybisStatus>(['cancelled', 'payment-error', 'payment_error', 'rejected']);

/** Whether a webhook of a transaction in `status` is left to the order's lookup. */
export const paybisLeftToLookup = (status: string): boolean => LEFT_TO_LOOKUP.has(status);
