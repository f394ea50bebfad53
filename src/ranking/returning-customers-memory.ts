import { growingLru } from '../lru';
import { customerKey } from './customer-key';
import {
  TOMBSTONE_MS,
  withinRetention,
  type Completion,
  type ReturningCustomers,
  type ReturningCustomersConfig,
  type ReturningCustomersOptions,
} from './customer-memory';

const DEFAULT_MAX_CUSTOMERS = 100_000;

/**
 * Returning customers in this process's memory (no REDIS_URL): keyed hash → provider code → last
 * completion (ms), and keyed hash → deletion time. Both bounded; a tombstone pushed out by newer
 * ones no longer blocks an older completion, so the bound should stay above the deletions of a month.
 */
export class MemoryReturningCustomers implements ReturningCustomers {
  private readonly now: () => number;
  private readonly customers;
  private readonly tombstones;

  constructor(
    private readonly config: ReturningCustomersConfig,
    options: ReturningCustomersOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.customers = growingLru<string, Map<string, number>>(options.maxCustomers ?? DEFAULT_MAX_CUSTOMERS);
    this.tombstones = growingLru<string, number>(options.maxCustomers ?? DEFAULT_MAX_CUSTOMERS);
  }

  recordCompletion({ integratorId, externalUserId, providerCode, finishedAtMs }: Completion): Promise<boolean> {
    const now = this.now();
    const key = customerKey(this.config.key, integratorId, externalUserId);
    if (!withinRetention(finishedAtMs, now, this.config.retentionMs)) return Promise.resolve(false);
    const deletedAt = this.deletedAt(key, now);
    if (deletedAt !== undefined && finishedAtMs <= deletedAt) return Promise.resolve(false);
    const providers = this.customers.get(key) ?? new Map<string, number>();
    providers.set(providerCode, Math.max(finishedAtMs, providers.get(providerCode) ?? 0));
    this.customers.set(key, providers);
    return Promise.resolve(true);
  }

  providersOf(integratorId: string, externalUserId: string): Promise<Set<string>> {
    const now = this.now();
    const providers = this.customers.get(customerKey(this.config.key, integratorId, externalUserId));
    const codes = [...(providers ?? [])].filter(([, at]) => withinRetention(at, now, this.config.retentionMs)).map(([code]) => code);
    return Promise.resolve(new Set(codes));
  }

  forget(integratorId: string, externalUserId: string): Promise<void> {
    const now = this.now();
    const key = customerKey(this.config.key, integratorId, externalUserId);
    this.customers.delete(key);
    this.tombstones.set(key, Math.max(now, this.deletedAt(key, now) ?? 0));
    return Promise.resolve();
  }

  /** When the customer was last forgotten, if within TOMBSTONE_MS. */
  private deletedAt(key: string, now: number): number | undefined {
    const at = this.tombstones.get(key);
    return at !== undefined && now - at < TOMBSTONE_MS ? at : undefined;
  }
}
