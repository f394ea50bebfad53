import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { headers, RATE_LIMIT_HEADERS } from '../openapi/headers';
import { AUTHENTICATED, problem } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI path of the customer route (./customers.ts). */
export function registerCustomerPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'delete',
    path: '/api/on_ramp/customers/{external_user_id}',
    operationId: 'forgetCustomer',
    tags: ['Customers'],
    summary: 'Deletes what the broker keeps of one of your users for ranking offers',
    description:
      "The broker remembers, for the offers' returning-customer boost, which providers each of your users completed an order with " +
      '(kept under a keyed hash of your integrator id and the user id, never the ids, for RANKING_CUSTOMER_RETENTION_DAYS). This ' +
      "deletes it for this user of yours (another integrator's user with the same id is not touched) and keeps a record of the " +
      'deletion for 31 days, so that orders finished before it are not counted again. It cannot be undone. The order records ' +
      'themselves are not deleted: Temporal keeps closed orders for its retention (30 days), and GET /api/on_ramp/orders still ' +
      'finds them. Idempotent: 204 whether or not anything was kept.',
    request: { params: S.CustomerPathSchema },
    responses: {
      204: { description: 'Deleted, or nothing was kept.', headers: headers(...RATE_LIMIT_HEADERS) },
      400: problem(400, '`validation_error`: external_user_id is not 1 to 128 printable ASCII characters without spaces.'),
      503: problem(503, '`service_unavailable`: the store (Redis) cannot be reached; nothing was deleted, try again.', ['Retry-After']),
      ...AUTHENTICATED,
    },
  });
}
