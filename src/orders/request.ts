import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import type { Currency } from '../domain/currency';
import { ExternalIdSchema } from '../domain/external-id';
import { BROKER_EXTRAS_KEYS } from '../domain/order';
import { decimal, DECIMAL_AMOUNT_PATTERN } from '../domain/money';
import { extrasLimitBroken } from './extras-limits';

/** Namespace of the broker's order ids (UUIDv5 over integrator and external_order_id). */
const ORDER_ID_NAMESPACE = '6f1f2a7e-3c1e-5b7a-9d2a-8f0c4b1e2d3a';

export function orderIdFor(integratorId: string, externalOrderId: string): string {
  return uuidv5(`${integratorId}\u0000${externalOrderId}`, ORDER_ID_NAMESPACE);
}

/** POST /api/on_ramp/orders body (spec "POST /api/on_ramp/orders"). Currency fields are checked separately. */
export const CreateOrderBodySchema = z.strictObject({
  provider_code: z.string().regex(/^[a-z0-9_]{2,32}$/),
  from_currency: z.unknown().optional(),
  to_currency: z.unknown().optional(),
  from_amount: z.string().regex(DECIMAL_AMOUNT_PATTERN, 'a positive decimal string such as "100.00"'),
  wallet_address: z.string().trim().min(1).max(256),
  payment_method: z.string().regex(/^[a-z0-9_]{2,48}$/),
  country_code: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code in capitals'),
  external_user_id: ExternalIdSchema,
  external_order_id: ExternalIdSchema,
  state_code: z
    .string()
    .regex(/^[A-Z0-9]{1,3}$/)
    .optional(),
  ip: z.union([z.ipv4(), z.ipv6()]).optional(),
  user_agent: z.string().max(512).optional(),
  extras: z
    .record(z.string(), z.unknown())
    .superRefine((extras, ctx) => {
      for (const key of BROKER_EXTRAS_KEYS) {
        if (Object.hasOwn(extras, key)) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `${key} is written by the broker from the provider's reports; an order request cannot set it`,
          });
        }
      }
      const broken = extrasLimitBroken(extras);
      if (broken) ctx.addIssue({ code: 'custom', path: [], message: broken });
    })
    .optional(),
});
export type CreateOrderBody = z.infer<typeof CreateOrderBodySchema>;

/** A create request that passed the API's checks, with the currencies it names and the integrator that sent it. */
export interface AcceptedOrderRequest {
  integratorId: string;
  /** The broker's id of the order (orderIdFor): a repeated request names the same order. */
  orderId: string;
  body: CreateOrderBody;
  fiat: Currency;
  crypto: Currency;
  /** The state the order is for, as checked against its country. */
  state: string | undefined;
  /** from_amount at the fiat currency's precision: "100" and "100.00" are one order. */
  fromAmount: string;
}

/** The accepted request, named by its order id and with its amount at the fiat currency's precision. */
export function acceptedOrderRequest(
  integratorId: string,
  checked: Pick<AcceptedOrderRequest, 'body' | 'fiat' | 'crypto' | 'state'>,
): AcceptedOrderRequest {
  const { body, fiat } = checked;
  return {
    integratorId,
    orderId: orderIdFor(integratorId, body.external_order_id),
    ...checked,
    fromAmount: decimal(body.from_amount).toFixed(fiat.precision),
  };
}
