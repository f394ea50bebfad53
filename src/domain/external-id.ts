import { z } from 'zod';

/**
 * An integrator's own id for its user or its order (`external_user_id`, `external_order_id`). Offers
 * and orders are matched by it, so both accept exactly the same ids.
 */
export const ExternalIdSchema = z
  .string()
  .trim()
  .min(1, { abort: true })
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');
