import { randomUUID } from 'node:crypto';
import { DEFAULT_ORDER_TIMINGS, type OrderWorkflowInput } from '../../src/temporal/order-contract';
import { callApi, eventually } from './http';

export const USD = 1;
export const EUR = 2;
export const GBP = 3;
export const BTC = 13;
export const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

export interface OrderDraft {
  provider_code: string;
  from_currency: number;
  to_currency: number;
  from_amount: string;
  wallet_address: string;
  payment_method: string;
  country_code: string;
  state_code?: string;
  external_user_id: string;
  external_order_id: string;
  [key: string]: unknown;
}

export function draftOrder(overrides: Partial<OrderDraft> = {}): OrderDraft {
  return {
    provider_code: 'sandbox',
    from_currency: USD,
    to_currency: BTC,
    from_amount: '100.00',
    wallet_address: BTC_ADDRESS,
    payment_method: 'card',
    country_code: 'GB',
    external_user_id: `user-${randomUUID()}`,
    external_order_id: `order-${randomUUID()}`,
    ...overrides,
  };
}

/** The offers query matching an order draft, as an integrator asks before ordering. */
export function offersQuery(draft: OrderDraft): string {
  return new URLSearchParams({
    external_user_id: draft.external_user_id,
    currency_from: String(draft.from_currency),
    currency_to: String(draft.to_currency),
    amount_from: draft.from_amount,
    country: draft.country_code,
    payment_method: draft.payment_method,
    ...(draft.state_code ? { state: draft.state_code } : {}),
    ...(typeof draft.ip === 'string' ? { ip: draft.ip } : {}),
  }).toString();
}

/** Asks for offers matching the draft, as an integrator must before ordering. */
export async function fetchOffers(apiUrl: string, draft: OrderDraft) {
  return callApi(apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}`);
}

/**
 * GET `offersPath` (with include_errors), asked again, up to three times in all, while `providerCode`
 * is left out for a passing reason (its first quote slow on a loaded machine, its catalogue still
 * loading), as an integrator would; the last answer.
 */
export async function offersPastPassingReasons(apiUrl: string, offersPath: string, providerCode: string) {
  for (let attempt = 1; ; attempt++) {
    const offers = await callApi(apiUrl, offersPath);
    const entry = offers.status === 200 ? (offers.body[providerCode] as Record<string, any> | undefined) : undefined;
    const passing = entry !== undefined && 'error' in entry && ['timeout', 'unavailable'].includes(entry.error?.code);
    if (!passing || attempt === 3) return offers;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function offerThenOrder(apiUrl: string, draft: OrderDraft) {
  // Any answer but an offer, once passing reasons are asked past, is the test's failure.
  const path = `/api/on_ramp/offers?${offersQuery(draft)}&include_errors=true`;
  const offers = await offersPastPassingReasons(apiUrl, path, draft.provider_code);
  const entry = offers.status === 200 ? (offers.body[draft.provider_code] as Record<string, any> | undefined) : undefined;
  if (!entry || 'error' in entry) throw new Error(`no ${draft.provider_code} offer: ${offers.status} ${JSON.stringify(offers.body)}`);
  return callApi(apiUrl, '/api/on_ramp/orders', { body: draft });
}

export function waitForStatus(apiUrl: string, providerCode: string, id: string, status: string, timeoutMs?: number, apiKey?: string) {
  return eventually(
    async () => {
      const res = await callApi(apiUrl, `/api/on_ramp/orders/${providerCode}?code=${id}`, { apiKey });
      return res.status === 200 && res.body.status === status ? res.body : undefined;
    },
    `order ${id} to reach ${status}`,
    timeoutMs,
  );
}

export async function checkout(redirectUrl: string, action: string) {
  const response = await fetch(redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** An order workflow's input as the API would start it: a sandbox card purchase of 100.00 USD in BTC, default timings. */
export function workflowInput(orderId: string, overrides: Partial<OrderWorkflowInput> = {}): OrderWorkflowInput {
  return {
    orderId,
    integratorId: 'dev',
    providerCode: 'sandbox',
    requestHash: 'h',
    timings: DEFAULT_ORDER_TIMINGS,
    request: {
      from_currency: USD,
      from_amount: '100.00',
      to_currency: BTC,
      to_amount: '0.001',
      wallet_address: BTC_ADDRESS,
      payment_method: 'card',
      country_code: 'GB',
      external_user_id: 'user-1',
      external_order_id: orderId,
      extras: {},
    },
    ...overrides,
  };
}

/** The query string of GET /api/on_ramp/offers asking the sandbox for BTC with 100 USD in GB for user-1, with `overrides`. */
export const sandboxOffersSearch = (overrides: Record<string, string> = {}): string =>
  new URLSearchParams({
    provider_codes: 'sandbox',
    external_user_id: 'user-1',
    currency_from: String(USD),
    currency_to: String(BTC),
    amount_from: '100',
    country: 'GB',
    ...overrides,
  }).toString();
