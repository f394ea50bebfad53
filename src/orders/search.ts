import type { Client } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
// Not re-exported by the package's index: the functions the client itself decodes list answers with.
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { decodeMapFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { requiredTsToMs } from '@temporalio/common/lib/time';
import type { temporal } from '@temporalio/proto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Order } from '../domain/order';
import type { AnyOrderStatus, OrderKind } from '../domain/order-kind';
import type { SellOrder } from '../domain/sell-order';
import type { Logger } from '../logging';
import { orderSearchRecords, rateLimitRefusals } from '../metrics/metrics';
import { searchableHashes, type EncryptionKey } from '../temporal/codec';
import { ORDER_REQUESTED_AT_KEY, orderWorkflowId, type OrderMemo, type OrderQuote } from '../temporal/order-contract';
import { isSellOrderMemo, type SellOrderMemo } from '../temporal/sell-order-contract';
import { isTemporalUnreachable, OrderUnavailableError, SearchBudgetSpentError, SearchesBusyError } from './errors';
import { SearchBudget, type SearchBudgetOptions } from './search-budget';
import { kindOfWorkflowType, orderSearchQuery, providerOrdersQuery, requestedBetween, type KeysetPosition } from './visibility-query';

export interface OrderSearchFilters {
  externalUserId?: string;
  externalOrderId?: string;
  status?: AnyOrderStatus;
  providerCode?: string;
  /** Buys or sells only; both without it. */
  kind?: OrderKind;
  /** Orders created at or after this instant (epoch ms). */
  createdFromMs?: number;
  /** Orders created at or before this instant (epoch ms). */
  createdToMs?: number;
  /** Orders requested at or after this instant (epoch ms): exact, from OrderRequestedAt (exports). */
  requestedFromMs?: number;
  /** Orders requested before this instant (epoch ms), exact (exports). */
  requestedBeforeMs?: number;
}

/** A position in the newest-first order: the last order of the page before (when it was requested, and its id). */
export interface OrderSearchPosition {
  requestedAt: string;
  id: string;
}

export interface OrderSearchPage {
  /** Buys and sells (a sell order carries `kind: 'off_ramp'`, a buy order no kind). */
  orders: (Order | SellOrder)[];
  /** Where the next page starts; absent on the last page. */
  next?: OrderSearchPosition;
}

/** An order as its visibility record holds it: its memo, with the quote the API kept beside it, and when it was requested. */
export interface OrderRecord extends OrderMemo {
  quote?: OrderQuote;
  /** OrderRequestedAt, ISO 8601: the instant the API took the order's request (exports' window key). */
  requestedAt: string;
}

/** A sell order as its visibility record holds it, like OrderRecord. */
export interface SellOrderRecord extends SellOrderMemo {
  quote?: OrderQuote;
  requestedAt: string;
}

/** A record of either kind (an integrator's search and export); a sell's memo says `kind: 'off_ramp'`. */
export type AnyOrderRecord = OrderRecord | SellOrderRecord;

export const isSellOrderRecord = (record: AnyOrderRecord): record is SellOrderRecord => isSellOrderMemo(record as { kind?: unknown });

/** A record an export cannot leave out silently: its memo could not be decoded. */
export class UndecodableRecordError extends Error {
  constructor(readonly workflowId: string) {
    super(`the record of ${workflowId} cannot be decoded`);
    this.name = 'UndecodableRecordError';
  }
}

/** A page of records (OrderSearch.providerRecordsPage: buy orders; exportPage: both kinds). */
export interface OrderRecordPage<R extends AnyOrderRecord = OrderRecord> {
  records: R[];
  next?: OrderSearchPosition;
  /** How many milliseconds of request time the page's window spanned: the next page's first guess. */
  spanMs?: number;
}

export interface OrderSearchOptions {
  client: Client;
  /** The encryption keys (newest first): ExternalUserId is stored as a keyed hash under one of them; in clear without any. */
  hashKeys: readonly EncryptionKey[];
  /** Deadline of one search (default 10 s): the caller gets a 503 rather than a hang. */
  timeoutMs?: number;
  /** Searches of one integrator in flight at once (default 2); one more is refused with SearchesBusyError. */
  concurrencyPerIntegrator?: number;
  /** Visibility calls per integrator (src/orders/search-budget.ts); unbounded without it. */
  budget?: SearchBudgetOptions;
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

/**
 * The first window a page counts below its upper bound, how much wider each next one is, and the
 * most counts a page makes (each a CountWorkflowExecutions call; see `windowFor`).
 */
const FIRST_WINDOW_MS = 60_000;

/**
 * Deadline of one export page or count: visibility over a large window can take seconds a call
 * (over 100,000 records, the dev server's SQLite took 1.1–1.5 s a list call, bench/README.md), and a
 * page makes up to nine; the export's own time limit bounds the whole.
 */
const EXPORT_PAGE_TIMEOUT_MS = 60_000;
const WIDENING = 32;
const MAX_COUNTS = 8;

/**
 * No order was requested before 1970 or after 9999 (created_from and created_to outside are refused):
 * a page's window stays between, where visibility takes every instant the query names.
 */
const FLOOR_MS = 0;
const CEILING_MS = Date.UTC(9999, 11, 31);

/**
 * Inside one millisecond, a window is narrowed by workflow id: by the first 32 bits of the order id
 * (a UUID in lowercase hex, so string order is number order) that the window's ids start from.
 */
const ID_KEYS = 2 ** 32;
const idFrom = (key: number) => orderWorkflowId(key.toString(16).padStart(8, '0'));
/** The cursor just below the ids from `key` up: string order puts every id starting with a lesser key before it. */
const idBelow = (key: number) => `${key.toString(16).padStart(8, '0')}-0000-0000-0000-000000000000`;

/** One count of a window: where it reaches (a span below the top, or a share of a millisecond's ids) and how many it holds. */
interface Probe {
  at: number;
  count: number;
}

/** The window a page reads: from `from` (included) to the page's upper bound; `rest`: older orders may be left. */
interface Window {
  from: KeysetPosition;
  rest: boolean;
  /** Where the next page starts when this window held no more than a page. */
  below?: OrderSearchPosition;
  /** The window's span below the top, when it starts at a millisecond's edge. */
  spanMs?: number;
}

/** What a record's memo is read as before it is known to be an order of the scope. */
type AnyMemo = (Partial<OrderMemo> | Partial<SellOrderMemo>) & { kind?: unknown };

/**
 * Whose orders a page reads: the visibility query that names them, and the memo check that each
 * record is one (R: the kinds of record the query names).
 */
interface RecordScope<R extends AnyOrderRecord> {
  query: string;
  owns(memo: AnyMemo): boolean;
  /** Only for the type: what a record of the scope is. */
  readonly record?: R;
}

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
 * names the integrator and the order workflow types, buy and sell (src/orders/visibility-query.ts);
 * the other filters narrow it.
 *
 * SQL visibility (the dev server, PostgreSQL) cannot sort, so a page cannot just read the first
 * `limit` records. It seeks instead: it counts (no record is transferred or decoded) the matches in
 * a window of request times that ends at the cursor, widening then narrowing the window (at most
 * MAX_COUNTS counts) until it holds more than `limit` and at most `limit + margin` records, reads
 * that window only, and decodes the memos of the `limit` it returns. The work of a page is bounded
 * by its `limit`, whatever the integrator's number of orders. The cursor's position is a keyset of
 * request time and workflow id, in the query itself, so orders sharing a millisecond are neither
 * skipped nor repeated.
 */
export class OrderSearch {
  private loadedConverter?: LoadedDataConverter;
  /** Searches in flight, by integrator (an integrator with none has no entry). */
  private readonly inFlight = new Map<string, number>();
  private readonly budget?: SearchBudget;

  constructor(private readonly options: OrderSearchOptions) {
    if (options.budget) this.budget = new SearchBudget(options.budget);
  }

  /** The client's data converter, read when a search first decodes (a client that never searches need not have one). */
  private get converter(): LoadedDataConverter {
    this.loadedConverter ??= (this.options.client.options as unknown as { loadedDataConverter: LoadedDataConverter }).loadedDataConverter;
    return this.loadedConverter;
  }

  /**
   * A page of the integrator's orders; refused while it has its share of searches in flight
   * (SearchesBusyError) or has spent its visibility budget (SearchBudgetSpentError).
   */
  async search(integratorId: string, filters: OrderSearchFilters, limit: number, after?: OrderSearchPosition): Promise<OrderSearchPage> {
    const running = this.inFlight.get(integratorId) ?? 0;
    const most = this.options.concurrencyPerIntegrator ?? 2;
    if (running >= most) {
      rateLimitRefusals.inc({ limiter: 'order_searches', key_class: 'integrator' });
      throw new SearchesBusyError(running);
    }
    const wait = this.budget?.waitSeconds(integratorId) ?? 0;
    if (wait > 0) {
      rateLimitRefusals.inc({ limiter: 'order_search_budget', key_class: 'integrator' });
      throw new SearchBudgetSpentError(wait);
    }
    this.inFlight.set(integratorId, running + 1);
    try {
      const page = await this.page(this.integratorScope(integratorId, filters), filters, limit, after, (calls) =>
        this.budget?.spend(integratorId, calls),
      );
      return { orders: page.records.map((record) => record.order), ...(page.next ? { next: page.next } : {}) };
    } finally {
      const left = this.inFlight.get(integratorId)! - 1;
      if (left === 0) this.inFlight.delete(integratorId);
      else this.inFlight.set(integratorId, left);
    }
  }

  /**
   * A page of an export (src/orders/export.ts): records rather than orders, and paced rather than
   * refused: it waits while the integrator's visibility budget is spent (the same budget its
   * searches draw on), so an export takes no more of the store than the integrator's searches may.
   * The export bounds how many run at once; `signal` ends the wait.
   */
  async exportPage(
    integratorId: string,
    filters: OrderSearchFilters,
    limit: number,
    after: OrderSearchPosition | undefined,
    signal: AbortSignal,
    /** The span of the page before (its `spanMs`): where the window's counts start, instead of a minute. */
    spanHintMs?: number,
  ): Promise<OrderRecordPage<AnyOrderRecord>> {
    await this.budgetFor(integratorId, signal);
    const scope = this.integratorScope(integratorId, filters);
    return this.page(scope, filters, limit, after, (calls) => this.budget?.spend(integratorId, calls), true, spanHintMs);
  }

  /**
   * A page of one provider's orders of every integrator, by request time (`requestedFromMs` to
   * `requestedBeforeMs`), for the reconciliation with its books (src/reconciliation): the broker's
   * own walk, never reached from an integrator's request, so it draws on no integrator's budget.
   * Strict: a record that cannot be decoded fails the page (UndecodableRecordError).
   */
  providerRecordsPage(
    providerCode: string,
    window: Pick<OrderSearchFilters, 'requestedFromMs' | 'requestedBeforeMs'>,
    limit: number,
    after: OrderSearchPosition | undefined,
    spanHintMs?: number,
  ): Promise<OrderRecordPage> {
    const scope: RecordScope<OrderRecord> = {
      query: providerOrdersQuery(providerCode),
      owns: (memo) => memo.providerCode === providerCode && !isSellOrderMemo(memo),
    };
    return this.page(scope, window, limit, after, () => undefined, true, spanHintMs);
  }

  private async page<R extends AnyOrderRecord>(
    scope: RecordScope<R>,
    filters: OrderSearchFilters,
    limit: number,
    after: OrderSearchPosition | undefined,
    spend: (calls: number) => void,
    /** An undecodable record fails the page (UndecodableRecordError) rather than being left out. */
    strict = false,
    spanHintMs?: number,
  ): Promise<OrderRecordPage<R>> {
    const base = scope.query;
    const cursor = after === undefined ? undefined : { atMs: Date.parse(after.requestedAt), workflowId: orderWorkflowId(after.id) };
    const to = upperBoundOf(cursor, filters);
    const floorMs = floorOf(filters);
    // An export's page may take longer than a search's (its own time limit bounds the whole export).
    return this.calling(strict ? EXPORT_PAGE_TIMEOUT_MS : undefined, async () => {
      const window = await this.windowFor(base, floorMs, to, limit, spend, spanHintMs);
      // Twice what was counted at most: orders created meanwhile can join the window (and are then read).
      const candidates = (await this.read(within(base, window.from, to), 2 * (limit + searchMargin(limit)), spend))
        .filter((c) => !cursor || newestFirst(c, cursor) > 0)
        .sort(newestFirst)
        // A run continued as new and its successor can both be open for a moment: one order, once.
        .filter((c, i, sorted) => i === 0 || sorted[i - 1]!.workflowId !== c.workflowId || sorted[i - 1]!.atMs !== c.atMs);
      const page = candidates.slice(0, limit);
      const records: R[] = [];
      for (const candidate of page) {
        const record = await this.recordOf(candidate, scope, strict);
        if (record && matches(record.order, filters)) records.push(record);
      }
      const last = page.at(-1);
      const spanMs = window.spanMs === undefined ? {} : { spanMs: window.spanMs };
      if (candidates.length > limit && last) return { records, next: positionOf(last), ...spanMs };
      // The window held no more than a page: the next one starts below it, if anything is left there.
      return window.rest && window.below ? { records, next: window.below, ...spanMs } : { records, ...spanMs };
    });
  }

  /**
   * How many orders an export of `filters` would read: one count of visibility records by request
   * time (from CREATED_AFTER_REQUEST_MS before created_from to created_to), so at least the orders
   * the export returns. Paced like exportPage.
   */
  async exportCount(integratorId: string, filters: OrderSearchFilters, signal: AbortSignal): Promise<number> {
    await this.budgetFor(integratorId, signal);
    this.budget?.spend(integratorId, 1);
    const query = within(this.baseQuery(integratorId, filters), { ms: floorOf(filters) }, upperBoundOf(undefined, filters));
    return this.calling(EXPORT_PAGE_TIMEOUT_MS, async () => (await this.options.client.workflow.count(query)).count);
  }

  /** Waits while the integrator's visibility budget is spent (never, without a budget); `signal` ends the wait. */
  private async budgetFor(integratorId: string, signal: AbortSignal): Promise<void> {
    for (let wait = this.budget?.waitSeconds(integratorId) ?? 0; wait > 0; wait = this.budget!.waitSeconds(integratorId)) {
      await sleep(wait * 1000, undefined, { signal });
    }
    signal.throwIfAborted();
  }

  /** The integrator's orders: its query, and the memo check that a record is its own. */
  private integratorScope(integratorId: string, filters: OrderSearchFilters): RecordScope<AnyOrderRecord> {
    return { query: this.baseQuery(integratorId, filters), owns: (memo) => memo.integratorId === integratorId };
  }

  /** The integrator's orders matching the filters visibility can apply (src/orders/visibility-query.ts). */
  private baseQuery(integratorId: string, filters: OrderSearchFilters): string {
    const { hashKeys } = this.options;
    return orderSearchQuery(integratorId, {
      ...(filters.externalUserId === undefined
        ? {}
        : {
            externalUserIds: hashKeys.length > 0 ? searchableHashes(hashKeys, filters.externalUserId) : [filters.externalUserId],
          }),
      externalOrderId: filters.externalOrderId,
      status: filters.status,
      providerCode: filters.providerCode,
      kind: filters.kind,
    });
  }

  /** `call` under the search's deadline; Temporal out of reach is OrderUnavailableError. */
  private async calling<T>(deadlineMs: number | undefined, call: () => Promise<T>): Promise<T> {
    const { client, timeoutMs = 10_000 } = this.options;
    try {
      return await client.withDeadline(Date.now() + (deadlineMs ?? timeoutMs), call);
    } catch (err) {
      if (isTemporalUnreachable(err)) {
        throw new OrderUnavailableError('The order engine cannot be reached; try again shortly.', 5);
      }
      throw err;
    }
  }

  /**
   * The window a page reads, from `floorMs` up to `to` (the cursor, or created_to): a window holding
   * more than `limit` and at most `limit + margin` records, or everything down to the floor when
   * that fits in `limit + margin`. Found by at most MAX_COUNTS counts: widening from a minute below
   * the top by x32 until a window holds more than `limit` (never a count over all time first), then
   * narrowing by turns of interpolation and halving; when one millisecond holds too many, narrowing
   * inside it by workflow id. When the counts run out, the widest window known to hold at most
   * `limit` (the page is short, and the next one starts below it).
   */
  private async windowFor(
    base: string,
    floorMs: number,
    to: KeysetPosition | undefined,
    limit: number,
    spend: (calls: number) => void,
    spanHintMs?: number,
  ): Promise<Window> {
    const most = limit + searchMargin(limit);
    // The millisecond a span counts down from: the cursor's (below its id), created_to's, or now.
    const topMs = to === undefined ? Date.now() : to.workflowId === undefined ? to.ms - 1 : to.ms;
    const deepest = topMs - floorMs;
    if (deepest < 0) return { from: { ms: floorMs }, rest: false };
    let counts = 0;
    const count = async (from: KeysetPosition) => {
      counts++;
      spend(1);
      return (await this.options.client.workflow.count(within(base, from, to))).count;
    };
    const spanning = (span: number): Window => ({
      from: { ms: topMs - span },
      rest: span < deepest,
      below: { requestedAt: new Date(topMs - span - 1).toISOString(), id: LAST_ID },
      spanMs: span,
    });

    // Widen: span s holds the milliseconds from topMs - s to the top (-1: none).
    let narrow: Probe = { at: -1, count: 0 };
    let wide: Probe;
    // A page that follows another of the same walk starts from that page's span and widens by halves
    // (the orders around it are about as dense); a first page from a minute, widening x32.
    const hinted = spanHintMs !== undefined && spanHintMs >= 1;
    for (let span = hinted ? Math.round(spanHintMs) : FIRST_WINDOW_MS; ; span *= hinted ? 2 : WIDENING) {
      const at = Math.min(span, deepest);
      const found = await count({ ms: topMs - at });
      if (found > limit) {
        wide = { at, count: found };
        break;
      }
      if (at === deepest || counts >= MAX_COUNTS) return spanning(at);
      narrow = { at, count: found };
    }
    const left = () => counts < MAX_COUNTS;
    if (narrow.at === -1 && to?.workflowId !== undefined && wide.count > most && left()) {
      // The first minute holds more than a page: first the rest of the cursor's own millisecond.
      const found = await count({ ms: topMs });
      if (found > limit) wide = { at: 0, count: found };
      else narrow = { at: 0, count: found };
    }
    ({ narrow, wide } = await narrowDown(narrow, wide, limit, left, (span) => count({ ms: topMs - span })));
    if (wide.count <= most) return spanning(wide.at);

    if (wide.at - narrow.at === 1 && left()) {
      // Millisecond m alone holds more than a page: x of its ids, the greatest first (x = ID_KEYS: all of them).
      const m = topMs - wide.at;
      const inside = (x: number): Window => ({
        from: { ms: m, workflowId: idFrom(ID_KEYS - x) },
        rest: true,
        below: { requestedAt: new Date(m).toISOString(), id: idBelow(ID_KEYS - x) },
      });
      const ids = await narrowDown({ at: 0, count: narrow.count }, { at: ID_KEYS, count: wide.count }, limit, left, (x) =>
        count(inside(x).from),
      );
      if (ids.wide.count <= most) return inside(ids.wide.at);
      if (ids.narrow.at > 0) return inside(ids.narrow.at);
    }
    if (narrow.at >= 0) return spanning(narrow.at);
    // No window of a page found within the counts (more than a page crowds just below the top):
    // the narrowest found, read in part (at most twice the bound).
    return spanning(wide.at);
  }

  /** The records of `query`, at most `most` (their memos still encoded). */
  private async read(query: string, most: number, spend: (calls: number) => void): Promise<Candidate[]> {
    const { client } = this.options;
    const candidates: Candidate[] = [];
    let nextPageToken: Uint8Array | undefined;
    do {
      spend(1);
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

  /**
   * The record's memo decoded (and decrypted); undefined unless it is an order of the scope, of the
   * kind its workflow type runs.
   */
  private async recordOf<R extends AnyOrderRecord>(candidate: Candidate, scope: RecordScope<R>, strict: boolean): Promise<R | undefined> {
    orderSearchRecords.inc({ stage: 'decoded' });
    let memo: (AnyMemo & { quote?: OrderQuote }) | undefined;
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
      if (strict) throw new UndecodableRecordError(candidate.workflowId);
      this.options.logger?.warn(
        { workflowId: candidate.workflowId, err: (err as Error).message },
        'order search: a record whose memo cannot be decoded is left out',
      );
      return undefined;
    }
    // The query already holds the scope; the memo is checked too, so a record can never leak. A
    // memo of the other kind than its workflow type runs is no order of either.
    const kind = kindOfWorkflowType(candidate.raw.type?.name);
    if (!memo?.order || !scope.owns(memo) || kind === undefined || (kind === 'off_ramp') !== isSellOrderMemo(memo)) return undefined;
    return { ...memo, requestedAt: new Date(candidate.atMs).toISOString() } as R;
  }
}

/**
 * The oldest request time a search reads: requested_from exactly; created_from with a margin (an
 * order is requested before it is created, within the provider's answer).
 */
function floorOf(filters: OrderSearchFilters): number {
  if (filters.requestedFromMs !== undefined) return Math.max(FLOOR_MS, filters.requestedFromMs);
  return Math.max(FLOOR_MS, filters.createdFromMs === undefined ? FLOOR_MS : filters.createdFromMs - CREATED_AFTER_REQUEST_MS);
}

/** The upper bound (excluded) of a page: the cursor, or the window's end (created_to bounds request time exactly too). */
function upperBoundOf(cursor: { atMs: number; workflowId: string } | undefined, filters: OrderSearchFilters): KeysetPosition | undefined {
  if (filters.requestedBeforeMs !== undefined) {
    const end = Math.min(filters.requestedBeforeMs, CEILING_MS);
    if (cursor === undefined || cursor.atMs >= end) return { ms: end };
  }
  return upperBound(cursor, filters.createdToMs);
}

/** `base`, limited to the orders from position `from` (included) to position `to` (excluded). */
function within(base: string, from: KeysetPosition | undefined, to: KeysetPosition | undefined): string {
  const range = requestedBetween(from, to);
  return range === undefined ? base : `${base} AND ${range}`;
}

/** A page's upper bound (excluded): the cursor, or the millisecond after created_to, whichever is older. */
function upperBound(cursor: { atMs: number; workflowId: string } | undefined, createdToMs: number | undefined): KeysetPosition | undefined {
  if (createdToMs !== undefined && (cursor === undefined || cursor.atMs > createdToMs))
    return { ms: Math.min(createdToMs + 1, CEILING_MS) };
  return cursor && (cursor.atMs < CEILING_MS ? { ms: cursor.atMs, workflowId: cursor.workflowId } : { ms: CEILING_MS });
}

/**
 * Narrows a window between `narrow` (holding at most `limit`) and `wide` (holding more), by turns
 * of interpolation and halving, until `wide` holds at most `limit + margin`, the two are next to
 * each other, or `more()` says the counts are spent.
 */
async function narrowDown(
  narrow: Probe,
  wide: Probe,
  limit: number,
  more: () => boolean,
  count: (at: number) => Promise<number>,
): Promise<{ narrow: Probe; wide: Probe }> {
  const most = limit + searchMargin(limit);
  const target = limit + Math.ceil(searchMargin(limit) / 2);
  for (let turn = 0; wide.count > most && wide.at - narrow.at > 1 && more(); turn++) {
    const guess =
      turn % 2 === 0
        ? narrow.at + ((wide.at - narrow.at) * (target - narrow.count)) / (wide.count - narrow.count)
        : (narrow.at + wide.at) / 2;
    const at = Math.min(wide.at - 1, Math.max(narrow.at + 1, Math.round(guess)));
    const found = await count(at);
    if (found > limit) wide = { at, count: found };
    else narrow = { at, count: found };
  }
  return { narrow, wide };
}

const orderIdOf = (workflowId: string) => workflowId.slice(orderWorkflowId('').length);

const positionOf = (candidate: Candidate): OrderSearchPosition => ({
  requestedAt: new Date(candidate.atMs).toISOString(),
  id: orderIdOf(candidate.workflowId),
});

/** The greatest order id: a position with it comes before every order of its millisecond. */
const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/** The filters the memo can answer exactly (visibility already applied the others). */
function matches(order: Order | SellOrder, filters: OrderSearchFilters): boolean {
  const createdMs = Date.parse(order.created_at);
  if (filters.createdFromMs !== undefined && createdMs < filters.createdFromMs) return false;
  if (filters.createdToMs !== undefined && createdMs > filters.createdToMs) return false;
  if (filters.status !== undefined && order.status !== filters.status) return false;
  if (filters.externalOrderId !== undefined && order.external_order_id !== filters.externalOrderId) return false;
  if (filters.externalUserId !== undefined && order.external_user_id !== filters.externalUserId) return false;
  return true;
}
