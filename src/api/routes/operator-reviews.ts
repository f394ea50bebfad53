import type { Request, Router } from 'express';
import type { z } from 'zod';
import type { IntegratorDirectory } from '../../config/integrators';
import { InvalidPageTokenError, type OperatedOrder, type ReviewDesk } from '../../operators/reviews';
import type { ProviderRegistry } from '../../providers/registry';
import { isTerminal } from '../../domain/order-status';
import { integratorWebhookId } from '../../temporal/order-contract';
import type { ActionOutcome, AuditEntry, OperatorActionName, ReviewRecord, ReviewSubject } from '../../temporal/review-contract';
import type { WebhookDeliveryOptions } from '../../webhooks/delivery';
import { orderWebhookBody } from '../../webhooks/event';
import { UNPAID } from '../../../workflows/order-state';
import { deliverOnce } from '../deliver-once';
import { jsonBody } from '../json-body';
import { operatorOf } from '../operator-auth';
import {
  AcknowledgeBodySchema,
  ActionBodySchema,
  CancelBodySchema,
  OperatorOrderPathSchema,
  QUEUE_LIMIT,
  ReviewPathSchema,
  ReviewQueueQuerySchema,
} from '../operator-schemas';
import { methodNotAllowed, ProblemError, REQUEST_PARSE, validationProblem } from '../problem';

export interface OperatorReviewDependencies {
  reviews: ReviewDesk;
  providers: ProviderRegistry;
  integrators: IntegratorDirectory;
  webhookDelivery: WebhookDeliveryOptions;
}

/**
 * The review queue and the actions on it (docs/operations.md, "Review queue"). Every action is
 * recorded in the review first (who, when, the note: the audit entry, in the review's history),
 * then told to the order's workflow when it runs (its history), then settled with its outcome; the
 * API's log gets an `audit` line too. No action moves an order's status: poll and cancel ask the
 * provider, and only the provider's answer, through the order's checks, does.
 */
