import type { OrderStatus } from '../../domain/order-status';
import { statusMapper } from '../kit/status-map';

/**
 * Every purchase status Ramp documents (REST API and SDK `PurchaseStatus`), plus those seen in
 * Gem Wallet's former Ramp integration (CREATED, FIAT_PENDING, RETURNED, REVIEW_REJECTED,
 * FIAT_RETURNED), onto the broker's status set. docs/providers/ramp.md explains each choice.
 */
export const RAMP_STATUS_MAP = {
  // A purchase exists once the customer is in the widget: they are at the payment step.
  CREATED: 'pending',
  INITIALIZED: 'pending',
  PAYMENT_STARTED: 'pending',
  PAYMENT_IN_PROGRESS: 'pending',
  // "The last payment failed": the customer may pay again, so not final; EXPIRED or CANCELLED ends it.
  PAYMENT_FAILED: 'pending',
  FIAT_SENT: 'pending',
  FIAT_PENDING: 'pending',
  PAYMENT_EXECUTED: 'processing',
  FIAT_RECEIVED: 'processing',
  RELEASING: 'processing',
  RELEASED: 'complete',
  EXPIRED: 'expired',
  CANCELLED: 'failed',
  REVIEW_REJECTED: 'failed',
  RETURNED: 'refunded',
  FIAT_RETURNED: 'refunded',
} as const satisfies Record<string, OrderStatus>;

export type RampStatus = keyof typeof RAMP_STATUS_MAP;
export const RAMP_STATUSES = Object.keys(RAMP_STATUS_MAP) as [RampStatus, ...RampStatus[]];

const FAILURE_REASONS: Partial<Record<RampStatus, string>> = {
  CANCELLED: 'cancelled_at_provider',
  REVIEW_REJECTED: 'rejected_in_review',
};

export const mapRampStatus = statusMapper('Ramp', RAMP_STATUS_MAP, FAILURE_REASONS);
