import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AUTHENTICATED, BAD_QUERY, BODY_ERRORS, ok, problem, UNREADABLE_503 } from '../openapi/responses';
import { OrderPathSchema, OrderStatusQuerySchema } from '../schemas';
import { ConfirmSellDepositRequest, CreateSellOrderRequest, SellOrder } from '../sell-schemas';

/** The OpenAPI paths of the off-ramp order routes (./sell-orders.ts). */
export function registerSellOrderPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/off_ramp/orders',
    operationId: 'createSellOrder',
    tags: ['Off-ramp'],
    summary: 'Creates the sell order with the chosen provider',
    description:
      'Accepted only while a matching sell offer is live (same API key, external_user_id, provider, currencies, amount, country, state ' +
      'and payout method). Idempotent on external_order_id, apart from buy orders: repeating the request returns the same order; the ' +
      'same external_order_id with another body is `409`. Send the customer to `redirect_url`; `deposit` appears once the provider gives it.',
    request: { body: { required: true, content: { 'application/json': { schema: CreateSellOrderRequest } } } },
    responses: {
      200: {
        ...ok('The sell order (new, or the one this external_order_id created before).', SellOrder),
        links: {
          GetSellOrder: {
            operationId: 'getSellOrder',
            description: "The order's current state: its `id` as `code`, at the provider it was created with.",
            parameters: { 'path.provider_code': '$request.body#/provider_code', 'query.code': '$response.body#/id' },
          },
        },
      },
      400: BAD_QUERY(
        'a field is missing or malformed (`errors` names each), the body is not JSON, a currency is a ticker or unknown, the provider buys no crypto, or the country needs a state.',
      ),
      409: problem(409, '`idempotency_conflict`: this external_order_id was used before with another body; `external_order_id_retired`.'),
      ...BODY_ERRORS,
      422: problem(
        422,
        '`unsupported_pair` (a fiat currency where the crypto one belongs, or the reverse), `offer_expired` (no live sell offer matches), `invalid_wallet_address` (the refund address) or `provider_rejected`.',
      ),
      503: problem(503, '`service_unavailable` or `provider_unavailable`: nothing was created; repeat the request after Retry-After.', [
        'Retry-After',
      ]),
      ...AUTHENTICATED,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/off_ramp/orders/{provider_code}',
    operationId: 'getSellOrder',
    tags: ['Off-ramp'],
    summary: "A sell order's current state, its deposit instruction included",
    description: "Answered from the order's workflow, also after the order has finished. A buy order's code is 404 here.",
    request: { params: OrderPathSchema, query: OrderStatusQuerySchema },
    responses: {
      200: ok('The sell order.', SellOrder),
      400: problem(400, '`validation_error`: code is missing or not an order id.'),
      404: problem(404, "`not_found`: no such sell order at this provider for this API key's integrator."),
      503: problem(503, UNREADABLE_503, ['Retry-After']),
      ...AUTHENTICATED,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/off_ramp/orders/{provider_code}/deposit_confirmation',
    operationId: 'confirmSellDeposit',
    tags: ['Off-ramp'],
    summary: "Passes the customer's deposit transaction to the provider",
    description:
      "For providers that take the customer's transaction (Banxa's sell confirmation; the others see the deposit on chain: `422 deposit_confirmation_unsupported`). " +
      'Taken while the order shows its deposit and waits for it; one transaction per order: the same one again answers the order, another is `409`. ' +
      "The order then shows it as `deposit_confirmation`; its status still moves only on the provider's word.",
    request: {
      params: OrderPathSchema,
      query: OrderStatusQuerySchema,
      body: { required: true, content: { 'application/json': { schema: ConfirmSellDepositRequest } } },
    },
    responses: {
      200: ok('The sell order, `deposit_confirmation` set.', SellOrder),
      400: BAD_QUERY(
        "`validation_error`: code is missing or not an order id, or transaction_hash is missing or not a transaction of the order's network.",
      ),
      404: problem(404, "`not_found`: no such sell order at this provider for this API key's integrator."),
      409: problem(
        409,
        '`deposit_not_awaited` (the order shows no deposit yet, or no longer waits for one) or `deposit_already_confirmed` (another transaction was confirmed).',
      ),
      ...BODY_ERRORS,
      422: problem(
        422,
        '`deposit_confirmation_unsupported` (the provider takes none) or `provider_rejected` (the provider refused the transaction).',
      ),
      503: problem(503, '`service_unavailable` or `provider_unavailable`: repeat the same request after Retry-After.', ['Retry-After']),
      ...AUTHENTICATED,
    },
  });
}
