import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import * as O from '../operator-schemas';
import { BODY_ERRORS, json, ok, problem } from '../openapi/responses';

/** Every operator route's security and its answers to a missing or wrong operator key. */
export const OPERATOR_SECURITY = [{ OperatorKey: [] }];
export const OPERATOR_AUTHENTICATED: RouteConfig['responses'] = {
  401: problem(401, "`unauthorized`: missing or invalid operator key (an integrator's API key is not one).", ['WWW-Authenticate']),
  429: problem(429, '`rate_limited`: more requests than the client address may make in the window.', ['Retry-After']),
  500: problem(500, '`internal_error`: an unexpected error; `request_id` identifies it in the logs.'),
  503: problem(503, '`service_unavailable`: Temporal cannot be reached (Retry-After).', ['Retry-After']),
};

const TAGS = ['Operator'];
const ORDER_ACTION_REFUSALS = {
  404: problem(404, '`not_found`: no order with this id.'),
  409: problem(409, "`order_closed`: the order's workflow has ended; `action_refused`: the action cannot be taken (see `detail`)."),
};

/** The OpenAPI paths of the review queue (./operator-reviews.ts). */
export function registerOperatorReviewPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/operator/reviews',
    operationId: 'listReviewQueue',
    tags: TAGS,
    security: OPERATOR_SECURITY,
    summary: 'The review queue: everything that needs a person',
    description:
      'Open reviews: orders with an integrity alert (`payment_differs`, `report_refused`), open too long (`open_too_long`), found ' +
      "different from the provider's books (`reconciliation_mismatch`, provider transactions the broker never had included), or " +
      'with an integrator webhook given up on (`webhook_not_delivered`). A review leaves the queue when every reason is ' +
      'acknowledged. Newest first as Temporal visibility lists them, a page at a time.',
    request: { query: O.ReviewQueueQuery },
    responses: {
      200: ok('A page of the queue.', O.ReviewQueueSchema),
      400: problem(400, '`validation_error`: a filter, limit or page_token is not valid.'),
      ...OPERATOR_AUTHENTICATED,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/operator/reviews/{review_id}',
    operationId: 'getReview',
    tags: TAGS,
    security: OPERATOR_SECURITY,
    summary: 'A review: its reasons, every action on it (the audit) and the order',
    description:
      "The review's reasons, open and acknowledged (who, when, the note), every operator action with its outcome, and for an " +
      'order, the order as it stands. An order that never needed a review answers with empty reasons and actions.',
    request: { params: O.ReviewPathSchema },
    responses: {
      200: ok('The review.', O.ReviewRecordSchema),
      400: problem(400, '`validation_error`: not a review id.'),
      404: problem(404, '`not_found`: no review and no order with this id.'),
      ...OPERATOR_AUTHENTICATED,
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/api/operator/reviews/{review_id}/acknowledge',
    operationId: 'acknowledgeReview',
    tags: TAGS,
    security: OPERATOR_SECURITY,
    summary: 'Acknowledges open reasons with a note',
    description:
      "Closes the named reasons (every open one without `reasons`); the review leaves the queue when none is open. The order's " +
      'own flags (IntegrityAlert, ReviewReason, ReconciliationMismatch) stay: they record what was found. Nothing of the order moves.',
    request: { params: O.ReviewPathSchema, body: { content: json(O.AcknowledgeBodySchema), required: true } },
    responses: {
      200: ok('The audit entry, done.', O.AuditEntrySchema),
      400: problem(400, '`validation_error`: no note, or a reason not known.'),
      404: problem(404, '`not_found`: no review with this id.'),
      409: problem(409, '`action_refused`: nothing of what was named is open, or the review holds its most actions.'),
      ...BODY_ERRORS,
      ...OPERATOR_AUTHENTICATED,
    },
  });

  for (const [action, summary, description, body] of [
    [
      'poll',
      'Asks the provider about the order now',
      "The order's workflow polls its provider at once and applies the answer through the checks every provider report passes. " +
        "Answered 202 when the order has the request; the outcome comes to the order's review.",
      O.ActionBodySchema,
    ],
    [
      'cancel',
      'Cancels an unpaid order at its provider',
      'Only an unpaid order (`created`, `pending`) at a provider that documents a cancellation (docs/providers.md, "Cancellation"). ' +
        "The order's workflow asks the provider, then polls: its status moves only by what the provider then reports. Answered 202; " +
        "the outcome comes to the order's review.",
      O.CancelBodySchema,
    ],
  ] as const) {
    registry.registerPath({
      method: 'post',
      path: `/api/operator/orders/{order_id}/${action}`,
      operationId: action === 'poll' ? 'pollOrderNow' : 'cancelUnpaidOrder',
      tags: TAGS,
      security: OPERATOR_SECURITY,
      summary,
      description,
      request: { params: O.OperatorOrderPathSchema, body: { content: json(body), required: action === 'cancel' } },
      responses: {
        202: ok('The audit entry; its outcome follows in the review.', O.AuditEntrySchema),
        400: problem(400, '`validation_error`: not an order id, or a body that is not valid.'),
        ...ORDER_ACTION_REFUSALS,
        ...BODY_ERRORS,
        ...OPERATOR_AUTHENTICATED,
      },
    });
  }

  registry.registerPath({
    method: 'post',
    path: '/api/operator/orders/{order_id}/resend_webhook',
    operationId: 'resendIntegratorWebhook',
    tags: TAGS,
    security: OPERATOR_SECURITY,
    summary: "Sends the order's latest webhook to its integrator again",
    description:
      'The same `webhook-id` and body bytes as the original (freshly signed), delivered once through the SSRF guard and timeout of ' +
      'every order webhook, never retried. 200 whether or not the endpoint accepted it; the outcome says.',
    request: { params: O.OperatorOrderPathSchema, body: { content: json(O.ActionBodySchema), required: false } },
    responses: {
      200: ok('The audit entry with its outcome, and what became of the webhook.', O.ResendResultSchema),
      400: problem(400, '`validation_error`: not an order id, or a body that is not valid.'),
      ...ORDER_ACTION_REFUSALS,
      ...BODY_ERRORS,
      ...OPERATOR_AUTHENTICATED,
    },
  });
}
