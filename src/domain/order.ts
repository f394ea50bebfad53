import { z } from 'zod';
import { ORDER_STATUSES } from './order-status';

export const OrderStatusSchema = z.enum(ORDER_STATUSES);

/** A term the provider reports differently from the order (src/domain/integrity.ts). */
export const DiscrepancySchema = z.object({
  field: z.enum(['from_amount', 'from_currency']),
  ordered: z.string(),
  reported: z.string(),
});

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
  /**
   * Present when the provider reports a different fiat amount or currency than was ordered: the
   * order's from_amount and from_currency are then the provider's, and each entry says what was ordered.
   */
  discrepancies: z.array(DiscrepancySchema).optional(),
});

export type Order = z.infer<typeof OrderSchema>;

export { BROKER_EXTRAS_KEYS, integratorExtras } from './order-extras';
