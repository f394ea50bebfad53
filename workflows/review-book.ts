/**
 * One review's state and its rules, as a plain class the review workflow (workflows/review.ts) wires
 * up: reasons raised (each occurrence once), operator actions recorded (each request once) with their
 * outcomes, acknowledgements closing reasons. Everything comes by signal, and anyone with Temporal
 * access can send one: a malformed message is dropped, never fails the workflow task. No Temporal
 * calls: the workflow hands it the effects; unit-tested without a server
 * (test/unit/workflows/review-book.test.ts). Pure: no Node built-ins, no I/O.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import {
  NEEDS_REVIEW_KEY,
  OPERATOR_ACTIONS,
  QUEUE_REASONS,
  REVIEW_ACTIONS_MAX,
  REVIEW_MEMO_KEY,
  REVIEW_REASONS_MAX,
  REVIEW_TEXT_MAX,
  type ActionOutcome,
  type AuditEntry,
  type OperatorAction,
  type QueueReason,
  type ReviewInput,
  type ReviewMemo,
  type ReviewNotice,
  type ReviewReasonEntry,
  type ReviewRecord,
} from '../src/temporal/review-contract';

/** What a review carries into its next run (continue-as-new). */
export interface CarriedReview {
  reasons: ReviewReasonEntry[];
  actions: AuditEntry[];
  /** When the review last changed (epoch ms): it is kept for `keepMs` after. */
  changedAtMs: number;
}

export interface ReviewEffects {
  now(): number;
  upsertMemo(memo: Record<string, unknown>): void;
  upsertSearchAttributes(attributes: SearchAttributeUpdatePair[]): void;
  log: { warn(message: string, attributes?: Record<string, unknown>): void };
}

const OUTCOMES: readonly ActionOutcome['outcome'][] = ['done', 'refused', 'failed'];
const SOURCES: readonly ReviewNotice['source'][] = ['order', 'reconciliation'];
/** Keys and request ids: short, so a record stays small whatever is sent. */
const ID_MAX = 300;

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;
const cut = (text: string) => (text.length > REVIEW_TEXT_MAX ? `${text.slice(0, REVIEW_TEXT_MAX - 1)}…` : text);
const isInstant = (value: unknown): value is string => isText(value, 40) && Number.isFinite(Date.parse(value));

export class ReviewBook {
  readonly reasons: ReviewReasonEntry[];
  readonly actions: AuditEntry[];
  changedAtMs: number;
  /** Changes made so far: the workflow waits for the next. */
  version = 0;
  private published = '';

  constructor(
    private readonly input: ReviewInput,
    private readonly effects: ReviewEffects,
    carried?: CarriedReview,
  ) {
    this.reasons = carried?.reasons ?? [];
    this.actions = carried?.actions ?? [];
    this.changedAtMs = carried?.changedAtMs ?? effects.now();
  }

  /** A reason raised; false when malformed, already known by its key, or beyond REVIEW_REASONS_MAX. */
  raise(notice: ReviewNotice): boolean {
    const n = notice as Partial<ReviewNotice> | null;
    if (
      !n ||
      !(QUEUE_REASONS as readonly unknown[]).includes(n.reason) ||
      !isText(n.key, ID_MAX) ||
      typeof n.detail !== 'string' ||
      !isInstant(n.raisedAt) ||
      !(SOURCES as readonly unknown[]).includes(n.source)
    ) {
      return this.drop('review notice malformed', notice);
    }
    if (this.reasons.some((r) => r.key === n.key)) return false;
    if (this.reasons.length >= REVIEW_REASONS_MAX) return this.drop('review notice beyond the most a review keeps', notice);
    this.reasons.push({ reason: n.reason!, key: n.key, detail: cut(n.detail), raisedAt: n.raisedAt, source: n.source! });
    return this.changed();
  }

