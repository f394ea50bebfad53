import type { OrderStatus } from '../../domain/order-status';
import { statusMapper, type StatusMapping } from '../kit/status-map';

/** Every documented Onramp transaction status onto the broker's status set. */
export const COINBASE_STATUS_MAP = {
  /** The customer has started the purchase; payment not yet taken. */
  ONRAMP_TRANSACTION_STATUS_CREATED: 'pending',
  /** Paid; Coinbase is buying and sending the crypto. */
  ONRAMP_TRANSACTION_STATUS_IN_PROGRESS: 'processing',
  ONRAMP_TRANSACTION_STATUS_SUCCESS: 'complete',
  ONRAMP_TRANSACTION_STATUS_FAILED: 'failed',
} as const satisfies Record<string, OrderStatus>;

export type CoinbaseStatus = keyof typeof COINBASE_STATUS_MAP;
export const COINBASE_STATUSES = Object.keys(COINBASE_STATUS_MAP) as CoinbaseStatus[];

/**
 * Not a Coinbase status: Coinbase makes the transaction only once the customer is in its Onramp
 * page, so until then a lookup by our id finds nothing and the order is reported under this name.
 */
export const COINBASE_NO_TRANSACTION = 'noTransactionYet';

/** The value of `failureReason` that says nothing. */
const UNSPECIFIED = /_UNSPECIFIED$/;

const mapListed = statusMapper('Coinbase', COINBASE_STATUS_MAP);

/** A transaction's status; a failed one carries Coinbase's failure reason (or error code) when it gives one. */
export function mapCoinbaseStatus(status: string, failureReason?: string | null, errorCode?: string | null): StatusMapping {
  if (status === COINBASE_NO_TRANSACTION) return { status: 'created' };
  const mapped = mapListed(status);
  if (mapped.status !== 'failed') return mapped;
  const reason = [failureReason, errorCode].find((r): r is string => typeof r === 'string' && r !== '' && !UNSPECIFIED.test(r));
  return { status: 'failed', failureReason: reason ?? 'failed_at_coinbase' };
}
