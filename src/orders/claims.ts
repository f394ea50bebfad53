import { createHash } from 'node:crypto';
import type { OrderTimings } from '../temporal/order-contract';
import { PROVIDER_CLOCK_SKEW_MS } from '../../workflows/order-state';

/** The workflow type of a claim (workflows/claim.ts). */
export const CLAIM_WORKFLOW_TYPE = 'providerOrderClaim';
/** The workflow type of an order id's reservation (workflows/claim.ts). */
export const ORDER_ID_RESERVATION_WORKFLOW_TYPE = 'orderIdReservation';

/**
 * How much longer than the longest-listening order a claim lasts: room for an order whose expiry
 * ran late because no worker ran it (an outage), before the claim's own retention is relied on.
 */
export const CLAIM_OUTAGE_MARGIN_MS = 24 * 60 * 60_000;

/**
 * The shortest namespace retention the API starts with (src/orders/claim-retention.ts): a closed
 * claim must outlive, for at least this long, any order whose expiry a worker outage delayed past
 * the claim's margin. Temporal's own minimum retention (1 day) meets it.
 */
export const CLAIM_MIN_RETENTION_MS = 24 * 60 * 60_000;

/**
 * How long a claim stays open: as long as any order that could accept its provider order still
 * listens. An order refuses a provider order made before it (by more than PROVIDER_CLOCK_SKEW_MS),
 * and one that is unpaid expires `paymentWindowMs` after its creation and then listens for
 * `settledGraceMs`; the claim starts after its provider order was made. So an order that could
 * accept it was created at most one skew (two, if the provider's clock runs ahead) before the claim
 * and stops listening within window + grace of its creation. An order already holding another
 * provider order refuses this one whenever it listens.
 */
export function claimLifetimeMs(timings: Pick<OrderTimings, 'paymentWindowMs' | 'settledGraceMs'>): number {
  return timings.paymentWindowMs + timings.settledGraceMs + 2 * PROVIDER_CLOCK_SKEW_MS + CLAIM_OUTAGE_MARGIN_MS;
}

/**
 * The claim workflow's id: a SHA-256 (hex) of the claim key, so that no provider value (Ramp's
 * purchase id, let alone a view token) is written into workflow ids, lists and logs.
 */
export function providerOrderClaimId(providerCode: string, claimKey: string): string {
  return `onramp-claim-${providerCode}-${createHash('sha256').update(claimKey).digest('hex')}`;
}
