import type { SellOrderStatus } from '../../domain/sell-order-status';
import { sellStatusMapper, type SellStatusMapping } from '../kit/sell-status-map';

/**
 * Every status MoonPay documents for a sell transaction (dev.moonpay.com getselltransaction,
 * webhooks/sell), onto the broker's sell status set; any other is refused.
 * docs/providers/moonpay.md, "Sell (off-ramp)", gives each row's source.
 */
export const MOONPAY_SELL_STATUS_MAP = {
  /** The customer confirmed the sale; MoonPay waits (48 h at most) for the crypto. */
  waitingForDeposit: 'waiting_for_deposit',
  /** The price moved or the deposit was late: the customer must accept a new quote (or be refunded). */
  requoteRequired: 'waiting_for_deposit',
  /** Refined by `depositHash` below: MoonPay has one status for "deposit seen" and "payout under way". */
  pending: 'deposit_received',
  /** The fiat was paid out. */
  completed: 'complete',
  /** Refined by the failure reason and `refundHash` below. */
  failed: 'failed',
} as const satisfies Record<string, SellOrderStatus>;

export type MoonpaySellStatus = keyof typeof MOONPAY_SELL_STATUS_MAP;
export const MOONPAY_SELL_STATUSES = Object.keys(MOONPAY_SELL_STATUS_MAP) as MoonpaySellStatus[];

/** Not a MoonPay status: until the customer confirms the sale in the widget, MoonPay has no sell transaction. */
export const MOONPAY_NO_SELL_TRANSACTION = 'noSellTransactionYet';

/** The documented `failureReason` of a sell that received no deposit in 48 hours. */
export const MOONPAY_DEPOSIT_TIMEOUT = 'Deposit timeout';

const mapListed = sellStatusMapper('MoonPay', MOONPAY_SELL_STATUS_MAP);

/** "Deposit timeout" → deposit_timeout. */
export function sellFailureCode(reason: string | null | undefined): string | undefined {
  const text = reason?.trim();
  if (!text) return undefined;
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

/**
 * A sell transaction's status: `pending` before a deposit hash is known is still waiting for the
 * deposit; `failed` is `expired` for "Deposit timeout", `refunded` once MoonPay names a refund
 * transaction, `failed` with the reason's code otherwise.
 */
export function mapMoonpaySellStatus(
  status: string,
  facts: { depositHash?: string | null; refundHash?: string | null; failureReason?: string | null } = {},
): SellStatusMapping {
  if (status === MOONPAY_NO_SELL_TRANSACTION) return { status: 'created' };
  const mapped = mapListed(status);
  if (status === 'pending' && !facts.depositHash) return { status: 'waiting_for_deposit' };
  if (mapped.status !== 'failed') return mapped;
  if (facts.refundHash) return { status: 'refunded' };
  const code = sellFailureCode(facts.failureReason);
  if (code === sellFailureCode(MOONPAY_DEPOSIT_TIMEOUT)) return { status: 'expired' };
  return { status: 'failed', failureReason: code ?? mapped.failureReason };
}
