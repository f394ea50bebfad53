import type { OrderStatus } from '../../domain/order-status';
import { statusMapper } from '../kit/status-map';

/** Every status the sandbox provider documents, onto the broker's status set. */
export const SANDBOX_STATUS_MAP = {
  CREATED: 'created',
  AWAITING_PAYMENT: 'pending',
  ON_HOLD: 'hold',
  PAYMENT_RECEIVED: 'processing',
  COMPLETED: 'complete',
  FAILED: 'failed',
  EXPIRED: 'expired',
  REFUNDED: 'refunded',
} as const satisfies Record<string, OrderStatus>;

export type SandboxStatus = keyof typeof SANDBOX_STATUS_MAP;
export const SANDBOX_STATUSES = Object.keys(SANDBOX_STATUS_MAP) as [SandboxStatus, ...SandboxStatus[]];

/** The order's schema lists every status, so an unknown one is already refused when the answer or event is read. */
export const mapSandboxStatus = statusMapper('the sandbox provider', SANDBOX_STATUS_MAP);
