import type { SellOrderStatus } from '../../domain/sell-order-status';
import { sellStatusMapper, type SellStatusMapping } from '../kit/sell-status-map';

/**
 * Every sale status Ramp documents (the webhook `type` of `SaleStatusWebhookEvent`, the lookup's
 * `status`): three. Ramp documents no failed or refunded sale; docs/providers/ramp.md, "Sell
 * (off-ramp)", gives each row's source. Any other status is refused.
 */
export const RAMP_SALE_STATUS_MAP = {
  /** "A sale has been created in the widget": refined by the customer's transaction hash below. */
  CREATED: 'waiting_for_deposit',
  /** "The fiat payout has been released". */
  RELEASED: 'complete',
  /** "The sale lapsed without completing": no crypto arrived in Ramp's window. */
  EXPIRED: 'expired',
} as const satisfies Record<string, SellOrderStatus>;

export type RampSaleStatus = keyof typeof RAMP_SALE_STATUS_MAP;
export const RAMP_SALE_STATUSES = Object.keys(RAMP_SALE_STATUS_MAP) as RampSaleStatus[];

/** Not a Ramp status: until the customer accepts the sale in the widget, Ramp has no sale. */
export const RAMP_NO_SALE_STATUS = 'NO_SALE_YET';

const mapListed = sellStatusMapper('Ramp', RAMP_SALE_STATUS_MAP);

/**
 * A sale's status: CREATED once the sale names the customer's transaction is `deposit_received`
 * (Ramp's sub-statuses `crypto.status`/`fiat.status` are unpublished, so they decide nothing).
 */
export function mapRampSaleStatus(status: string, facts: { transactionHash?: string | null } = {}): SellStatusMapping {
  const mapped = mapListed(status);
  if (status === 'CREATED' && facts.transactionHash) return { status: 'deposit_received' };
  return mapped;
}
