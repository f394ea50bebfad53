import type { LevelCounters } from './decay';
import { completionId, foldOutcome, weightsToFold } from './fold';
import type { OrderOutcome } from './outcome';
import { snapshotOf, type StatsSnapshot } from './snapshot';

const DAY_MS = 86_400_000;

/**
 * Where the outcome statistics live: every level's decayed counters, the run ids already folded
 * (so each run counts once), and the indexer's cursor.
 */
export interface OutcomeStatsStore {
  /**
   * Folds one outcome into its levels; false, and nothing folded, when its run id was folded before
   * (a `complete` one after a `not_complete` of the same id folds its completion alone: fold.ts).
   */
  record(outcome: OrderOutcome): Promise<boolean>;
  /** Every level's counters, shared and per integrator, for an API process to rank with (src/ranking/ranking-stats.ts). */
  snapshot(): Promise<StatsSnapshot>;
  /** How far the indexer has read (epoch ms); undefined when the store is empty, which the indexer rebuilds. */
  getCursor(): Promise<number | undefined>;
  setCursor(ms: number): Promise<void>;
}

export interface OutcomeStatsStoreOptions {
  halfLifeMs: number;
  /** The clock folded run ids are kept by; Date.now by default (tests move it). */
  now?: () => number;
}

/**
 * How long a folded run id is remembered: 8 half-lives (by then the run weighs 1/256, folding it
 * twice would not matter) or 31 days, whichever is longer. 31 days outlasts Temporal's 30-day
 * retention, so a rebuild that lists every run Temporal still has never folds one twice.
 */
export function dedupeRetentionMs(halfLifeMs: number): number {
  return Math.max(8 * halfLifeMs, 31 * DAY_MS);
}

/** The statistics in this process's memory: one process only, gone with it (the indexer rebuilds them). */
export class MemoryOutcomeStatsStore implements OutcomeStatsStore {
  private readonly levels = new Map<string, LevelCounters>();
  /** Run id → when it was folded, oldest first (Map keeps insertion order). */
  private readonly folded = new Map<string, number>();
  private cursor?: number;
  private readonly now: () => number;
  private readonly retentionMs: number;

  constructor(private readonly options: OutcomeStatsStoreOptions) {
    this.now = options.now ?? Date.now;
    this.retentionMs = dedupeRetentionMs(options.halfLifeMs);
  }

  record(outcome: OrderOutcome): Promise<boolean> {
    const now = this.now();
    for (const [runId, at] of this.folded) {
      if (at > now - this.retentionMs) break;
      this.folded.delete(runId);
    }
    const completion = completionId(outcome.runId);
    const weights = weightsToFold(outcome, this.folded.has(outcome.runId), this.folded.has(completion));
    if (!weights) return Promise.resolve(false);
    if (!this.folded.has(outcome.runId)) this.folded.set(outcome.runId, now);
    if (outcome.kind === 'complete') this.folded.set(completion, now);
    foldOutcome(this.levels, outcome, this.options.halfLifeMs, weights);
    return Promise.resolve(true);
  }

  snapshot(): Promise<StatsSnapshot> {
    // The counters are replaced, never changed in place: a copy of the map is a snapshot.
    return Promise.resolve(snapshotOf(this.levels));
  }

  getCursor(): Promise<number | undefined> {
    return Promise.resolve(this.cursor);
  }

  setCursor(ms: number): Promise<void> {
    this.cursor = ms;
    return Promise.resolve();
  }
}
