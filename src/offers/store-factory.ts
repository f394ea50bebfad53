import type { RedisClient } from '../redis/connection';
import { RedisOfferStore, type RedisOfferStoreOptions } from './redis-store';
import { MemoryOfferStore, type OfferStore } from './store';

/** The offer store: in this process's memory, or in Redis (shared by every API process) when given a client. */
export function createOfferStore(redis?: RedisClient, options: RedisOfferStoreOptions = {}): OfferStore {
  return redis ? new RedisOfferStore(redis, options) : new MemoryOfferStore(options.now);
}
