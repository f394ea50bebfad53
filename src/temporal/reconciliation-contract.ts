/**
 * The reconciliation workflows' contract with the worker, the schedules and the operators' tools:
 * workflow ids, inputs, the report, its query and signal, and search attributes. Imported by
 * workflow code, so it stays free of Node built-ins and I/O.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { Mismatch, MismatchKind } from '../domain/reconciliation';

/** When the window of a reconciliation starts: its reports are found by provider and window. */
export const RECONCILED_FROM_KEY = defineSearchAttributeKey('ReconciledFrom', SearchAttributeType.DATETIME);
/**
 * The kinds of mismatch found: on a reconciliation, every kind its report holds (`none` when clean);
 * on an order, every kind a reconciliation found about it (docs/operations.md, "Reconciliation").
 */
export const RECONCILIATION_MISMATCH_KEY = defineSearchAttributeKey('ReconciliationMismatch', SearchAttributeType.KEYWORD_LIST);

export const RECONCILIATION_WORKFLOW_TYPE = 'reconciliationWorkflow';
export const SCHEDULED_RECONCILIATION_WORKFLOW_TYPE = 'scheduledReconciliationWorkflow';

/** The workflow whose report is one provider's window: the same window always names the same workflow. */
export const reconciliationWorkflowId = (providerCode: string, fromMs: number, toMs: number) =>
  `onramp-reconcile-${providerCode}-${new Date(fromMs).toISOString()}-${new Date(toMs).toISOString()}`;

/** The schedule that reconciles one provider every day. */
export const reconciliationScheduleId = (providerCode: string) => `onramp-reconcile-${providerCode}`;

/** Durations and bounds of a reconciliation, passed in so tests can shorten them (workflows read no env). */
export interface ReconciliationTimings {
  /** How far around the window both sides are read, so a pair across its edge still matches (the payment window). */
  marginMs: number;
  /** An order that changed less than this long ago is not compared by status yet. */
  settleMs: number;
  /** How long the report is kept, open and queryable, after the run. */
  keepReportMs: number;
  /** History length at which the report's workflow continues as new (tests lower it; 1,000 when absent). */
  historyEventsBeforeContinue?: number;
}

export interface ReconciliationInput {
  providerCode: string;
  /** The window of request and creation times: `fromMs` included, `toMs` excluded. */
  fromMs: number;
  toMs: number;
  timings: ReconciliationTimings;
}

/** What a scheduled run reconciles: the day (UTC) that ended `lagMs` before it fired, at the latest. */
export interface ScheduledReconciliationInput {
  providerCode: string;
  /** Window length (a day by default). */
  windowMs: number;
  /** How long after a window's end it is reconciled: the margin and the settle window, so both sides are in. */
  lagMs: number;
  timings: ReconciliationTimings;
}

/** How the provider's side was read: its transaction list, or one lookup per order (a provider without a list). */
export type BooksSource = 'list' | 'lookup';

/** The outcome of one reconciliation run: kept by its workflow, queryable, and returned when the workflow ends. */
export interface ReconciliationReport {
  providerCode: string;
  fromMs: number;
  toMs: number;
  /** When the run read the two sides (epoch ms). */
  ranAtMs: number;
  source: BooksSource;
  /** Orders of the window, transactions of the window, and the orders matched with one. */
  orders: number;
  transactions: number;
  matched: number;
  /** Rows of the provider's list that could not be read, and lookups that failed. */
  unreadable: number;
  /** Matched orders whose status was not compared: they changed inside the settle window (run the window again later). */
  unsettled: number;
  /** Mismatches by kind, all of them (the list below may be cut). */
  counts: Partial<Record<MismatchKind, number>>;
  /**
   * The mismatches, at most MAX_REPORTED_MISMATCHES of them and MAX_REPORTED_BYTES of JSON;
   * `truncated` says how many more there were (the counts hold all).
   */
  mismatches: Mismatch[];
  truncated: number;
  /** Open orders told of their mismatch (a closed order's workflow cannot take it: the report holds it). */
  flagged: number;
  /** Why telling the orders failed, when it did (the report is kept all the same). */
  flagError?: string;
  /** The last rerun could not read a side: this report is the one before it (`lastRunError` says why). */
  lastRunError?: string;
}

/** The most mismatches a report lists one by one (a report is a workflow payload: it must stay small). */
export const MAX_REPORTED_MISMATCHES = 1_000;
/** The most bytes of JSON the listed mismatches may take (provider texts may each be hundreds of bytes). */
export const MAX_REPORTED_BYTES = 256 * 1024;

export const reconciliationReportQuery = defineQuery<ReconciliationReport | null>('reconciliationReport');
/** Read the two sides again and replace the report (an operator's "run now" on a window already reconciled). */
export const rerunReconciliationSignal = defineSignal('rerunReconciliation');

/** What an order is told of a reconciliation that found it differs (the order's ReconciliationMismatch). */
export interface OrderMismatchNotice {
  kinds: MismatchKind[];
  /** The reconciliation workflow whose report holds the details. */
  reconciliationId: string;
}
export const reconciliationMismatchSignal = defineSignal<[OrderMismatchNotice]>('reconciliationMismatch');
