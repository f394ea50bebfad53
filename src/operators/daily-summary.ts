/**
 * The daily summary for billing (GET /api/operator/summaries/daily; docs/operations.md, "Daily
 * summary for billing"): every order requested in one UTC day, of every integrator, read from
 * Temporal visibility one provider at a time and counted per integrator, provider and fiat currency
 * (src/domain/daily-summary.ts).
 *
 * A summary is whole or refused, never smaller than the day:
 * - only a day that has ended, and ended long enough ago that every order requested in it shows in
 *   visibility (its start returns within the create timeout: `settleMs`);
 * - only a day whose orders Temporal still keeps: a closed order's workflow is deleted its retention
 *   after it closes, and an order can close right after it was requested (a completed one does);
 * - a record that cannot be decoded (UndecodableRecordError) or counted (SummaryRecordError) fails it;
 * - more than `maxOrders` orders, or more than `maxDurationMs` spent, fail it.
 * Statuses are as the records hold them when read: an order of the day may still change afterwards
 * (an expired one paid late, a failed one refunded); `open` says how many may.
 *
 * It reads through OrderSearch.providerRecordsPage, the reconciliation's walk: the broker's own
 * reads, on no integrator's search budget.
 */
import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common';
import { DailySummaryBuilder, utcDayWindow, type SummaryFigures, type SummaryRow } from '../domain/daily-summary';
import type { CurrencyDictionary } from '../domain/currency';
import { isTemporalUnreachable, OrderUnavailableError } from '../orders/errors';
import type { OrderRecordPage, OrderSearch, OrderSearchPosition } from '../orders/search';

export interface DailySummaryLimits {
  /** Orders (of every integrator, before the integrator filter) one summary may read; more: SummaryTooLargeError. */
  maxOrders: number;
  /** How long one summary may read; past it, SummaryTimeoutError (plus at most one page's own deadline). */
  maxDurationMs: number;
  /** How long after a day's end its summary may be asked for: an order shows in visibility once its start returns. */
  settleMs: number;
  /** Orders read from visibility a page at a time. */
  pageSize: number;
  /** Summaries reading at once, per API process; another: SummariesBusyError. */
  concurrency: number;
}

export interface DailySummaryRequest {
  /** The UTC day, `YYYY-MM-DD`. */
  date: string;
  /** Only this integrator's orders (the walk still reads every integrator's: visibility has no index on both). */
  integratorId?: string;
  /** Only this provider's orders. */
  providerCode?: string;
}

export interface DailySummary {
  date: string;
  /** The day's window: orders requested from `fromMs` (included) to `toMs` (excluded). */
  fromMs: number;
  toMs: number;
  /** When the records were read (the statuses are as of then). */
  generatedAtMs: number;
  /** The providers whose orders were read. */
  providerCodes: string[];
  rows: SummaryRow[];
  /** Per fiat currency. */
  totals: SummaryFigures[];
}

/** Why a day cannot be summarized (yet, or any more). */
export type UnsummarizableReason = 'not_a_date' | 'not_ended' | 'past_retention';

export class DayNotSummarizableError extends Error {
  constructor(
    readonly reason: UnsummarizableReason,
    message: string,
  ) {
    super(message);
    this.name = 'DayNotSummarizableError';
  }
}

/** The day holds more orders than one summary may read (DAILY_SUMMARY_MAX_ORDERS). */
export class SummaryTooLargeError extends Error {
  constructor(readonly maxOrders: number) {
    super(
      `The day holds more than ${maxOrders} orders, more than one summary may read (DAILY_SUMMARY_MAX_ORDERS); summarize one provider at a time.`,
    );
    this.name = 'SummaryTooLargeError';
  }
}

/** The summary read longer than it may (DAILY_SUMMARY_MAX_SECONDS). */
export class SummaryTimeoutError extends Error {
  constructor(readonly maxDurationMs: number) {
    super(
      `The day's orders could not be read within ${maxDurationMs / 1000} s (DAILY_SUMMARY_MAX_SECONDS); try again, or summarize one provider at a time.`,
    );
    this.name = 'SummaryTimeoutError';
  }
}

/** As many summaries as this process reads at once are reading. */
export class SummariesBusyError extends Error {
  constructor() {
    super('As many daily summaries as this service reads at once are in progress; try again shortly.');
    this.name = 'SummariesBusyError';
  }
}

export interface DailySummariesOptions {
  /** The reconciliation's walk of one provider's records (OrderSearch): strict, on no integrator's budget. */
  records: Pick<OrderSearch, 'providerRecordsPage'>;
  /** The providers whose orders a summary reads: every provider the broker knows, enabled or not (a provider disabled since still had the day's orders). */
  providerCodes: readonly string[];
  /** How long Temporal keeps a closed workflow (the namespace's retention), asked for each summary. */
  retentionMs: () => Promise<number>;
  currencies: CurrencyDictionary;
  limits: DailySummaryLimits;
  /** What is now: whether a day has ended and its orders are still kept. Tests summarize the day they made orders in as if it had ended. */
  now?: () => number;
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

export class DailySummaries {
  private running = 0;
  private readonly now: () => number;

