/**
 * The simulators' books switches (src/simulators/kit/books.ts) as reconciliation tests use them,
 * over HTTP: `${simulatorsUrl}/<code>/_simulator/books...`.
 */
import type { OrderStatus } from '../../src/domain/order-status';

/** Each provider with a transaction list: a final status its books can drift to, in its own words, and what it maps to. */
export const BOOKS_DRIFT: Readonly<Record<string, { drift: string; drifted: OrderStatus }>> = {
  moonpay: { drift: 'failed', drifted: 'failed' },
  transak: { drift: 'REFUNDED', drifted: 'refunded' },
  banxa: { drift: 'refunded', drifted: 'refunded' },
  mercuryo: { drift: 'cancelled', drifted: 'refunded' },
  coinbase: { drift: 'ONRAMP_TRANSACTION_STATUS_FAILED', drifted: 'failed' },
  paybis: { drift: 'rejected', drifted: 'failed' },
  onramp_money: { drift: '-4', drifted: 'failed' },
};

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** Sets what the provider's list shows of the order made for `orderId` (`{}` clears it). */
export const setBooks = (simulatorsUrl: string, code: string, orderId: string, switches: Record<string, unknown>) =>
  post(`${simulatorsUrl}/${code}/_simulator/books/${encodeURIComponent(orderId)}`, switches);

/** Adds a completed purchase only the provider's books hold; its provider order id. */
export async function addPhantom(simulatorsUrl: string, code: string): Promise<string> {
  return String((await post(`${simulatorsUrl}/${code}/_simulator/books`, { phantom: {} })).id);
}
