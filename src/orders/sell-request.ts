/**
 * POST /api/off_ramp/orders: the sell order request's schema, its order id and its accepted form.
 */
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import type { Currency } from '../domain/currency';
import { ExternalIdSchema } from '../domain/external-id';
import { decimal, DECIMAL_AMOUNT_PATTERN } from '../domain/money';
import { BROKER_EXTRAS_KEYS } from '../domain/order';
import { extrasLimitBroken } from './extras-limits';
import { requestHash } from './idempotency';

/** Namespace of sell order ids: a sell and a buy with the same external_order_id are two orders. */
const SELL_ORDER_ID_NAMESPACE = 'b3a0c2f4-5d6e-5f70-8a91-0c2d3e4f5a6b';

export function sellOrderIdFor(integratorId: string, externalOrderId: string): string {
  return uuidv5(`${integratorId}\u0000${externalOrderId}`, SELL_ORDER_ID_NAMESPACE);
}

/**
 * Keys of a sell order's `extras` the broker writes (the buy's) or that would pass for the
 * provider's word on where the crypto goes: a request cannot set them.
 */
export const SELL_BROKER_EXTRAS_KEYS = [...BROKER_EXTRAS_KEYS, 'deposit', 'deposit_address', 'deposit_memo'] as const;

export const CreateSellOrderBodySchema = z.strictObject({
  provider_code: z.string().regex(/^[a-z0-9_]{2,32}$/),
  from_currency: z.unknown().optional(),
  to_currency: z.unknown().optional(),
  from_amount: z.string().regex(DECIMAL_AMOUNT_PATTERN, 'a positive decimal string such as "0.05"'),
  refund_wallet_address: z.string().trim().min(1).max(256),
  payout_method: z.string().regex(/^[a-z0-9_]{2,48}$/),
  country_code: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code in capitals'),
  external_user_id: ExternalIdSchema,
  external_order_id: ExternalIdSchema,
  state_code: z
    .string()
    .regex(/^[A-Z0-9]{1,3}$/)
    .optional(),
  return_url: z.string().max(4096).optional(),
  ip: z.union([z.ipv4(), z.ipv6()]).optional(),
  user_agent: z.string().max(512).optional(),
  extras: z
    .record(z.string(), z.unknown())
    .superRefine((extras, ctx) => {
      for (const key of SELL_BROKER_EXTRAS_KEYS) {
        if (Object.hasOwn(extras, key)) {
          ctx.addIssue({ code: 'custom', path: [key], message: `${key} is the provider's word alone; an order request cannot set it` });
        }
      }
      const broken = extrasLimitBroken(extras);
      if (broken) ctx.addIssue({ code: 'custom', path: [], message: broken });
    })
    .optional(),
});
export type CreateSellOrderBody = z.infer<typeof CreateSellOrderBodySchema>;

export interface AcceptedSellOrderRequest {
  integratorId: string;
  orderId: string;
  body: CreateSellOrderBody;
  crypto: Currency & { network: string };
  fiat: Currency;
  state: string | undefined;
  /** from_amount at the crypto currency's precision: "0.05" and "0.050" are one order. */
  fromAmount: string;
}

export function acceptedSellOrderRequest(
  integratorId: string,
  checked: Pick<AcceptedSellOrderRequest, 'body' | 'crypto' | 'fiat' | 'state'>,
): AcceptedSellOrderRequest {
  return {
    integratorId,
    orderId: sellOrderIdFor(integratorId, checked.body.external_order_id),
    ...checked,
    fromAmount: decimal(checked.body.from_amount).toFixed(checked.crypto.precision),
  };
}

/** The digest a sell order keeps of the request that made it (currencies as IDs, the amount at its precision). */
export function acceptedSellRequestHash({ body, crypto, fiat, fromAmount }: AcceptedSellOrderRequest): string {
  return requestHash({ kind: 'off_ramp', ...body, from_amount: fromAmount, from_currency: crypto.id, to_currency: fiat.id });
}

/** The integrator's report of the customer's deposit transaction (POST /api/off_ramp/orders/{provider_code}/deposit_confirmation). */
export const DepositConfirmationBodySchema = z.strictObject({
  transaction_hash: z.string().min(1).max(128),
});
