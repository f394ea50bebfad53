import { createHash } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import { growingLru } from '../lru';
import type { RedisClient } from '../redis/connection';
import { withRedisDeadline } from '../redis/deadline';

/** One provider event, as the webhook route signals it to its order's workflow. */
export interface SignalledEvent {
  provider: string;
  orderId: string;
  eventId: string;
}

/**
 * The provider events already signalled, so that a replayed webhook is acknowledged without a
 * second signal: the workflow drops a duplicate event, but every signal is still an event in its
 * history. `remember` is called only once the signal was delivered.
 */
export interface SignalledEvents {
  seen(event: SignalledEvent): Promise<boolean>;
  remember(event: SignalledEvent): Promise<void>;
}

/**
 * Seven days. The longest webhook retry window a provider documents is Mercuryo's three days (Ramp's
 * is minutes; the others document none), so a provider's retries fall inside with room to spare.
 * Past it a replay costs one more signal per event and week, and none once the order's workflow has
 * closed (a failed or expired order closes after the settled grace, 7 days by default).
 */
export const SIGNALLED_EVENT_TTL_MS = 7 * 24 * 60 * 60_000;

/** A digest of the three ids, so that a kept entry has one small size whatever the provider's ids. */
function digest({ provider, orderId, eventId }: SignalledEvent): string {
  return createHash('sha256')
    .update(JSON.stringify([provider, orderId, eventId]))
    .digest('base64url');
}

/** In this process's memory, for a single API process. */
export class MemorySignalledEvents implements SignalledEvents {
  private readonly signalled: LRUCache<string, true>;

  /** At most `max` events (about 17 MB at 100,000, none ahead: src/lru.ts); past it the least recently signalled is forgotten early. */
  constructor(options: { max?: number; ttlMs?: number } = {}) {
    this.signalled = growingLru(options.max ?? 100_000, { ttl: options.ttlMs ?? SIGNALLED_EVENT_TTL_MS });
  }

  seen(event: SignalledEvent): Promise<boolean> {
    return Promise.resolve(this.signalled.has(digest(event)));
  }

  remember(event: SignalledEvent): Promise<void> {
    this.signalled.set(digest(event), true);
    return Promise.resolve();
  }
}

export const DEFAULT_SIGNALLED_EVENT_KEY_PREFIX = 'onramp:signalled:';

/**
 * A webhook waits on Redis twice. A store that fails costs only a duplicate signal, so it gets
 * less time than the offer store's 2 s and the provider still has its answer within seconds.
 */
const REDIS_CALL_TIMEOUT_MS = 500;

/** In Redis, shared by every API process: one key per event, set with NX and a TTL. */
export class RedisSignalledEvents implements SignalledEvents {
  constructor(
    private readonly redis: RedisClient,
    private readonly options: { prefix?: string; ttlMs?: number; timeoutMs?: number } = {},
  ) {}

  async seen(event: SignalledEvent): Promise<boolean> {
    return (await this.call(this.redis.exists(this.keyOf(event)))) === 1;
  }

  async remember(event: SignalledEvent): Promise<void> {
    const ttlMs = this.options.ttlMs ?? SIGNALLED_EVENT_TTL_MS;
    await this.call(this.redis.set(this.keyOf(event), '1', { condition: 'NX', expiration: { type: 'PX', value: ttlMs } }));
  }

  keyOf(event: SignalledEvent): string {
    return (this.options.prefix ?? DEFAULT_SIGNALLED_EVENT_KEY_PREFIX) + digest(event);
  }

  private call<T>(call: Promise<T>): Promise<T> {
    return withRedisDeadline(call, this.options.timeoutMs ?? REDIS_CALL_TIMEOUT_MS);
  }
}
