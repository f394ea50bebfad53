/**
 * The schemas of the lists that hold buys and sells together (GET /api/on_ramp/orders): each order
 * as its own status route returns it, with its `kind`. Apart from schemas.ts, which sell-schemas.ts
 * builds on.
 */
import { z } from 'zod';
import type { Order as BuyOrder } from '../domain/order';
import type { SellOrder as SellOrderType } from '../domain/sell-order';
import { Order } from './schemas';
import { SellOrder } from './sell-schemas';

export const ListedBuyOrder = Order.extend({ kind: z.literal('on_ramp') }).meta({
  id: 'ListedBuyOrder',
  description: 'A buy order as GET /api/on_ramp/orders/{provider_code} returns it, with `kind: "on_ramp"`.',
});

export const ListedOrder = z.discriminatedUnion('kind', [ListedBuyOrder, SellOrder]).meta({
  id: 'ListedOrder',
  description:
    'A buy order (`kind: "on_ramp"`, as GET /api/on_ramp/orders/{provider_code} returns it) or a sell order (`kind: "off_ramp"`, as GET /api/off_ramp/orders/{provider_code} returns it).',
});
export type ListedOrder = z.infer<typeof ListedOrder>;

/** An order of either kind as a list shows it: a sell order carries its kind already, a buy order is given `on_ramp`. */
export function listedOrder(order: BuyOrder | SellOrderType): ListedOrder {
  return 'kind' in order && order.kind === 'off_ramp' ? order : { kind: 'on_ramp', ...(order as BuyOrder) };
}

export const OrderSearchPageSchema = z
  .object({
    orders: z
      .array(ListedOrder)
      .meta({ description: 'Newest first (by when each was requested, which created_at follows), buys and sells.' }),
    next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .meta({ id: 'OrderSearchPage' });
export type OrderSearchPage = z.infer<typeof OrderSearchPageSchema>;
