import { isGrpcServiceError, ServiceError, type Client } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
// Not re-exported by the package's index: the functions the client itself decodes list answers with.
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { decodeMapFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { requiredTsToMs } from '@temporalio/common/lib/time';
import type { temporal } from '@temporalio/proto';
import type { Order } from '../domain/order';
import type { OrderStatus } from '../domain/order-status';
import type { Logger } from '../logging';
import { orderSearchRecords } from '../metrics/metrics';
import { searchableHashes, type EncryptionKey } from '../temporal/codec';
import { ORDER_REQUESTED_AT_KEY, orderWorkflowId, type OrderMemo } from '../temporal/shared';
import { OrderUnavailableError, SearchesBusyError } from './errors';
import { orderSearchQuery, requestedBetween } from './visibility-query';

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

/** A position in the newest-first order: the last order of the page before (when it was requested, and its id). */
export interface OrderSearchPosition {
  requestedAt: string;
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
  /** Searches of one integrator in flight at once (default 2); one more is refused with SearchesBusyError. */
  concurrencyPerIntegrator?: number;
  /** Where a record left out because its memo cannot be decoded is reported. */
  logger?: Logger;
}

/**
 * Records a page may read beyond the `limit` it returns: the window of request times a page reads
 * is narrowed until it holds at most `limit + margin` records (below, `windowFor`).
 */
export const searchMargin = (limit: number) => Math.max(limit, 10);

/**
 * How much earlier than its created_at an order may have been requested and still be found by
 * created_from: the provider's create answer comes between the two.
 */
const CREATED_AFTER_REQUEST_MS = 5 * 60_000;

/** The first window a page tries below its upper bound, and the most windows it counts to find one. */
const FIRST_WINDOW_MS = 60_000;
const MAX_COUNTS = 24;

/** One visibility record: where it sorts, before its memo is decoded (only the returned ones are). */
interface Candidate {
  atMs: number;
  workflowId: string;
  raw: temporal.api.workflow.v1.IWorkflowExecutionInfo;
}

/** Newest first: by request time, then by workflow id, both descending. Negative when `a` comes first. */
function newestFirst(a: { atMs: number; workflowId: string }, b: { atMs: number; workflowId: string }): number {
  if (a.atMs !== b.atMs) return b.atMs - a.atMs;
  return a.workflowId < b.workflowId ? 1 : a.workflowId > b.workflowId ? -1 : 0;
}

/**
 * An integrator's orders, from Temporal visibility, a page at a time, newest first by when each was
 * requested (the OrderRequestedAt search attribute, which continued runs keep). The query always
 * names the integrator and the order workflow type (src/orders/visibility-query.ts); the other
 * filters narrow it.
 *
 * SQL visibility (the dev server, PostgreSQL) cannot sort, so a page cannot just read the first
 * `limit` records. It seeks instead: it counts (no record is transferred or decoded) the matches in
 * a window of request times that ends at the cursor, widening then narrowing the window until it
 * holds more than `limit` and at most `limit + margin` records, reads that window only, and decodes
 * the memos of the `limit` it returns. The work of a page is bounded by its `limit`, whatever the
 * integrator's number of orders.
 */
export class OrderSearch {
  private readonly converter: LoadedDataConverter;
  /** Searches in flight, by integrator (an integrator with none has no entry). */
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly options: OrderSearchOptions) {
    this.converter = (options.client.options as unknown as { loadedDataConverter: LoadedDataConverter }).loadedDataConverter;
  }

  /** A page of the integrator's orders; refused (SearchesBusyError) while it has its share of searches in flight. */
  async search(integratorId: string, filters: OrderSearchFilters, limit: number, after?: OrderSearchPosition): Promise<OrderSearchPage> {
    const running = this.inFlight.get(integratorId) ?? 0;
    const most = this.options.concurrencyPerIntegrator ?? 2;
    if (running >= most) throw new SearchesBusyError(running);
    this.inFlight.set(integratorId, running + 1);
    try {
      return await this.page(integratorId, filters, limit, after);
    } finally {
      const left = this.inFlight.get(integratorId)! - 1;
      if (left === 0) this.inFlight.delete(integratorId);
      else this.inFlight.set(integratorId, left);
    }
  }

  private async page(
    integratorId: string,
    filters: OrderSearchFilters,
    limit: number,
    after?: OrderSearchPosition,
  ): Promise<OrderSearchPage> {
    const { client, hashKeys, timeoutMs = 10_000 } = this.options;
    const base = orderSearchQuery(integratorId, {
      ...(filters.externalUserId === undefined
        ? {}
        : {
            externalUserIds: hashKeys.length > 0 ? searchableHashes(hashKeys, filters.externalUserId) : [filters.externalUserId],
          }),
      externalOrderId: filters.externalOrderId,
      status: filters.status,
      providerCode: filters.providerCode,
    });
    // An order is requested before it is created: created_to bounds its request time exactly, created_from with a margin.
    const cursor = after === undefined ? undefined : { atMs: Date.parse(after.requestedAt), workflowId: orderWorkflowId(after.id) };
    const upperMs = Math.min(cursor?.atMs ?? Infinity, filters.createdToMs ?? Infinity);
    const lowerMs = filters.createdFromMs === undefined ? -Infinity : filters.createdFromMs - CREATED_AFTER_REQUEST_MS;
    try {
      return await client.withDeadline(Date.now() + timeoutMs, async () => {
        const window = await this.windowFor(base, lowerMs, upperMs, limit);
        // Twice what was counted at most: orders created meanwhile can join the window (and are then read).
        const candidates = (await this.read(within(base, window.fromMs, upperMs), 2 * (limit + searchMargin(limit))))
          .filter((c) => !cursor || newestFirst(c, cursor) > 0)
          .sort(newestFirst);
        const page = candidates.slice(0, limit);
        const orders: Order[] = [];
        for (const candidate of page) {
          const order = await this.orderOf(candidate, integratorId);
          if (order && matches(order, filters)) orders.push(order);
        }
        const last = page.at(-1);
        if (candidates.length > limit && last) return { orders, next: positionOf(last) };
        // The window held no more than a page: the next one starts below it, if anything is left there.
        return window.fromMs > lowerMs
          ? { orders, next: { requestedAt: new Date(window.fromMs - 1).toISOString(), id: LAST_ID } }
          : { orders };
      });
    } catch (err) {
      if (isGrpcServiceError(err) || err instanceof ServiceError || (err as Error).name === 'TransportError') {
        throw new OrderUnavailableError('The order engine cannot be reached; try again shortly.', 5);
      }
      throw err;
    }
  }

  /**
   * The start of the window below `upperMs` that a page reads: `lowerMs` when everything down to it
   * fits in `limit + margin` records; else a window holding more than `limit` and at most
   * `limit + margin`, found by counts (widened from a minute, then narrowed by turns of
   * interpolation and halving), or the narrowest found when orders crowd into too short a time.
   */
  private async windowFor(base: string, lowerMs: number, upperMs: number, limit: number): Promise<{ fromMs: number }> {
    const most = limit + searchMargin(limit);
    const target = limit + Math.ceil(searchMargin(limit) / 2);
    const topMs = Number.isFinite(upperMs) ? upperMs : Date.now();
    let counts = 0;
    const count = async (spanMs: number) => {
      counts++;
      return (await this.options.client.workflow.count(within(base, Math.max(topMs - spanMs, lowerMs), upperMs))).count;
    };
    const total = await count(Infinity);
    if (total <= most) return { fromMs: lowerMs };
    // narrow: a span below topMs holding at most `limit`; wide: one holding more.
    let narrow = { span: 0, count: 0 };
    let wide = { span: Number.isFinite(lowerMs) ? topMs - lowerMs : Infinity, count: total };
    for (let span = FIRST_WINDOW_MS; span < wide.span && counts < MAX_COUNTS; span *= 8) {
      const found = await count(span);
      if (found > limit) wide = { span, count: found };
      else narrow = { span, count: found };
      if (found > limit) break;
    }
    if (!Number.isFinite(wide.span)) return { fromMs: lowerMs };
    for (let turn = 0; wide.count > most && wide.span - narrow.span > 1 && counts < MAX_COUNTS; turn++) {
      const guess =
        turn % 2 === 0
          ? narrow.span + ((wide.span - narrow.span) * (target - narrow.count)) / (wide.count - narrow.count)
          : (narrow.span + wide.span) / 2;
      const span = Math.min(wide.span - 1, Math.max(narrow.span + 1, Math.round(guess)));
      const found = await count(span);
      if (found > limit) wide = { span, count: found };
      else narrow = { span, count: found };
    }
    return { fromMs: Math.max(topMs - wide.span, lowerMs) };
  }

  /** The records of `query`, at most `most` (their memos still encoded). */
  private async read(query: string, most: number): Promise<Candidate[]> {
    const { client } = this.options;
    const candidates: Candidate[] = [];
    let nextPageToken: Uint8Array | undefined;
    do {
      const response = await client.workflowService.listWorkflowExecutions({
        namespace: client.options.namespace,
        query,
        pageSize: most - candidates.length,
        nextPageToken,
      });
      orderSearchRecords.inc({ stage: 'read' }, response.executions.length);
      for (const raw of response.executions) {
        const requestedAt = decodeTypedSearchAttributes(raw.searchAttributes?.indexedFields).get(ORDER_REQUESTED_AT_KEY);
        const atMs = requestedAt ? requestedAt.getTime() : requiredTsToMs(raw.startTime, 'startTime');
        candidates.push({ atMs, workflowId: raw.execution!.workflowId!, raw });
      }
      nextPageToken = response.nextPageToken?.length ? response.nextPageToken : undefined;
    } while (nextPageToken && candidates.length < most);
    return candidates;
  }

  /** The order of a record, its memo decoded (and decrypted); undefined unless it is this integrator's. */
  private async orderOf(candidate: Candidate, integratorId: string): Promise<Order | undefined> {
    orderSearchRecords.inc({ stage: 'decoded' });
    let memo: Partial<OrderMemo> | undefined;
    try {
      memo = await decodeMapFromPayloads(this.converter, candidate.raw.memo?.fields, {
        type: 'workflow',
        namespace: this.options.client.options.namespace,
        workflowId: candidate.workflowId,
      });
    } catch (err) {
      // The codec runs here, on this record's bytes only (a key this process lacks, a payload bound
      // to another workflow, altered bytes): the record is left out, not the page.
      orderSearchRecords.inc({ stage: 'undecodable' });
      this.options.logger?.warn(
        { workflowId: candidate.workflowId, err: (err as Error).message },
        'order search: a record whose memo cannot be decoded is left out',
      );
      return undefined;
    }
    // The query already holds the integrator; the memo is checked too, so a record can never leak.
    return memo?.order && memo.integratorId === integratorId ? memo.order : undefined;
  }
}

/** `base`, limited to the orders requested from `fromMs` to `toMs`. */
function within(base: string, fromMs: number, toMs: number): string {
  const range = requestedBetween(fromMs, toMs);
  return range === undefined ? base : `${base} AND ${range}`;
}

const orderIdOf = (workflowId: string) => workflowId.slice(orderWorkflowId('').length);

const positionOf = (candidate: Candidate): OrderSearchPosition => ({
  requestedAt: new Date(candidate.atMs).toISOString(),
  id: orderIdOf(candidate.workflowId),
});

/** The greatest order id: a position with it comes before every order of its millisecond. */
const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

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
