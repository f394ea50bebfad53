import { isGrpcServiceError, ServiceError, type Client } from '@temporalio/client';
import type { Order } from '../domain/order';
import type { OrderStatus } from '../domain/order-status';
import { searchableHashes, type EncryptionKey } from '../temporal/codec';
import type { OrderMemo } from '../temporal/shared';
import { OrderUnavailableError } from './errors';
import { orderSearchQuery } from './visibility-query';

export interface OrderSearchFilters {
  externalUserId?: string;
  externalOrderId?: string;
  status?: OrderStatus;
  providerCode?: string;
  /** Orders created at or after this instant (epoch ms). */
  createdFromMs?: number;
  /** Orders created at or before this instant (epoch ms). */
  createdToMs?: number;
}

/** A position in the newest-first order: the last order of the page before. */
export interface OrderSearchPosition {
  createdAt: string;
  id: string;
}

export interface OrderSearchPage {
  orders: Order[];
  /** Where the next page starts; absent on the last page. */
  next?: OrderSearchPosition;
}

export interface OrderSearchOptions {
  client: Client;
  /** The encryption keys (newest first): ExternalUserId is stored as a keyed hash under one of them; in clear without any. */
  hashKeys: readonly EncryptionKey[];
  /** Deadline of one search (default 10 s): the caller gets a 503 rather than a hang. */
  timeoutMs?: number;
}

/** Newest first: by created_at, then by id, both descending. Negative when `a` comes first. */
export function newestFirst(a: OrderSearchPosition, b: OrderSearchPosition): number {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

const positionOf = (order: Order): OrderSearchPosition => ({ createdAt: order.created_at, id: order.id });

/**
 * An integrator's orders, from Temporal visibility. The query always names the integrator and the
 * order workflow type (src/orders/visibility-query.ts); the other filters narrow it. SQL visibility
 * (the dev server, PostgreSQL) cannot sort by start time, and a continued run starts later than its
 * order was created, so the matching records are read in full and the page is the `limit` newest by
 * the orders' own created_at, after the cursor position (a keyset: no duplicates or gaps while
 * orders are created between pages).
 */
export class OrderSearch {
  constructor(private readonly options: OrderSearchOptions) {}

  async search(integratorId: string, filters: OrderSearchFilters, limit: number, after?: OrderSearchPosition): Promise<OrderSearchPage> {
    const { client, hashKeys, timeoutMs = 10_000 } = this.options;
    const query = orderSearchQuery(integratorId, {
      ...(filters.externalUserId === undefined
        ? {}
        : {
            externalUserIds: hashKeys.length > 0 ? searchableHashes(hashKeys, filters.externalUserId) : [filters.externalUserId],
          }),
      externalOrderId: filters.externalOrderId,
      status: filters.status,
      providerCode: filters.providerCode,
    });
    // The `limit + 1` newest matches, kept sorted; the extra one says whether another page exists.
    const best: Order[] = [];
    const seen = new Set<string>();
    try {
      await client.withDeadline(Date.now() + timeoutMs, async () => {
        for await (const execution of client.workflow.list({ query, pageSize: 1000 })) {
          const memo = execution.memo as Partial<OrderMemo> | undefined;
          const order = memo?.order;
          // The query already holds the integrator; the memo is checked too, so a record can never leak.
          if (!order || memo.integratorId !== integratorId || seen.has(order.id)) continue;
          seen.add(order.id);
          if (!matches(order, filters) || (after && newestFirst(positionOf(order), after) <= 0)) continue;
          insertSorted(best, order, limit + 1);
        }
      });
    } catch (err) {
      if (isGrpcServiceError(err) || err instanceof ServiceError || (err as Error).name === 'TransportError') {
        throw new OrderUnavailableError('The order engine cannot be reached; try again shortly.', 5);
      }
      throw err;
    }
    const orders = best.slice(0, limit);
    return best.length > limit ? { orders, next: positionOf(orders.at(-1)!) } : { orders };
  }
}

/** The filters the memo can answer exactly (visibility already applied the others). */
function matches(order: Order, filters: OrderSearchFilters): boolean {
  const createdMs = Date.parse(order.created_at);
  if (filters.createdFromMs !== undefined && createdMs < filters.createdFromMs) return false;
  if (filters.createdToMs !== undefined && createdMs > filters.createdToMs) return false;
  if (filters.status !== undefined && order.status !== filters.status) return false;
  if (filters.externalOrderId !== undefined && order.external_order_id !== filters.externalOrderId) return false;
  if (filters.externalUserId !== undefined && order.external_user_id !== filters.externalUserId) return false;
  return true;
}

/** Inserts `order` into `sorted` (newest first), keeping at most `max` entries. */
function insertSorted(sorted: Order[], order: Order, max: number): void {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (newestFirst(positionOf(sorted[mid]!), positionOf(order)) <= 0) low = mid + 1;
    else high = mid;
  }
  if (low >= max) return;
  sorted.splice(low, 0, order);
  if (sorted.length > max) sorted.pop();
}
