import { z } from 'zod';
import { SELL_ORDER_STATUSES } from './sell-order-status';

export const SellOrderStatusSchema = z.enum(SELL_ORDER_STATUSES);

/**
 * Where the customer sends the crypto, as the provider gave it through its authenticated channel
 * (its API's answer, or a verified webhook about this order): validated for the order's network and
 * never changed once set (src/domain/sell-integrity.ts).
 */
export const DepositSchema = z.object({
  address: z.string(),
  /** The destination tag (XRP), memo (Stellar, Cosmos, TON comment) the transfer must carry, where the provider asks for one. */
  memo: z.string().optional(),
  /** The network, as the currency dictionary names it (the order's crypto currency's). */
  network: z.string(),
  /** The crypto amount to send, a decimal string in the order's crypto currency. */
  amount: z.string(),
  /** When the provider stops waiting for the deposit, where it says. */
  expires_at: z.iso.datetime().optional(),
});
export type Deposit = z.infer<typeof DepositSchema>;

/**
 * The customer's deposit transaction as the integrator reported it and the provider took it (where the
 * provider has such a call, as Banxa's sell confirmation): the integrator's word, passed on. The
 * provider's own word is the order's `transaction_hash`.
 */
export const DepositConfirmationSchema = z.object({
  transaction_hash: z.string(),
  confirmed_at: z.iso.datetime(),
});
export type DepositConfirmation = z.infer<typeof DepositConfirmationSchema>;

/** A term of a sell order the provider reports differently, the order showing the provider's figure. */
export const SellDiscrepancySchema = z.object({
  field: z.enum(['from_amount', 'to_amount', 'to_currency']),
  ordered: z.string(),
  reported: z.string(),
});

/** The sell (off-ramp) order as the API returns it and its webhooks carry it. */
export const SellOrderSchema = z.object({
  id: z.uuid(),
  kind: z.literal('off_ramp'),
  status: SellOrderStatusSchema,
  redirect_url: z.url(),
  /** The crypto currency the customer sells. */
  from_currency: z.number().int(),
  /** The crypto amount the customer sends (the provider's figure once it reports a different one). */
  from_amount: z.string(),
  /** The fiat currency paid out. */
  to_currency: z.number().int(),
  /** The fiat amount paid out: the offer's until the provider reports its own. */
  to_amount: z.string(),
  refund_wallet_address: z.string(),
  payout_method: z.string(),
  country_code: z.string().length(2),
  external_user_id: z.string(),
  external_order_id: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  extras: z.record(z.string(), z.unknown()),
  deposit: DepositSchema.optional(),
  /** The customer's deposit transaction, once the provider names it. */
  transaction_hash: z.string().optional(),
  deposit_confirmation: DepositConfirmationSchema.optional(),
  failure_reason: z.string().optional(),
  discrepancies: z.array(SellDiscrepancySchema).optional(),
});
export type SellOrder = z.infer<typeof SellOrderSchema>;
