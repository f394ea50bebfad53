/**
 * The zod schemas of the operator API's review queue (src/api/routes/operator-reviews.ts): what it
 * parses and what it answers, the OpenAPI document's components too.
 */
import { z } from 'zod';
import { OrderSchema } from '../domain/order';
import { OPERATOR_ACTIONS, QUEUE_REASONS, REVIEW_TEXT_MAX } from '../temporal/review-contract';
import { REVIEW_ID_PATTERN } from '../temporal/reviews';

export const QUEUE_LIMIT = { min: 1, max: 100, default: 50 } as const;

const QueueReasonSchema = z
  .enum(QUEUE_REASONS)
  .meta({ id: 'QueueReason', description: 'Why a person must look (docs/operations.md has a runbook for each).' });
const ActionNameSchema = z.enum(OPERATOR_ACTIONS).meta({ id: 'OperatorActionName' });
const Note = z.string().trim().min(1).max(REVIEW_TEXT_MAX);
const Instant = z.string().meta({ description: 'ISO 8601.', example: '2026-11-30T08:00:00.000Z' });

export const ReviewQueueQuerySchema = z.strictObject({
  reason: QueueReasonSchema.optional(),
  provider_code: z
    .string()
    .regex(/^[a-z0-9_]{2,32}$/)
    .optional(),
  integrator_id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/)
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `an integer from ${QUEUE_LIMIT.min} to ${QUEUE_LIMIT.max}`)
    .transform(Number)
    .pipe(z.number().int().min(QUEUE_LIMIT.min).max(QUEUE_LIMIT.max))
    .optional(),
  page_token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,4096}\.[0-9a-f]{16}$/, 'the next_page_token of a previous answer')
    .optional(),
});

/** The queue's query as the OpenAPI document shows it: `limit` an integer, as the order search's (the route parses the string). */
export const ReviewQueueQuery = ReviewQueueQuerySchema.extend({
  limit: z
    .number()
    .int()
    .min(QUEUE_LIMIT.min)
    .max(QUEUE_LIMIT.max)
    .optional()
    .meta({ description: `Reviews per page (default ${QUEUE_LIMIT.default}).`, example: QUEUE_LIMIT.default }),
  page_token: ReviewQueueQuerySchema.shape.page_token.meta({
    description: 'The `next_page_token` of the previous page; absent for the first page.',
  }),
});

export const ReviewPathSchema = z.object({
  review_id: z
    .string()
    .regex(REVIEW_ID_PATTERN, "an order id, or a provider transaction's review id from the queue")
    .meta({ description: "The review's id: the order's id, or `<provider_code>-txn-<digest>` for a provider transaction." }),
});

export const OperatorOrderPathSchema = z.object({
  order_id: z.uuid('an order id').meta({ description: "The broker's order id." }),
});

export const AcknowledgeBodySchema = z.strictObject({
  note: Note.meta({ description: 'What the operator found and did: kept in the audit.' }),
  reasons: z
    .array(QueueReasonSchema)
    .min(1)
    .max(QUEUE_REASONS.length)
    .optional()
    .meta({ description: 'The reasons acknowledged; absent: every open one.' }),
});

export const ActionBodySchema = z.strictObject({ note: Note.optional().meta({ description: 'Kept in the audit.' }) });
export const CancelBodySchema = z.strictObject({ note: Note.meta({ description: 'Why the order is cancelled: kept in the audit.' }) });

const SubjectSchema = z
  .object({
    kind: z.enum(['order', 'provider_transaction']),
    provider_code: z.string(),
    order_id: z.string().optional(),
    integrator_id: z.string().optional(),
    provider_order_id: z
      .string()
      .optional()
      .meta({ description: 'The provider transaction the broker never had (kind provider_transaction).' }),
  })
  .meta({ id: 'ReviewSubject' });

const OpenReasonSchema = z.object({ reason: QueueReasonSchema, detail: z.string(), raised_at: Instant });

export const ReviewQueueSchema = z
  .object({
    reviews: z.array(
      z
        .object({ review_id: z.string(), subject: SubjectSchema, open: z.array(OpenReasonSchema), opened_at: Instant })
        .meta({ id: 'QueuedReview' }),
    ),
    next_page_token: z.string().optional().meta({ description: 'Pass as `page_token` for the next page; absent on the last.' }),
  })
  .meta({ id: 'ReviewQueue' });

const OutcomeSchema = z
  .object({ outcome: z.enum(['done', 'refused', 'failed']), detail: z.string().optional(), at: Instant })
  .meta({ id: 'ActionOutcome' });

export const AuditEntrySchema = z
  .object({
    request_id: z.string(),
    action: ActionNameSchema,
    operator_id: z.string().meta({ description: 'Who acted (ONRAMP_OPERATORS_FILE).' }),
    note: z.string().optional(),
    reasons: z.array(QueueReasonSchema).optional(),
    at: Instant,
    outcome: OutcomeSchema.optional().meta({ description: 'Absent while the order has not yet acted on it.' }),
  })
  .meta({ id: 'AuditEntry' });

export const ReviewRecordSchema = z
  .object({
    review_id: z.string(),
    subject: SubjectSchema,
    open: z.array(QueueReasonSchema),
    reasons: z.array(
      OpenReasonSchema.extend({
        key: z.string(),
        source: z.enum(['order', 'reconciliation']),
        acknowledged: z.object({ operator_id: z.string(), note: z.string().optional(), at: Instant, request_id: z.string() }).optional(),
      }).meta({ id: 'ReviewReasonEntry' }),
    ),
    actions: z.array(AuditEntrySchema).meta({ description: 'The audit: every action on this review, oldest first.' }),
    order: OrderSchema.optional().meta({ description: 'The order as it stands (kind order).' }),
  })
  .meta({ id: 'ReviewRecord' });

export const ResendResultSchema = AuditEntrySchema.extend({
  webhook_id: z.string(),
  sequence: z.number().int().min(1),
  delivered: z.boolean(),
  status_code: z.number().int().optional(),
  error: z.string().optional(),
  latency_ms: z.number().int(),
}).meta({ id: 'OperatorResendResult' });
