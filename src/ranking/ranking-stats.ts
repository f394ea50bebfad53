import { weakInterval } from '../weak-timer';
import type { Logger } from '../logging';
import type { LevelCounters } from './decay';
import { EMPTY_SNAPSHOT, type StatsSnapshot } from './snapshot';
import type { OutcomeStatsStore } from './stats-store';

export interface RankingStatsOptions {
  /** How often the snapshot is read again (RANKING_REFRESH_MS). */
  refreshMs: number;
  logger: Logger;
}

/**
 * The outcome statistics as an API process ranks with them: a snapshot read from the store in the
 * background every `refreshMs` and read here synchronously, so an offers request never waits on
 * the store. Until the first read succeeds the snapshot is empty (every provider at the priors); a
 * failed read is logged and the last snapshot kept.
 */
export class RankingStats {
  private current: StatsSnapshot = EMPTY_SNAPSHOT;
  private timer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private started = false;
  private stopped = false;

  constructor(
    private readonly store: OutcomeStatsStore,
    private readonly options: RankingStatsOptions,
  ) {}

  /** Reads the first snapshot (waiting for it, never failing), then refreshes in the background until stop(). */
  async start(): Promise<void> {
    if (this.started) return this.refresh();
    this.started = true;
    this.stopped = false;
    await this.refresh();
    this.schedule();
  }

  /** The latest snapshot read. */
  snapshot(): StatsSnapshot {
    return this.current;
  }

  /** One level's counters in the latest snapshot. */
  level(key: string): LevelCounters | undefined {
    return this.current.levels.get(key);
  }

  /** Reads the snapshot now (one read at a time: a call during a read waits for that read). */
  refresh(): Promise<void> {
    this.refreshing ??= this.store
      .snapshot()
      .then(
        (snapshot) => {
          this.current = snapshot;
        },
        (err: unknown) => this.options.logger.warn({ err }, 'ranking: reading the outcome statistics failed; ranking with the last ones'),
      )
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  /** Stops the background refresh; waits for a read in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.started = false;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.refreshing;
  }

  private schedule(): void {
    if (this.stopped) return;
    // One read at a time (refresh); a stats object dropped without stop() is not kept alive by its timer.
    this.timer ??= weakInterval(this, this.options.refreshMs, (self) => void self.refresh());
  }
}
