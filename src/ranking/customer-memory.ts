import type { Logger } from '../logging';

export const DAY_MS = 86_400_000;

/**
 * How long a deletion is remembered: longer than Temporal's 30-day retention of closed orders, so
 * that an outcome indexer rebuilding from Temporal cannot bring a forgotten customer back.
 */
export const TOMBSTONE_MS = 31 * DAY_MS;

/** RANKING_CUSTOMER_KEY and RANKING_CUSTOMER_RETENTION_DAYS (AppConfig `returningCustomers`). */
export interface ReturningCustomersConfig {
  /** The HMAC key customers are kept under (src/ranking/customer-key.ts). */
  key: string;
  /** How long a completion counts (and is kept) after it finished. */
  retentionMs: number;
}

/** An order of this customer that reached `complete` at this provider. */
export interface Completion {
  integratorId: string;
  externalUserId: string;
  providerCode: string;
  finishedAtMs: number;
}

/**
 * Which providers each customer (an integrator's `external_user_id`) completed an order with
 * within the retention, for the returning-customer boost. Only the keyed hash of the customer and,
 * per provider code, the time of the last completion are kept.
 */
export interface ReturningCustomers {
  /**
   * Keeps the completion unless it finished before the retention, or at or before the customer's
   * last deletion (a tombstone, TOMBSTONE_MS long). Whether it was kept.
   */
  recordCompletion(completion: Completion): Promise<boolean>;
  /** The providers the customer completed an order with within the retention. */
  providersOf(integratorId: string, externalUserId: string): Promise<Set<string>>;
  /** Deletes what is kept of the customer and remembers the deletion (the tombstone). Idempotent. */
  forget(integratorId: string, externalUserId: string): Promise<void>;
}

export interface ReturningCustomersOptions {
  /** The clock; Date.now by default (tests move it). */
  now?: () => number;
  /** Memory: the customers (and, separately, the tombstones) kept at most; least recently used go first. */
  maxCustomers?: number;
  /** Redis: prepended to every key; `onramp:rc:` by default. */
  prefix?: string;
  /** Redis: where a failed call is logged before ReturningCustomersUnavailableError is thrown. */
  logger?: Logger;
  /** Redis: how long one call may wait (ms); 2000 by default. */
  timeoutMs?: number;
}

/** The Redis holding returning customers could not be reached; the API answers 503. */
export class ReturningCustomersUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The returning-customer store is unavailable; try again in a few seconds.', { cause });
    this.name = 'ReturningCustomersUnavailableError';
  }
}

/** Whether a completion finished at `finishedAtMs` still counts at `now`. */
export const withinRetention = (finishedAtMs: number, now: number, retentionMs: number) => finishedAtMs > now - retentionMs;
