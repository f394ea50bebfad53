import type { RedisClient } from '../redis/connection';
import type { ReturningCustomers, ReturningCustomersConfig, ReturningCustomersOptions } from './customer-memory';
import { MemoryReturningCustomers } from './returning-customers-memory';
import { RedisReturningCustomers } from './returning-customers-redis';

export {
  DAY_MS,
  TOMBSTONE_MS,
  ReturningCustomersUnavailableError,
  type Completion,
  type ReturningCustomers,
  type ReturningCustomersConfig,
  type ReturningCustomersOptions,
} from './customer-memory';
export { customerKey } from './customer-key';
export { MemoryReturningCustomers } from './returning-customers-memory';
export { RedisReturningCustomers } from './returning-customers-redis';

/**
 * The returning-customer store: in this process's memory, or in Redis (shared by every API process
 * and the outcome indexer) when given a client, as the offer store is chosen.
 */
export function createReturningCustomers(
  config: { returningCustomers: ReturningCustomersConfig },
  redis?: RedisClient,
  options: ReturningCustomersOptions = {},
): ReturningCustomers {
  return redis
    ? new RedisReturningCustomers(redis, config.returningCustomers, options)
    : new MemoryReturningCustomers(config.returningCustomers, options);
}
