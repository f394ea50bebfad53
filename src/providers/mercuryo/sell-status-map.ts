import type { SellOrderStatus } from '../../domain/sell-order-status';
import { FAILED_AT_PROVIDER, UnknownProviderStatusError } from '../kit/status-map';
import type { SellStatusMapping } from '../kit/sell-status-map';

/**
 * Every status Mercuryo documents for the two legs of a sell (api-migration-docs
 * Widget_API_Mercuryo_v1.6.md 3.2), as `<type>:<status>`, onto the broker's sell status set; any
 * other is refused. docs/providers/mercuryo.md, "Sell (off-ramp)", gives each row's source.
 */
export const MERCURYO_SELL_STATUS_MAP = {
  /** "new deposit": crypto expected or seen, not yet credited. */
  'deposit:new': 'waiting_for_deposit',
  /** "deposit in progress". */
  'deposit:pending': 'waiting_for_deposit',
  /** "deposit is done"; the docs also write the final deposit status `succeeded`. */
  'deposit:completed': 'deposit_received',
  'deposit:succeeded': 'deposit_received',
  /** "something went wrong". */
  'deposit:failed': 'failed',
  /** "transaction created": after a received deposit, the deposit decides (deposit_received). */
  'sell:new': 'waiting_for_deposit',
  /** "transaction in progress": the exchange and the card payout. */
  'sell:pending': 'processing',
  /** "money transferred to the card". */
  'sell:succeeded': 'complete',
  /**
   * "crypto is refunded to refund_address" after a received deposit; without one, the 6-hour
   * deposit window lapsed ("the request fails"): expired. See mapMercuryoSellLegs.
   */
  'sell:failed': 'refunded',
} as const satisfies Record<string, SellOrderStatus>;

export type MercuryoSellStatus = keyof typeof MERCURYO_SELL_STATUS_MAP;
export const MERCURYO_SELL_STATUSES = Object.keys(MERCURYO_SELL_STATUS_MAP) as MercuryoSellStatus[];

const FAILURE_REASONS: Readonly<Partial<Record<MercuryoSellStatus, string>>> = { 'deposit:failed': 'deposit_failed' };

/** Not a Mercuryo status: until the customer opens the sell widget Mercuryo has no operation for the order. */
export const MERCURYO_SELL_NOT_OPENED = 'widget:not_opened';

const documented = (key: string): key is MercuryoSellStatus => Object.hasOwn(MERCURYO_SELL_STATUS_MAP, key);

/** One leg's status as listed; undefined for one Mercuryo does not document. */
export function lookupMercuryoSellStatus(type: string, status: string): SellStatusMapping | undefined {
  const key = `${type}:${status}`;
  if (!documented(key)) return undefined;
  const mapped = MERCURYO_SELL_STATUS_MAP[key];
  return mapped === 'failed' ? { status: mapped, failureReason: FAILURE_REASONS[key] ?? FAILED_AT_PROVIDER } : { status: mapped };
}

/** A leg of a sell: its type and status. */
export interface SellLeg {
  type: string;
  status: string;
}

const DEPOSIT_RECEIVED = new Set(['completed', 'succeeded']);

/** Whether the deposit leg says the crypto reached Mercuryo. */
export const depositReceived = (deposit: SellLeg | undefined) => deposit !== undefined && DEPOSIT_RECEIVED.has(deposit.status);

/**
 * The broker status of a sell from both its legs, as the lookup shows them (either may be absent,
 * a leg in an undocumented status counts as absent). A failed deposit is `failed`; a sell leg past
 * `new` decides (`sell:failed` is `refunded` after a received deposit, else `expired`); otherwise the
 * deposit leg does, else `sell:new`. The provider status names the deciding leg.
 * UnknownProviderStatusError when no present leg is in a documented status.
 */
export function mapMercuryoSellLegs(
  sell: SellLeg | undefined,
  deposit: SellLeg | undefined,
): SellStatusMapping & { providerStatus: string } {
  const known = (leg: SellLeg | undefined) => (leg && lookupMercuryoSellStatus(leg.type, leg.status) ? leg : undefined);
  const s = known(sell);
  const d = known(deposit);
  const name = (leg: SellLeg) => `${leg.type}:${leg.status}`;
  if (!s && !d) {
    if (sell || deposit) throw new UnknownProviderStatusError('Mercuryo', [sell, deposit].flatMap((l) => (l ? [name(l)] : [])).join(', '));
    return { providerStatus: MERCURYO_SELL_NOT_OPENED, status: 'created' };
  }
  if (d?.status === 'failed') return { providerStatus: name(d), ...lookupMercuryoSellStatus(d.type, d.status)! };
  if (s?.status === 'failed') return { providerStatus: name(s), status: depositReceived(d) ? 'refunded' : 'expired' };
  if (s && s.status !== 'new') return { providerStatus: name(s), ...lookupMercuryoSellStatus(s.type, s.status)! };
  const deciding = d ?? s!;
  return { providerStatus: name(deciding), ...lookupMercuryoSellStatus(deciding.type, deciding.status)! };
}
