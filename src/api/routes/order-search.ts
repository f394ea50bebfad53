import type { RequestHandler } from 'express';
import { z } from 'zod';
import { ExternalIdSchema } from '../../domain/external-id';
import { OrderStatusSchema } from '../../domain/order';
import type { OrderSearch, OrderSearchPosition } from '../../orders/search';
import { UNSAFE_QUERY_CHARACTERS } from '../../orders/visibility-query';
import { integratorOf } from '../auth';
import { ProblemError, REQUEST_PARSE, validationProblem } from '../problem';

export const SEARCH_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** Quotes and backslashes could end a visibility string literal: refused rather than escaped (docs/decisions.md). */
const searchable = (schema: z.ZodString) =>
  schema.refine((v) => !UNSAFE_QUERY_CHARACTERS.test(v), 'quotes and backslashes cannot be searched');

/** The instants a search can name: visibility takes no date before 1970 or after 9999 (and no order has one). */
const SEARCHABLE_FROM_MS = Date.UTC(1970, 0, 1);
const SEARCHABLE_TO_MS = Date.UTC(10000, 0, 1) - 1;
const searchableInstant = (value: string) => {
  const ms = Date.parse(value);
  return ms >= SEARCHABLE_FROM_MS && ms <= SEARCHABLE_TO_MS;
};

const Rfc3339 = z.iso
  .datetime({ offset: true, message: 'expected an RFC 3339 date-time, e.g. 2026-11-22T10:00:00Z' })
  .refine(searchableInstant, 'a date-time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z');

/** GET /api/on_ramp/orders query. Strict: a misspelt filter is an error, never a wider answer. */
export const OrderSearchQuerySchema = z.strictObject({
  external_user_id: searchable(ExternalIdSchema).optional(),
  external_order_id: searchable(ExternalIdSchema).optional(),
  status: OrderStatusSchema.optional(),
  provider_code: z
    .string()
    .regex(/^[a-z0-9_]{2,32}$/)
    .optional(),
  created_from: Rfc3339.optional(),
  created_to: Rfc3339.optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `an integer from ${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max}`)
    .transform(Number)
    .pipe(z.number().int().min(SEARCH_LIMIT.min).max(SEARCH_LIMIT.max))
    .optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,512}$/, 'the next_cursor of a previous answer')
    .optional(),
});

// `i` is an order id, or the edge a page ended at inside a millisecond (search.ts: idBelow): any UUID-shaped id.
const CursorSchema = z.strictObject({ c: z.iso.datetime().refine(searchableInstant), i: z.guid() });

/**
 * The opaque cursor: base64url JSON of when the page's last order was requested (`c`, its
 * OrderRequestedAt) and its id: a keyset, newest first, that the search seeks to.
 */
export function encodeCursor(position: OrderSearchPosition): string {
  return Buffer.from(JSON.stringify({ c: position.requestedAt, i: position.id })).toString('base64url');
}

export function decodeCursor(cursor: string): OrderSearchPosition {
  let parsed: z.ZodSafeParseResult<z.infer<typeof CursorSchema>>;
  try {
    parsed = CursorSchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    parsed = { success: false } as typeof parsed;
  }
  if (!parsed.success) {
    throw new ProblemError('validation_error', 'cursor is not a next_cursor this API gave.', [
      { path: 'cursor', message: 'the next_cursor of a previous answer' },
    ]);
  }
  return { requestedAt: parsed.data.c, id: parsed.data.i };
}

/** GET /api/on_ramp/orders: the caller's own orders, newest first, a page at a time. */
export function searchOrdersHandler(search: OrderSearch): RequestHandler {
  return async (req, res) => {
    const integrator = integratorOf(req);
    const parsed = OrderSearchQuerySchema.safeParse(req.query, REQUEST_PARSE);
    if (!parsed.success) throw validationProblem(parsed.error, 'query');
    const query = parsed.data;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const page = await search.search(
      integrator.id,
      {
        externalUserId: query.external_user_id,
        externalOrderId: query.external_order_id,
        status: query.status,
        providerCode: query.provider_code,
        createdFromMs: query.created_from === undefined ? undefined : Date.parse(query.created_from),
        createdToMs: query.created_to === undefined ? undefined : Date.parse(query.created_to),
      },
      query.limit ?? SEARCH_LIMIT.default,
      after,
    );
    res.json({ orders: page.orders, next_cursor: page.next ? encodeCursor(page.next) : null });
  };
}
