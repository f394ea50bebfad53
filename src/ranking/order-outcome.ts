/**
 * What an order says about its provider once it is settled: it completed, or it ended another way;
 * or the provider refused to create it. Pure: the worker hands each settled status change here
 * (outcome-recorder.ts), the API each refusal, and the rebuild each order Temporal still keeps.
 */
import { isOrderStatus, isSettled } from '../domain/order-status';
import type { Order } from '../domain/order';
import type { OrderOutcome } from './outcome';

/** The memo key the API writes when it starts an order: the market of an order whose creation then fails (it has no order memo). */
export const ORDER_MARKET_MEMO_KEY = 'market';

export interface OrderMarket {
  providerCode: string;
  country: string;
  paymentMethod: string;
}

/** The rejections of a creation that speak of the provider; an invalid wallet address is the customer's and counts for nobody. */
export const PROVIDER_REFUSALS: ReadonlySet<string> = new Set(['provider_rejected', 'provider_unavailable']);

const COUNTRY = /^[A-Z]{2}$/;
const METHOD = /^[a-z0-9_]{2,48}$/;

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The market a start memo names, if it holds a well-formed one. */
export function marketOf(memo: Record<string, unknown> | undefined): OrderMarket | undefined {
  const market = memo?.[ORDER_MARKET_MEMO_KEY] as Partial<OrderMarket> | undefined;
  if (!market || typeof market !== 'object' || !isText(market.providerCode)) return undefined;
  if (typeof market.country !== 'string' || !COUNTRY.test(market.country)) return undefined;
  if (typeof market.paymentMethod !== 'string' || !METHOD.test(market.paymentMethod)) return undefined;
  return { providerCode: market.providerCode, country: market.country, paymentMethod: market.paymentMethod };
}

export interface SettledOrder {
  providerCode: string;
  integratorId: string;
  order: Pick<Order, 'id' | 'status' | 'country_code' | 'payment_method' | 'created_at' | 'updated_at' | 'external_user_id'>;
}

/**
 * The outcome of an order at `status`, or undefined while it is not settled. Deduplicated by the
 * order's id: an order recorded `not_complete` and later revived to `complete` is the same order.
 * `finishedAtMs` is when it settled: the order's `updated_at`.
 */
export function outcomeOfOrder({ providerCode, integratorId, order }: SettledOrder): OrderOutcome | undefined {
  if (!isOrderStatus(order.status) || !isSettled(order.status) || !isText(providerCode)) return undefined;
  const updatedMs = Date.parse(order.updated_at);
  if (!Number.isFinite(updatedMs)) return undefined;
  const complete = order.status === 'complete';
  const outcome: OrderOutcome = { runId: order.id, providerCode, kind: complete ? 'complete' : 'not_complete', finishedAtMs: updatedMs };
  if (COUNTRY.test(order.country_code)) outcome.country = order.country_code;
  if (METHOD.test(order.payment_method)) outcome.paymentMethod = order.payment_method;
  const createdMs = Date.parse(order.created_at);
  if (complete && Number.isFinite(createdMs) && updatedMs >= createdMs) outcome.completeMs = updatedMs - createdMs;
  if (isText(integratorId)) {
    outcome.integratorId = integratorId;
    if (isText(order.external_user_id)) outcome.externalUserId = order.external_user_id;
  }
  return outcome;
}

/** The deduplication id of a refused creation: its run's, the same whether the API records it or a rebuild reads the run. */
export const refusedAttemptId = (runId: string) => `refused-${runId}`;

/**
 * The outcome of a creation the provider refused (`rejection` is the order's rejection type), or
 * undefined for a rejection that is not the provider's. `attemptId` is unique per creation tried;
 * `integratorId`, whose order it was, when known (it then counts for that integrator too).
 */
export function refusedOutcome(
  attemptId: string,
  market: OrderMarket,
  rejection: string,
  atMs: number,
  integratorId?: string,
): OrderOutcome | undefined {
  if (!PROVIDER_REFUSALS.has(rejection)) return undefined;
  const outcome: OrderOutcome = {
    runId: attemptId,
    providerCode: market.providerCode,
    country: market.country,
    paymentMethod: market.paymentMethod,
    kind: 'refused',
    finishedAtMs: atMs,
  };
  if (isText(integratorId)) outcome.integratorId = integratorId;
  return outcome;
}
