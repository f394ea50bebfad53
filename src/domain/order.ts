import { z } from 'zod';
import { ORDER_STATUSES } from './order-status';

export const OrderStatusSchema = z.enum(ORDER_STATUSES);

/** The Order resource as the API returns it (spec "Order", plus failure_reason when failed). */
export const OrderSchema = z.object({
  id: z.uuid(),
  status: OrderStatusSchema,
  redirect_url: z.url(),
  from_currency: z.number().int(),
  from_amount: z.string(),
  to_currency: z.number().int(),
  to_amount: z.string(),
  wallet_address: z.string(),
  payment_method: z.string(),
  country_code: z.string().length(2),
  external_user_id: z.string(),
  external_order_id: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  extras: z.record(z.string(), z.unknown()),
  failure_reason: z.string().optional(),
});

export type Order = z.infer<typeof OrderSchema>;
