import { createHash } from 'node:crypto';
import type { Logger } from '../logging';
import type { RedisClient } from '../redis/connection';
import { DEFAULT_REDIS_CALL_TIMEOUT_MS, withRedisDeadline } from '../redis/deadline';
import { matches, MAX_OFFERS_PER_KEY, offerKey, type LiveOfferQuery, type OfferStore, type OfferTerms } from './store';

export const DEFAULT_OFFER_KEY_PREFIX = 'onramp:offer:';

/**
 * The offer store could not be reached. The API answers 503 `service_unavailable` (src/api/problem.ts):
 * an offer that cannot be remembered could not be ordered, and an order cannot be checked against its offer.
 */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The offer store is unavailable; try again in a few seconds.', { cause });
    this.name = 'StoreUnavailableError';
  }
}

export interface RedisOfferStoreOptions {
  /** The clock offers are judged by; Date.now by default (tests move it). */
  now?: () => number;
  /** Prepended to every key; `onramp:offer:` by default. */
  prefix?: string;
  /** Where a failed Redis call is logged before StoreUnavailableError is thrown. */
  logger?: Logger;
  /** How long one call may wait for Redis before the store counts as unavailable (ms); 2000 by default. */
  timeoutMs?: number;
}

/**
 * One list per offer key (src/offers/store.ts `offerKey`), oldest first, each element
 * `<expiry in epoch ms>|<OfferTerms as JSON>`. Atomically: drop the expired elements, append the
 * new offer when it is still live, and set the key to expire (PEXPIREAT) at the latest expiry left,
 * so Redis itself forgets a key once all its offers have expired.
 *
 * Only the newest ARGV[4] elements are kept (MAX_OFFERS_PER_KEY).
 *
 * KEYS[1] key; ARGV[1] now (ms); ARGV[2] the new offer's expiry (ms); ARGV[3] the element; ARGV[4] the cap.
 * Returns the number of live offers under the key.
 */
const REMEMBER_SCRIPT = `
local now = tonumber(ARGV[1])
local expiry = tonumber(ARGV[2])
local latest = 0
for _, item in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local e = tonumber(string.match(item, '^(%d+)|'))
  if e == nil or e <= now then
    redis.call('LREM', KEYS[1], 1, item)
  elseif e > latest then
    latest = e
  end
end
if expiry > now then
  redis.call('RPUSH', KEYS[1], ARGV[3])
  redis.call('LTRIM', KEYS[1], -tonumber(ARGV[4]), -1)
  if expiry > latest then latest = expiry end
end
if latest > 0 and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', latest))
end
return redis.call('LLEN', KEYS[1])
`;
const REMEMBER_SHA = createHash('sha1').update(REMEMBER_SCRIPT).digest('hex');

/**
 * The offer store in Redis, shared by every API process: same interface and same matching as
 * MemoryOfferStore (offers under one key are kept in the order they were remembered and the first
 * live match wins). Redis being unreachable is a StoreUnavailableError, never a missing offer.
 */
export class RedisOfferStore implements OfferStore {
  private readonly now: () => number;
  private readonly prefix: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: RedisOfferStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.prefix = options.prefix ?? DEFAULT_OFFER_KEY_PREFIX;
  }

  /** The Redis key holding the offers that `terms` would be found under. */
  keyOf(terms: Parameters<typeof offerKey>[0]): string {
    return this.prefix + offerKey(terms);
  }

  async remember(terms: OfferTerms): Promise<void> {
    const expiry = Date.parse(terms.expiresAt);
    const element = `${expiry}|${JSON.stringify(terms)}`;
    const args = { keys: [this.keyOf(terms)], arguments: [String(this.now()), String(expiry), element, String(MAX_OFFERS_PER_KEY)] };
    await this.call('remember', async () => {
      try {
        await this.redis.evalSha(REMEMBER_SHA, args);
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
        await this.redis.eval(REMEMBER_SCRIPT, args);
      }
    });
  }

  async findLive(query: LiveOfferQuery): Promise<OfferTerms | undefined> {
    const items = await this.call('findLive', () => this.redis.lRange(this.keyOf(query), 0, -1));
    const now = this.now();
    for (const item of items) {
      const offer = parseElement(item);
      if (offer && matches(offer, query, now)) return offer;
    }
    return undefined;
  }

  private async call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await withRedisDeadline(fn(), this.options.timeoutMs ?? DEFAULT_REDIS_CALL_TIMEOUT_MS);
    } catch (err) {
      this.options.logger?.error({ err, operation }, 'offer store: Redis call failed');
      throw new StoreUnavailableError(err);
    }
  }
}

function parseElement(item: string): OfferTerms | undefined {
  const bar = item.indexOf('|');
  if (bar < 0) return undefined;
  try {
    return JSON.parse(item.slice(bar + 1)) as OfferTerms;
  } catch {
    return undefined;
  }
}
