/**
 * Idempotent order creation: the digest that tells two create requests apart, and what a request
 * whose order already exists gets. The order id (orderIdFor) is the idempotency key; this digest is
 * what must match under it.
 */
import { createHash } from 'node:crypto';
import type { OrderMemo } from '../temporal/order-contract';
import { OrderRejectedError } from './errors';
import type { AcceptedOrderRequest } from './request';

/** SHA-256 of the canonical JSON of `fields`: keys sorted at every depth, undefined values left out. */
export function requestHash(fields: Record<string, unknown>): string {
  const canonical = JSON.stringify(canonicalize(fields));
  return createHash('sha256').update(canonical).digest('hex');
}

function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonicalize(v)]),
    );
  }
  return value;
}

/**
 * The digest an order keeps of the request that created it: the body with its currencies as IDs and
 * its amount at the fiat currency's precision, so that "100" and "100.00" are one request.
 */
export function acceptedRequestHash({ body, fiat, crypto, fromAmount }: AcceptedOrderRequest): string {
  return requestHash({ ...body, from_amount: fromAmount, from_currency: fiat.id, to_currency: crypto.id });
}

/**
 * What a create request gets when its order may exist already: the order, when `existing` is the
 * integrator's and was created by the same request (even once its offer has expired); a conflict
 * when the request differs. Undefined when there is no such order: the request goes on to create it.
 */
export function repeatedOrder<M extends Pick<OrderMemo, 'integratorId' | 'requestHash'> & { order: unknown } = OrderMemo>(
  existing: M | undefined,
  integratorId: string,
  hash: string,
): M['order'] | undefined {
  if (!existing || existing.integratorId !== integratorId) return undefined;
  if (existing.requestHash !== hash) {
    throw new OrderRejectedError('idempotency_conflict', 'This external_order_id was already used with a different request.');
  }
  return existing.order;
}