  constructor(private readonly options: DailySummariesOptions) {
    this.now = options.now ?? Date.now;
  }

  get limits(): DailySummaryLimits {
    return this.options.limits;
  }

  /**
   * The summary of one UTC day. Refused before anything is read: a day that is not a date, has not
   * ended `settleMs` ago, or whose orders retention may have deleted (DayNotSummarizableError); as
   * many summaries reading as the process takes (SummariesBusyError). Then whole or failed: more
   * than maxOrders orders (SummaryTooLargeError), past maxDurationMs (SummaryTimeoutError), a
   * record that cannot be decoded or counted, Temporal out of reach. `signal` stops the walk
   * between pages (the caller went away) and rejects with its reason.
   */
  async summarize(request: DailySummaryRequest, signal: AbortSignal): Promise<DailySummary> {
    const { limits } = this.options;
    const window = utcDayWindow(request.date);
    if (!window) throw new DayNotSummarizableError('not_a_date', `${request.date} is not a date (YYYY-MM-DD).`);
    const availableMs = window.toMs + limits.settleMs;
    if (this.now() < availableMs) {
      throw new DayNotSummarizableError(
        'not_ended',
        `${request.date} (UTC) has not ended, or ended less than ${limits.settleMs / 1000} s ago: its summary can be asked for from ${iso(availableMs)}.`,
      );
    }
    const retentionMs = await this.options.retentionMs();
    if (this.now() >= window.fromMs + retentionMs) {
      throw new DayNotSummarizableError(
        'past_retention',
        `Temporal keeps a closed order ${+(retentionMs / DAY_MS).toFixed(2)} day(s) (the namespace's retention), and an order of ` +
          `${request.date} may have closed as soon as it was requested: its summary could miss orders, so it is refused. ` +
          `The last day that can be summarized whole starts after ${iso(this.now() - retentionMs)}.`,
      );
    }
    if (this.running >= limits.concurrency) throw new SummariesBusyError();
    this.running++;
    try {
      return await this.read(request, window, signal);
    } finally {
      this.running--;
    }
  }

  private async read(request: DailySummaryRequest, window: { fromMs: number; toMs: number }, signal: AbortSignal): Promise<DailySummary> {
    const { limits, records, currencies } = this.options;
    const timedOut = AbortSignal.timeout(limits.maxDurationMs);
    const stop = AbortSignal.any([signal, timedOut]);
    const stopped = () => {
      if (!stop.aborted) return;
      if (signal.aborted) signal.throwIfAborted();
      throw new SummaryTimeoutError(limits.maxDurationMs);
    };
    const providerCodes = request.providerCode === undefined ? [...this.options.providerCodes] : [request.providerCode];
    const builder = new DailySummaryBuilder(currencies);
    let read = 0;
    for (const providerCode of providerCodes) {
      let after: OrderSearchPosition | undefined;
      let spanHintMs: number | undefined;
      do {
        stopped();
        const page: OrderRecordPage = await records.providerRecordsPage(
          providerCode,
          { requestedFromMs: window.fromMs, requestedBeforeMs: window.toMs },
          limits.pageSize,
          after,
          spanHintMs,
        );
        stopped();
        read += page.records.length;
        if (read > limits.maxOrders) throw new SummaryTooLargeError(limits.maxOrders);
        for (const record of page.records) {
          if (request.integratorId === undefined || record.integratorId === request.integratorId) builder.add(record);
        }
        after = page.next;
        spanHintMs = page.spanMs;
      } while (after !== undefined);
    }
    return {
      date: request.date,
      ...window,
      generatedAtMs: this.now(),
      providerCodes,
      rows: builder.rows(),
      totals: builder.totals(),
    };
  }
}

/** How long the retention lookup may take before the summary is answered 503. */
const DESCRIBE_TIMEOUT_MS = 10_000;

/**
 * The namespace's retention (one DescribeNamespace call), for DailySummariesOptions.retentionMs;
 * Temporal out of reach is OrderUnavailableError (503). A namespace that names none counts as
 * keeping nothing: every day is refused rather than possibly incomplete.
 */
export function namespaceRetention(client: Client): () => Promise<number> {
  return async () => {
    try {
      const { config } = await client.withDeadline(Date.now() + DESCRIBE_TIMEOUT_MS, () =>
        client.workflowService.describeNamespace({ namespace: client.options.namespace }),
      );
      const ttl = config?.workflowExecutionRetentionTtl;
      return ttl ? tsToMs(ttl) : 0;
    } catch (err) {
      if (isTemporalUnreachable(err)) {
        throw new OrderUnavailableError('The order engine cannot be reached; try again shortly.', 5);
      }
      throw err;
    }
  };
}
