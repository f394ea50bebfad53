import type { OrderStatus } from '../../domain/order-status';
import { statusMapper, type StatusMapping } from '../kit/status-map';

/** Every documented buy transaction status onto the broker's status set. */
export const MOONPAY_STATUS_MAP = {
  /** Bank transfer not yet received by MoonPay. */
  waitingPayment: 'pending',
  /** Waiting for card approval (3-D Secure, bank-side checks). */
  waitingAuthorization: 'hold',
  /** Paid; MoonPay is buying and delivering the crypto. */
  pending: 'processing',
  completed: 'complete',
  /** Refined by the failure reason below: expiries and refunds are reported as `failed` too. */
  failed: 'failed',
} as const satisfies Record<string, OrderStatus>;

export type MoonpayStatus = keyof typeof MOONPAY_STATUS_MAP;
export const MOONPAY_STATUSES = Object.keys(MOONPAY_STATUS_MAP) as MoonpayStatus[];

/**
 * Not a MoonPay status: MoonPay creates the transaction only when the customer submits the widget,
 * so until then a lookup by our id finds nothing and the order is reported under this name.
 */
export const MOONPAY_NO_TRANSACTION = 'noTransactionYet';

/**
 * Failure reasons (the failed stage's snake_case code) that mean more than "failed": the customer
 * never paid in time, or the money went back. The others stay `failed`.
 */
export const MOONPAY_FAILURE_OUTCOMES: Readonly<Record<string, 'expired' | 'refunded'>> = {
  timeout_bank_transfer: 'expired',
  timeout_3d_secure: 'expired',
  timeout_kyc_verification: 'expired',
  timeout_card_verification: 'expired',
  /** The legacy top-level reason "Bank transfer timeout", normalised. */
  bank_transfer_timeout: 'expired',
  refund: 'refunded',
};

/** The documented stage failure codes that stay plain `failed` (for the exhaustive table test and the docs). */
export const MOONPAY_FAILED_REASONS = [
  'card_not_supported',
  'daily_purchase_limit_exceeded',
  'payment_authorization_declined',
  'rejected_kyc',
  'rejected_card',
  'rejected_other',
  'cancelled',
  'failed_testnet_withdrawal',
  'error',
] as const;

const mapListedStatus = statusMapper('MoonPay', MOONPAY_STATUS_MAP);

/**
 * A transaction's status, refined for `failed` by its failure code (failureCode in transformers.ts),
 * which is also the failure reason when it stays `failed`.
 */
export function mapMoonpayStatus(status: string, failureCode?: string): StatusMapping {
  if (status === MOONPAY_NO_TRANSACTION) return { status: 'created' };
  const mapped = mapListedStatus(status);
  if (mapped.status !== 'failed') return mapped;
  const outcome =
    failureCode !== undefined && Object.hasOwn(MOONPAY_FAILURE_OUTCOMES, failureCode) ? MOONPAY_FAILURE_OUTCOMES[failureCode] : undefined;
  return outcome ? { status: outcome } : { status: 'failed', failureReason: failureCode ?? 'failed_at_moonpay' };
}
