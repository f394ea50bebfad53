import { z } from 'zod';

/**
 * How one order run ended, as far as the ranking counts it. `refused` = the provider could not or
 * would not create the order (an invalid wallet address is the customer's and is not an outcome).
 */
export const OutcomeKindSchema = z.enum(['complete', 'not_complete', 'refused']);

export type OutcomeKind = z.infer<typeof OutcomeKindSchema>;

/** One finished order run, folded into the statistics once (deduplicated by `runId`). */
export const OrderOutcomeSchema = z.object({
  runId: z.string().min(1),
  providerCode: z.string().min(1),
  /** ISO 3166 alpha-2; absent when unknown. */
  country: z.string().length(2).optional(),
  paymentMethod: z.string().min(1).optional(),
  kind: OutcomeKindSchema,
  finishedAtMs: z.number().finite(),
  /** For `complete`: ms from the order's created_at to its updated_at. */
  completeMs: z.number().finite().nonnegative().optional(),
  integratorId: z.string().optional(),
  externalUserId: z.string().optional(),
});

export type OrderOutcome = z.infer<typeof OrderOutcomeSchema>;
