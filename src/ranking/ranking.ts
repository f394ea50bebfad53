/**
 * The ranking's parts made once from configuration, in Redis with a client (shared by every API
 * process and worker) and in memory otherwise: the outcome statistics, the returning customers, the
 * recorder that feeds both, and what an offers request ranks with. The API starts the background
 * reads (`start`); a worker only records.
 */
import type { Client } from '@temporalio/client';
import type { Logger } from '../logging';
import type { RedisClient } from '../redis/connection';
import { OffersRanking } from './offers-ranking';
import { rebuildIfEmpty } from './outcome-rebuild';
import { OutcomeRecorder } from './outcome-recorder';
import { RankingStats } from './ranking-stats';
import { createReturningCustomers, type ReturningCustomers, type ReturningCustomersConfig } from './returning-customers';
import type { OutcomeStatsStore } from './stats-store';
import { createOutcomeStatsStore } from './store-factory';
import { weakInterval } from '../weak-timer';

export interface RankingConfig {
  ranking: { halfLifeMs: number; priorWeight: number; returningBoost: number; refreshMs: number };
  returningCustomers: ReturningCustomersConfig;
}

/** How often an API process checks that the statistics are there, and rebuilds them from Temporal when they are not. */
export const REBUILD_CHECK_MS = 60_000;

/** How far back a rebuild reads: past eight half-lives an order weighs under 1/256. */
export const rebuildLookbackMs = (halfLifeMs: number) => 8 * halfLifeMs;

export class Ranking {
  readonly store: OutcomeStatsStore;
  readonly customers: ReturningCustomers;
  readonly stats: RankingStats;
  readonly recorder: OutcomeRecorder;
  readonly offers: OffersRanking;
  private rebuildTimer?: NodeJS.Timeout;
  private client?: Client;
  private rebuilding?: Promise<void>;

  constructor(
    private readonly config: RankingConfig,
    private readonly options: { redis?: RedisClient; logger: Logger; customers?: ReturningCustomers },
  ) {
    const { redis, logger } = options;
    this.store = createOutcomeStatsStore(redis, { halfLifeMs: config.ranking.halfLifeMs });
    this.customers = options.customers ?? createReturningCustomers(config, redis, { logger });
    this.stats = new RankingStats(this.store, { refreshMs: config.ranking.refreshMs, logger });
    this.recorder = new OutcomeRecorder({ stats: this.store, customers: this.customers, logger });
    this.offers = new OffersRanking({
      stats: this.stats,
      customers: this.customers,
      settings: {
        halfLifeMs: config.ranking.halfLifeMs,
        priorWeight: config.ranking.priorWeight,
        returningBoost: config.ranking.returningBoost,
      },
      logger,
    });
  }

  /**
   * The API process's background work: the statistics read every refreshMs, and, with a Temporal
   * client, a check every REBUILD_CHECK_MS that rebuilds them when their store is empty. Not waited for.
   */
  start(client?: Client): void {
    void this.stats.start();
    if (!client || this.rebuildTimer) return;
    this.client = client;
    void this.checkRebuild();
    this.rebuildTimer = weakInterval(this, REBUILD_CHECK_MS, (self) => void self.checkRebuild());
  }

  /** Rebuilds the statistics when their store is empty; one check at a time, never throws. */
  private checkRebuild(): Promise<void> {
    const { client } = this;
    if (!client) return Promise.resolve();
    this.rebuilding ??= rebuildIfEmpty({
      client,
      store: this.store,
      recorder: this.recorder,
      lookbackMs: rebuildLookbackMs(this.config.ranking.halfLifeMs),
      pageTimeoutMs: 10_000,
      logger: this.options.logger,
    })
      .then(
        (summary) => {
          if (summary.rebuilt) return this.stats.refresh();
        },
        (err: unknown) =>
          this.options.logger.warn(
            { err: (err as Error).message },
            'ranking: rebuilding the statistics from Temporal failed; will try again',
          ),
      )
      .finally(() => {
        this.rebuilding = undefined;
      });
    return this.rebuilding;
  }

  async stop(): Promise<void> {
    clearInterval(this.rebuildTimer);
    this.rebuildTimer = undefined;
    await this.rebuilding;
    await this.stats.stop();
  }
}
