import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { ExternalIdSchema } from '../domain/external-id';
import { BROKER_EXTRAS_KEYS } from '../domain/order';
import { DECIMAL_AMOUNT_PATTERN } from '../domain/money';
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

/** Digest of the fields that define an order; the same external_order_id with another digest is a conflict. */
export function requestHash(body: Record<string, unknown>): string {
  const canonical = JSON.stringify(canonicalize(body));
  return createHash('sha256').update(canonical).digest('hex');
}

function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonicalize(v)]),
    );
  }
  return value;
}
