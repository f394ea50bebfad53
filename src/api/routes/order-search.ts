import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { kindsWith, type AnyOrderStatus, type OrderKind } from '../../domain/order-kind';
import type { OrderSearch, OrderSearchPosition } from '../../orders/search';
import { integratorOf } from '../auth';
import { listedOrder } from '../order-list-schemas';
import { ProblemError, REQUEST_PARSE, validationProblem } from '../problem';
import { OrderSearchCursorSchema, OrderSearchQuerySchema, SEARCH_LIMIT } from '../schemas';

/**
 * The opaque cursor: base64url JSON of when the page's last order was requested (`c`, its
 * OrderRequestedAt) and its id: a keyset, newest first, that the search seeks to.
 */
export function encodeCursor(position: OrderSearchPosition): string {
  return Buffer.from(JSON.stringify({ c: position.requestedAt, i: position.id })).toString('base64url');
}

export function decodeCursor(cursor: string): OrderSearchPosition {
  let parsed: z.ZodSafeParseResult<z.infer<typeof OrderSearchCursorSchema>>;
  try {
    parsed = OrderSearchCursorSchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
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

/** A status filter no order of the `kind` filter can have (a sell status with `on_ramp`, or the reverse) is refused, not answered empty. */
export function checkKindOfStatus(status: AnyOrderStatus | undefined, kind: OrderKind | undefined): void {
  if (status === undefined || kind === undefined || kindsWith(status, kind).length > 0) return;
  throw new ProblemError('validation_error', `No ${kind} order has status ${status}.`, [
    { path: 'status', message: `a status of ${kind === 'on_ramp' ? 'a buy order (OrderStatus)' : 'a sell order (SellOrderStatus)'}` },
  ]);
}

/** GET /api/on_ramp/orders: the caller's own orders, buys and sells, newest first, a page at a time. */
export function searchOrdersHandler(search: OrderSearch): RequestHandler {
  return async (req, res) => {
    const integrator = integratorOf(req);
    const parsed = OrderSearchQuerySchema.safeParse(req.query, REQUEST_PARSE);
    if (!parsed.success) throw validationProblem(parsed.error, 'query');
    const query = parsed.data;
    checkKindOfStatus(query.status, query.kind);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const page = await search.search(
      integrator.id,
      {
        externalUserId: query.external_user_id,
        externalOrderId: query.external_order_id,
        status: query.status,
        providerCode: query.provider_code,
        kind: query.kind,
        createdFromMs: query.created_from === undefined ? undefined : Date.parse(query.created_from),
        createdToMs: query.created_to === undefined ? undefined : Date.parse(query.created_to),
      },
      query.limit ?? SEARCH_LIMIT.default,
      after,
    );
    res.json({ orders: page.orders.map(listedOrder), next_cursor: page.next ? encodeCursor(page.next) : null });
  };
}