export function operatorReviewRoutes(router: Router, deps: OperatorReviewDependencies): void {
  const { reviews } = deps;

  router
    .route('/reviews')
    .get(async (req, res) => {
      const query = parse(ReviewQueueQuerySchema, req.query, 'query');
      const page = await reviews
        .queue(
          { reason: query.reason, providerCode: query.provider_code, integratorId: query.integrator_id },
          query.limit ?? QUEUE_LIMIT.default,
          query.page_token,
        )
        .catch((err: unknown) => {
          if (err instanceof InvalidPageTokenError) {
            throw new ProblemError('validation_error', err.message, [
              { path: 'page_token', message: 'the next_page_token of a previous answer with the same filters' },
            ]);
          }
          throw err;
        });
      res.json({
        reviews: page.reviews.map((r) => ({
          review_id: r.reviewId,
          subject: subjectOut(r.subject),
          open: r.open.map((o) => ({ reason: o.reason, detail: o.detail, raised_at: o.raisedAt })),
          opened_at: r.openedAt,
        })),
        ...(page.nextPageToken ? { next_page_token: page.nextPageToken } : {}),
      });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/reviews/:review_id')
    .get(async (req, res) => {
      const { review_id: reviewId } = parse(ReviewPathSchema, req.params, 'path');
      const record = await reviews.review(reviewId);
      const order = record?.subject.kind === 'order' || !record ? await orderOrNone(reviews, reviewId) : undefined;
      if (!record && !order) throw new ProblemError('not_found', 'No review and no order with this id.');
      res.json(recordOut(record ?? emptyRecord(reviewId, order!), order));
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/reviews/:review_id/acknowledge')
    .post(jsonBody, async (req, res) => {
      const { review_id: reviewId } = parse(ReviewPathSchema, req.params, 'path');
      const body = parse(AcknowledgeBodySchema, req.body, 'body');
      const record = await reviews.review(reviewId);
      if (!record) throw new ProblemError('not_found', 'No review with this id.');
      // The occurrences open as the operator's request finds them: one raised after it stays open.
      const named = record.reasons.filter((r) => !r.acknowledged && (body.reasons === undefined || body.reasons.includes(r.reason)));
      const acknowledged = [...new Set(named.map((r) => r.reason))];
      if (acknowledged.length === 0) throw new ProblemError('action_refused', 'Nothing of what was named is open in this review.');
      const entry = await reviews.record(record.subject, operatorOf(req), 'acknowledge', {
        note: body.note,
        reasons: body.reasons,
        known: record,
      });
      audit(req, record.subject, entry);
      if (record.subject.kind === 'order') {
        const order = await reviews.order(record.subject.orderId);
        if (order?.running && !isSellOrder(order)) await reviews.tellOrder(order.subject.orderId, entry);
      }
      const outcome = await reviews.settle(record.subject, entry, 'done', `acknowledged: ${acknowledged.join(', ')}`);
      audit(req, record.subject, entry, outcome);
      res.json(entryOut({ ...entry, outcome }));
    })
    .all(methodNotAllowed(['POST']));

  for (const action of ['poll', 'cancel'] as const) {
    router
      .route(`/orders/:order_id/${action}`)
      .post(jsonBody, async (req, res) => {
        const order = await operatedOrder(reviews, req);
        const body = parse(action === 'cancel' ? CancelBodySchema : ActionBodySchema, req.body ?? {}, 'body');
        if (isSellOrder(order)) {
          throw new ProblemError(
            'action_refused',
            `A sell (off-ramp) order takes no operator ${action}: it follows its provider by itself; its review is acknowledged, its webhook resent.`,
          );
        }
        if (!order.running || isTerminal(order.memo.order.status)) {
          throw new ProblemError(
            'order_closed',
            `The order is ${order.memo.order.status} and no longer followed: it cannot poll or cancel any more.`,
          );
        }
        if (action === 'cancel') checkCancellable(order, deps.providers);
        const entry = await reviews.record(order.subject, operatorOf(req), action, {
          note: body.note,
          known: await reviews.review(order.subject.orderId),
        });
        audit(req, order.subject, entry);
        if (!(await reviews.tellOrder(order.subject.orderId, entry))) {
          const outcome = await reviews.settle(order.subject, entry, 'refused', "the order's workflow ended before it was told");
          audit(req, order.subject, entry, outcome);
          throw new ProblemError('order_closed', "The order's workflow has ended: it cannot poll or cancel any more.");
        }
        // The order acts on it in its own time: its outcome comes to the review (GET /api/operator/reviews/{order id}).
        res.status(202).json(entryOut(entry));
      })
      .all(methodNotAllowed(['POST']));
  }

  router
    .route('/orders/:order_id/resend_webhook')
    .post(jsonBody, async (req, res) => {
      const order = await operatedOrder(reviews, req);
      const body = parse(ActionBodySchema, req.body ?? {}, 'body');
      const integrator = deps.integrators.byId(order.memo.integratorId);
      if (!integrator?.webhook_url || !integrator.webhook_secret) {
        throw new ProblemError('action_refused', `Integrator ${order.memo.integratorId} has no webhook endpoint.`);
      }
      const entry = await reviews.record(order.subject, operatorOf(req), 'resend_webhook', {
        note: body.note,
        known: await reviews.review(order.subject.orderId),
      });
      audit(req, order.subject, entry);
      if (order.running && !isSellOrder(order)) await reviews.tellOrder(order.subject.orderId, entry);
      // The order's latest webhook again, rebuilt from its memo: the same webhook-id and bytes as the original.
      const { memo } = order;
      const webhookId = integratorWebhookId(memo.order.id, memo.sequence);
      const message = orderWebhookBody({ occurredAt: memo.order.updated_at, order: memo.order, sequence: memo.sequence });
      const result = await deliverOnce(
        deps.webhookDelivery,
        { url: integrator.webhook_url, secret: integrator.webhook_secret },
        { id: webhookId, body: message },
      );
      const outcome = await reviews.settle(
        order.subject,
        entry,
        result.delivered ? 'done' : 'failed',
        result.delivered ? `delivered: HTTP ${result.status_code}` : `not delivered: ${result.error ?? `HTTP ${result.status_code}`}`,
      );
      audit(req, order.subject, entry, outcome);
      res.json({ ...entryOut({ ...entry, outcome }), webhook_id: webhookId, sequence: memo.sequence, ...result });
    })
    .all(methodNotAllowed(['POST']));
}

function parse<S extends z.ZodType>(schema: S, value: unknown, where: 'query' | 'path' | 'body'): z.infer<S> {
  const parsed = schema.safeParse(value, REQUEST_PARSE);
  if (!parsed.success) throw validationProblem(parsed.error, where);
  return parsed.data;
}

async function orderOrNone(reviews: ReviewDesk, id: string): Promise<OperatedOrder | undefined> {
  return /^[0-9a-f]{8}-/.test(id) ? reviews.order(id) : undefined;
}

/**
 * A sell order: its workflow takes no operator requests (it has no handler for them, so a signal
 * would wait in its history unanswered), and its audit entries live in its review alone.
 */
function isSellOrder(order: OperatedOrder): boolean {
  return (order.memo.order as { kind?: unknown }).kind === 'off_ramp';
}

async function operatedOrder(reviews: ReviewDesk, req: Request): Promise<OperatedOrder> {
  const { order_id: orderId } = parse(OperatorOrderPathSchema, req.params, 'path');
  const order = await reviews.order(orderId);
  if (!order) throw new ProblemError('not_found', 'No order with this id.');
  return order;
}

/** An unpaid order, at a provider that documents a cancellation (docs/providers.md, "Cancellation"). */
function checkCancellable(order: OperatedOrder, providers: ProviderRegistry): void {
  const { status } = order.memo.order;
  if (!UNPAID.includes(status)) throw new ProblemError('action_refused', `The order is ${status}: only an unpaid order is cancelled.`);
  if (!providers.get(order.subject.providerCode)?.cancelOrder) {
    throw new ProblemError(
      'action_refused',
      `${order.subject.providerCode} documents no cancellation; the order expires at the end of its payment window.`,
    );
  }
}

/**
 * The API's own audit line, beside the review's record: once when the action is recorded, before it
 * is taken, and again with its outcome when the API knows it (operators ship the API's log to their store).
 */
function audit(req: Request, subject: ReviewSubject, entry: AuditEntry, outcome?: ActionOutcome): void {
  req.log.info({ audit: { ...entry, subject, ...(outcome ? { outcome } : {}) } }, 'operator action');
}

function emptyRecord(reviewId: string, order: OperatedOrder): ReviewRecord {
  return { reviewId, subject: order.subject, reasons: [], actions: [], open: [] };
}

function subjectOut(subject: ReviewSubject) {
  return subject.kind === 'order'
    ? { kind: subject.kind, provider_code: subject.providerCode, order_id: subject.orderId, integrator_id: subject.integratorId }
    : { kind: subject.kind, provider_code: subject.providerCode, provider_order_id: subject.providerOrderId };
}

function entryOut(entry: AuditEntry) {
  return {
    request_id: entry.requestId,
    action: entry.action satisfies OperatorActionName,
    operator_id: entry.operatorId,
    ...(entry.note === undefined ? {} : { note: entry.note }),
    ...(entry.reasons === undefined ? {} : { reasons: entry.reasons }),
    at: entry.at,
    ...(entry.outcome
      ? {
          outcome: {
            outcome: entry.outcome.outcome,
            ...(entry.outcome.detail === undefined ? {} : { detail: entry.outcome.detail }),
            at: entry.outcome.at,
          },
        }
      : {}),
  };
}

function recordOut(record: ReviewRecord, order: OperatedOrder | undefined) {
  return {
    review_id: record.reviewId,
    subject: subjectOut(record.subject),
    open: record.open,
    reasons: record.reasons.map((r) => ({
      reason: r.reason,
      key: r.key,
      detail: r.detail,
      raised_at: r.raisedAt,
      source: r.source,
      ...(r.acknowledged
        ? {
            acknowledged: {
              operator_id: r.acknowledged.operatorId,
              ...(r.acknowledged.note === undefined ? {} : { note: r.acknowledged.note }),
              at: r.acknowledged.at,
              request_id: r.acknowledged.requestId,
            },
          }
        : {}),
    })),
    actions: record.actions.map(entryOut),
    ...(order ? { order: order.memo.order } : {}),
  };
}
