import type { SellOrderStatus } from '../../domain/sell-order-status';
import { sellStatusMapper } from '../kit/sell-status-map';

/** Every status of a Sandbox Pay sell order, onto the broker's sell status set. */
export const SANDBOX_SELL_STATUS_MAP = {
  AWAITING_DEPOSIT: 'waiting_for_deposit',
  DEPOSIT_CONFIRMING: 'deposit_received',
  PAYOUT_PENDING: 'processing',
  COMPLETED: 'complete',
  PAYOUT_FAILED: 'failed',
  EXPIRED: 'expired',
  REFUNDED: 'refunded',
} as const satisfies Record<string, SellOrderStatus>;

export type SandboxSellStatus = keyof typeof SANDBOX_SELL_STATUS_MAP;
export const SANDBOX_SELL_STATUSES = Object.keys(SANDBOX_SELL_STATUS_MAP) as [SandboxSellStatus, ...SandboxSellStatus[]];

/** The sell order's schema lists every status, so an unknown one is already refused when the answer or event is read. */
export const mapSandboxSellStatus = sellStatusMapper('the sandbox provider', SANDBOX_SELL_STATUS_MAP, { PAYOUT_FAILED: 'payout_failed' });
