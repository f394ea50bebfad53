import type { RedisClient } from '../redis/connection';
import { RedisOutcomeStatsStore, type RedisOutcomeStatsStoreOptions } from './redis-stats-store';
import { MemoryOutcomeStatsStore, type OutcomeStatsStore } from './stats-store';

/** The outcome statistics: in this process's memory, or in Redis (shared by every process) when given a client. */
export function createOutcomeStatsStore(redis: RedisClient | undefined, options: RedisOutcomeStatsStoreOptions): OutcomeStatsStore {
  return redis ? new RedisOutcomeStatsStore(redis, options) : new MemoryOutcomeStatsStore(options);
}
