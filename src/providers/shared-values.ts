import type { RedisClient } from '../redis/connection';

/**
 * Small values an adapter shares between the broker's processes (the API and the workers), such as
 * a provider's current access token where issuing a new one revokes the old.
 */
export interface SharedValues {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

/** Shared values in Redis (REDIS_URL), under `onramp:provider:`. */
export class RedisSharedValues implements SharedValues {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'onramp:provider:',
  ) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(this.prefix + key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, { PX: Math.max(1, Math.round(ttlMs)) });
  }
}
