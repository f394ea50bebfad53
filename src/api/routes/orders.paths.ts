import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { CSV_COLUMNS } from '../order-export-format';
import { OrderSearchPageSchema } from '../order-list-schemas';
import { headers, RATE_LIMIT_HEADERS } from '../openapi/headers';
import { AUTHENTICATED, BAD_QUERY, BODY_ERRORS, ok, problem, UNREADABLE_503 } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI paths of the order routes (./orders.ts). */
export function registerOrderPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/on_ramp/orders',
    operationId: 'createOrder',
    tags: ['Orders'],
    summary: 'Creates the order with the chosen provider',
    description:
      'Accepted only while a matching offer is live (same API key, external_user_id, provider, currencies, amount, country, state and ' +
      'payment method). Idempotent on external_order_id: repeating the request returns the same order; the same external_order_id ' +
      'with another body is `409`. Send the customer to `redirect_url`.',
    request: { body: { required: true, content: { 'application/json': { schema: S.CreateOrderRequest } } } },
    responses: {
      200: {
        ...ok('The order (new, or the one this external_order_id created before).', S.Order),
        links: {
          GetOrder: {
            operationId: 'getOrder',
            description: "The order's current state: its `id` as `code`, at the provider it was created with.",
            parameters: { 'path.provider_code': '$request.body#/provider_code', 'query.code': '$response.body#/id' },
          },
        },
      },
      400: BAD_QUERY(
        'a field is missing or malformed (`errors` names each), the body is not JSON, a currency is a ticker or unknown, or the country needs a state.',
      ),
      409: problem(
        409,
        '`idempotency_conflict`: this external_order_id was used before with another body; `external_order_id_retired`: its order has been deleted, and the id is never used again.',
      ),
      ...BODY_ERRORS,
      422: problem(
        422,
        '`unsupported_pair` (a crypto currency where a fiat one belongs, or the reverse), `offer_expired` (no live offer matches), ' +
          '`invalid_wallet_address` or `provider_rejected`.',
      ),
      503: problem(
        503,
        '`service_unavailable` (Temporal cannot be reached, the order is not created yet: repeat the request after Retry-After, ' +
          'or the order this external_order_id names cannot be decoded by the broker: an encryption setting, Retry-After 60) ' +
          'or `provider_unavailable` (the provider could not create the order, or its recent creations failed and it is out of ' +
          'service until Retry-After: nothing was started; choose another offer, or repeat the request after Retry-After). ' +
          "With `provider_unavailable`, `alternatives` lists the request's other live offers, best first: the same request with " +
          'another `provider_code` from it is accepted while its `expires_at` has not passed.',
        ['Retry-After'],
      ),
      ...AUTHENTICATED,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/on_ramp/orders',
    operationId: 'searchOrders',
    tags: ['Orders'],
    summary: "The API key's integrator's own orders, buys and sells, newest first",
    description:
      'Answered from Temporal visibility through the order search attributes, always limited to your own orders: buy orders ' +
      '(`kind: "on_ramp"`) and sell orders (`kind: "off_ramp"`, POST /api/off_ramp/orders) alike, unless `kind` names one. ' +
      '`status` takes a status of either kind; with `kind`, only a status of that kind. ' +
      'Filters combine with AND; an unknown parameter is `400`. Page with `limit` and the `next_cursor` of the answer: a keyset on ' +
      "when each order was requested (its created_at follows within the provider's answer), so pages neither repeat nor skip " +
      'orders while new ones are created; a page reads about its own size from visibility, however many orders you have. ' +
      'Visibility is eventually consistent: an order can take a moment to appear, or to show its latest status, here ' +
      '(GET /api/on_ramp/orders/{provider_code} is exact). At most ORDER_SEARCH_CONCURRENCY (2) searches of yours run at once ' +
      'in each API process; another is `429`.',
    request: { query: S.OrderSearchQuery },
    responses: {
      200: ok(
        'A page of orders, each as GET /api/on_ramp/orders/{provider_code} (a buy) or GET /api/off_ramp/orders/{provider_code} (a sell) returns it, with its `kind`.',
        OrderSearchPageSchema,
      ),
      400: problem(
        400,
        '`validation_error`: an unknown parameter, a malformed filter (a quote or backslash in an id, a date that is not RFC 3339, ' +
          'a limit outside 1–100, a status of neither kind, or a status of the other kind than `kind`) or a cursor this API did not ' +
          'give; `errors` names each.',
      ),
      503: problem(503, '`service_unavailable`: Temporal cannot be reached.', ['Retry-After']),
      ...AUTHENTICATED,
      429: problem(
        429,
        '`rate_limited`: more requests than the API key, or the client address, may make in the window; or as many searches ' +
          'of yours as may run at once are running (Retry-After: 1).',
        ['Retry-After', ...RATE_LIMIT_HEADERS],
      ),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/on_ramp/orders/export',
    operationId: 'exportOrders',
    tags: ['Orders'],
    summary: "The API key's integrator's orders of a window, buys and sells, streamed as CSV or JSON lines",
    description:
      'Every order of yours, buy and sell (unless `kind` names one), requested in the window (requested_from included, requested_to excluded, so consecutive windows ' +
      'hold each order once; at most ORDER_EXPORT_MAX_DAYS, 93 days; ending at least ORDER_CREATE_TIMEOUT_SECONDS + 60 s ago, ' +
      'so that every order of the window is visible), newest first, filtered like the search; read from visibility a page at a ' +
      "time on the search's keyset, so no order is skipped or repeated while others are created. CSV (RFC 4180, a header " +
      'record, CRLF) has one record per order: ' +
      CSV_COLUMNS.map((c) => `\`${c}\``).join(', ') +
      ' (a sell order: `from_*` the crypto sent, `to_*` the fiat payout, `transaction_hash` the deposit transaction; ' +
      "`payment_method` and `wallet_address` are a buy's, `payout_method`, `refund_wallet_address` and `deposit_*` a sell's, " +
      'empty for the other kind); a cell that a spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) ' +
      'is written with a leading apostrophe. JSON lines have one order per line, as GET /api/on_ramp/orders/{provider_code} ' +
      '(a buy) or GET /api/off_ramp/orders/{provider_code} (a sell) returns it, with `kind`, `provider_code`, `requested_at` and `quoted_fee_amount` (the total fee of the offer the order was placed against; ' +
      "absent for orders placed before it was kept). gzip when Accept-Encoding takes it. Paced by your order searches' " +
      'visibility budget (ORDER_SEARCH_CALLS_PER_SECOND), which an export waits for rather than refusing; one export of yours ' +
      'at a time. An export past ORDER_EXPORT_MAX_SECONDS (1800 s), however it spends them (a slow reader too), or failing ' +
      'mid-way is cut: the body ends without its last chunk (the connection is reset), never as a complete answer (over ' +
      'HTTP/1.1 or later: HTTP/1.0 has no chunks to tell the two apart).',
    request: { query: S.OrderExportQuery },
    responses: {
      200: {
        description: 'The orders, newest first (by when each was requested, which created_at follows).',
        headers: headers(...RATE_LIMIT_HEADERS, 'Content-Disposition'),
        content: {
          'text/csv': { schema: { type: 'string' } },
          'application/jsonl': { schema: { type: 'string' } },
        },
      },
      400: problem(
        400,
        '`validation_error`: an unknown parameter, a missing or malformed requested_from or requested_to, a window that does ' +
          'not end after it starts, is wider than ORDER_EXPORT_MAX_DAYS or ends too recently, or a malformed filter (a status of ' +
          'neither kind, or of the other kind than `kind`); `errors` names each.',
      ),
      422: problem(422, '`export_too_large`: the window holds more than ORDER_EXPORT_MAX_ROWS (100,000) orders; export narrower windows.'),
      503: problem(
        503,
        '`service_unavailable`: Temporal cannot be reached; an order of the window cannot be decoded by the broker (an ' +
          'encryption setting: the export is refused rather than incomplete; Retry-After: 60); or as many exports as this API ' +
          'process takes (ORDER_EXPORT_CONCURRENCY) are streaming (Retry-After: 10).',
        ['Retry-After'],
      ),
      ...AUTHENTICATED,
      429: problem(
        429,
        '`rate_limited`: more requests than the API key, or the client address, may make in the window; or an export of yours ' +
          'is streaming already (Retry-After: 10).',
        ['Retry-After', ...RATE_LIMIT_HEADERS],
      ),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/on_ramp/orders/{provider_code}',
    operationId: 'getOrder',
    tags: ['Orders'],
    summary: "An order's current state",
    description: "Answered from the order's workflow, also after the order has finished.",
    request: { params: S.OrderPathSchema, query: S.OrderStatusQuerySchema },
    responses: {
      200: ok('The order.', S.Order),
      400: problem(400, '`validation_error`: code is missing or not an order id.'),
      404: problem(404, "`not_found`: no such order at this provider for this API key's integrator."),
      503: problem(503, UNREADABLE_503, ['Retry-After']),
      ...AUTHENTICATED,
    },
  });
}
