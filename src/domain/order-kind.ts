/**
 * The two kinds of order an integrator's search and export list: buys (`on_ramp`, the customer pays
 * fiat for crypto) and sells (`off_ramp`, the customer sends crypto for a fiat payout). Their status
 * sets overlap, and each kind answers only its own statuses. Pure: no I/O.
 */
import { ORDER_STATUSES, type OrderStatus } from './order-status';
import { SELL_ORDER_STATUSES, type SellOrderStatus } from './sell-order-status';

export const ORDER_KINDS = ['on_ramp', 'off_ramp'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

/** Every status an order of either kind can have, buys' first. */
export const ANY_ORDER_STATUSES = [...new Set<OrderStatus | SellOrderStatus>([...ORDER_STATUSES, ...SELL_ORDER_STATUSES])] as [
  OrderStatus | SellOrderStatus,
  ...(OrderStatus | SellOrderStatus)[],
];
export type AnyOrderStatus = OrderStatus | SellOrderStatus;

const STATUSES_OF: Record<OrderKind, readonly string[]> = { on_ramp: ORDER_STATUSES, off_ramp: SELL_ORDER_STATUSES };

/** The kinds whose orders can have `status` (both, without one), narrowed to `kind` when it is given. */
export function kindsWith(status: AnyOrderStatus | undefined, kind?: OrderKind): OrderKind[] {
  return ORDER_KINDS.filter((k) => (kind === undefined || k === kind) && (status === undefined || STATUSES_OF[k].includes(status)));
}