  /**
   * An operator's action recorded (the audit entry); an acknowledgement closes the reasons it names
   * (every open one when it names none). False when malformed, a request already recorded, or beyond
   * REVIEW_ACTIONS_MAX (the API checks the record before it asks, and refuses).
   */
  act(action: OperatorAction): boolean {
    const a = action as Partial<OperatorAction> | null;
    const reasons = a?.reasons;
    const keys = a?.keys;
    if (
      !a ||
      !isText(a.requestId, ID_MAX) ||
      !(OPERATOR_ACTIONS as readonly unknown[]).includes(a.action) ||
      !isText(a.operatorId, ID_MAX) ||
      (a.note !== undefined && typeof a.note !== 'string') ||
      !isInstant(a.at) ||
      (reasons !== undefined && (!Array.isArray(reasons) || !reasons.every((r) => (QUEUE_REASONS as readonly unknown[]).includes(r)))) ||
      (keys !== undefined && (!Array.isArray(keys) || keys.length > REVIEW_REASONS_MAX || !keys.every((k) => isText(k, ID_MAX))))
    ) {
      return this.drop('operator action malformed', action);
    }
    if (this.actions.some((entry) => entry.requestId === a.requestId)) return false;
    if (this.actions.length >= REVIEW_ACTIONS_MAX) return this.drop('operator action beyond the most a review keeps', action);
    const entry: AuditEntry = {
      requestId: a.requestId,
      action: a.action!,
      operatorId: a.operatorId,
      at: a.at,
      ...(a.note === undefined ? {} : { note: cut(a.note) }),
      ...(reasons === undefined ? {} : { reasons: [...new Set(reasons)] }),
      ...(keys === undefined ? {} : { keys: [...new Set(keys)] }),
    };
    this.actions.push(entry);
    if (entry.action === 'acknowledge') {
      const acknowledged = {
        operatorId: entry.operatorId,
        at: entry.at,
        requestId: entry.requestId,
        ...(entry.note ? { note: entry.note } : {}),
      };
      for (const reason of this.reasons) {
        const named =
          entry.keys !== undefined ? entry.keys.includes(reason.key) : entry.reasons === undefined || entry.reasons.includes(reason.reason);
        if (!reason.acknowledged && named) reason.acknowledged = acknowledged;
      }
    }
    return this.changed();
  }

  /** An action's outcome, kept on its entry (the first told); false when malformed or about no recorded action. */
  settle(outcome: ActionOutcome): boolean {
    const o = outcome as Partial<ActionOutcome> | null;
    if (
      !o ||
      !isText(o.requestId, ID_MAX) ||
      !(OUTCOMES as readonly unknown[]).includes(o.outcome) ||
      (o.detail !== undefined && typeof o.detail !== 'string') ||
      !isInstant(o.at)
    ) {
      return this.drop('action outcome malformed', outcome);
    }
    const entry = this.actions.find((e) => e.requestId === o.requestId);
    if (!entry || entry.outcome) return false;
    entry.outcome = { requestId: o.requestId, outcome: o.outcome!, at: o.at, ...(o.detail === undefined ? {} : { detail: cut(o.detail) }) };
    return this.changed();
  }

  /** The reasons still open, each once, in QUEUE_REASONS order. */
  open(): QueueReason[] {
    const open = new Set(this.reasons.filter((r) => !r.acknowledged).map((r) => r.reason));
    return QUEUE_REASONS.filter((reason) => open.has(reason));
  }

  record(): ReviewRecord {
    const { reviewId, subject } = this.input;
    return { reviewId, subject, reasons: structuredCopy(this.reasons), actions: structuredCopy(this.actions), open: this.open() };
  }

  carry(): CarriedReview {
    return { reasons: this.reasons, actions: this.actions, changedAtMs: this.changedAtMs };
  }

  /**
   * The memo and NeedsReview as the review now stands, when they differ from what was last published
   * (a run starts with nothing published: its first change publishes).
   */
  publish(): void {
    const open = this.open();
    const memo: ReviewMemo = {
      reviewId: this.input.reviewId,
      subject: this.input.subject,
      open: this.reasons.filter((r) => !r.acknowledged).map(({ reason, detail, raisedAt }) => ({ reason, detail, raisedAt })),
    };
    const published = JSON.stringify(memo);
    if (published === this.published) return;
    this.published = published;
    this.effects.upsertMemo({ [REVIEW_MEMO_KEY]: memo });
    this.effects.upsertSearchAttributes([{ key: NEEDS_REVIEW_KEY, value: open.length > 0 ? open : null }]);
  }

  private changed(): true {
    this.changedAtMs = this.effects.now();
    this.version++;
    this.publish();
    return true;
  }

  private drop(message: string, what: unknown): false {
    let shown: string;
    try {
      shown = JSON.stringify(what)?.slice(0, 200) ?? String(what);
    } catch {
      shown = typeof what;
    }
    this.effects.log.warn(message, { review: this.input.reviewId, message: shown });
    return false;
  }
}

/** A copy the query's answer can be serialised from while the book changes on. */
function structuredCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
