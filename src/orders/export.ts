/**
 * Exports of an integrator's orders (GET /api/on_ramp/orders/export): every order, buy and sell, requested in a
 * window, read from visibility a page at a time through OrderSearch's keyset (newest first, no
 * order skipped or repeated while others are created), bounded in rows, time and number at once.
 * The window is of request times (OrderRequestedAt, set once by the API), half-open: consecutive
 * windows hold every order exactly once, which created_at (set when the provider answers, possibly
 * long after the request) could not promise.
 */
import type { AnyOrderStatus, OrderKind } from '../domain/order-kind';
import { ExportsBusyError, ExportTooLargeError } from './errors';
import type { AnyOrderRecord, OrderSearch, OrderSearchFilters, OrderSearchPosition } from './search';

export interface OrderExportLimits {
  /** Orders one export may hold; a window counted above it is refused before anything is sent. */
  maxRows: number;
  /** How long one export may stream; past it the answer is cut (an incomplete chunked body). */
  maxDurationMs: number;
  /** The widest window one export may ask for. */
  maxWindowMs: number;
  /**
   * How far in the past a window must end: an order becomes visible once its start returns, which
   * may be up to the create timeout after its request time.
   */
  settleMs: number;
  /** Orders read from visibility per page. */
  pageSize: number;
  /** Exports of one integrator streaming at once, per API process. */
  perIntegrator: number;
  /** Exports of every integrator streaming at once, per API process. */
  total: number;
}

export interface OrderExportRequest {
  integratorId: string;
  /** Orders requested at or after this instant (epoch ms)... */
  requestedFromMs: number;
  /** ...and before this one. */
  requestedBeforeMs: number;
  status?: AnyOrderStatus;
  providerCode?: string;
  externalUserId?: string;
  /** Buys or sells only; both without it. */
  kind?: OrderKind;
}

/** Why an export ended before its last order. */
export type ExportCut = 'timeout' | 'too_many_rows';

export class ExportCutError extends Error {
  constructor(readonly reason: ExportCut) {
    super(reason === 'timeout' ? 'the export ran past its time limit' : 'the window holds more orders than one export may');
    this.name = 'ExportCutError';
  }
}

/** One export admitted: its pages, then `release()` (always, however it ends). */
export interface OrderExport {
  /** The window's orders, newest first, a page at a time. */
  pages(): AsyncGenerator<AnyOrderRecord[]>;
  release(): void;
}

export class OrderExports {
  private readonly running = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly search: OrderSearch,
    /** From the configuration (ORDER_EXPORT_*, src/config/index.ts), where the defaults are. */
    readonly limits: OrderExportLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Admits an export: refused (ExportsBusyError) while the integrator, or the process, has its
   * share streaming; refused (ExportTooLargeError) when the window counts more than maxRows orders.
   * `signal` ends it early (the client went away).
   */
  async start(request: OrderExportRequest, signal: AbortSignal): Promise<OrderExport> {
    const { integratorId } = request;
    const mine = this.running.get(integratorId) ?? 0;
    if (mine >= this.limits.perIntegrator || this.total >= this.limits.total) throw new ExportsBusyError(mine >= this.limits.perIntegrator);
    this.running.set(integratorId, mine + 1);
    this.total++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.total--;
      const left = this.running.get(integratorId)! - 1;
      if (left === 0) this.running.delete(integratorId);
      else this.running.set(integratorId, left);
    };
    try {
      const filters = filtersOf(request);
      const counted = await this.search.exportCount(integratorId, filters, signal);
      if (counted > this.limits.maxRows) throw new ExportTooLargeError(counted, this.limits.maxRows);
      return { pages: () => this.pages(integratorId, filters, signal), release };
    } catch (err) {
      release();
      throw err;
    }
  }

  private async *pages(integratorId: string, filters: OrderSearchFilters, signal: AbortSignal): AsyncGenerator<AnyOrderRecord[]> {
    const deadline = this.now() + this.limits.maxDurationMs;
    const timedOut = AbortSignal.timeout(this.limits.maxDurationMs);
    const either = AbortSignal.any([signal, timedOut]);
    let rows = 0;
    let after: OrderSearchPosition | undefined;
    let spanMs: number | undefined;
    do {
      let page;
      try {
        page = await this.search.exportPage(integratorId, filters, this.limits.pageSize, after, either, spanMs);
      } catch (err) {
        if (timedOut.aborted && !signal.aborted) throw new ExportCutError('timeout');
        throw err;
      }
      if (this.now() > deadline) throw new ExportCutError('timeout');
      rows += page.records.length;
      // More than were counted: orders that reached visibility after the count (later than the settle time allows for).
      if (rows > this.limits.maxRows) throw new ExportCutError('too_many_rows');
      if (page.records.length > 0) yield page.records;
      after = page.next;
      spanMs = page.spanMs;
    } while (after !== undefined && !signal.aborted);
  }
}

function filtersOf(request: OrderExportRequest): OrderSearchFilters {
  return {
    requestedFromMs: request.requestedFromMs,
    requestedBeforeMs: request.requestedBeforeMs,
    ...(request.status === undefined ? {} : { status: request.status }),
    ...(request.providerCode === undefined ? {} : { providerCode: request.providerCode }),
    ...(request.externalUserId === undefined ? {} : { externalUserId: request.externalUserId }),
    ...(request.kind === undefined ? {} : { kind: request.kind }),
  };
}
