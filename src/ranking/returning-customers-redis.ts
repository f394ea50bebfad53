import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/connection';
import { DEFAULT_REDIS_CALL_TIMEOUT_MS, withRedisDeadline } from '../redis/deadline';
import { customerKey } from './customer-key';
import {
  ReturningCustomersUnavailableError,
  TOMBSTONE_MS,
  withinRetention,
  type Completion,
  type ReturningCustomers,
  type ReturningCustomersConfig,
  type ReturningCustomersOptions,
} from './customer-memory';

export const DEFAULT_RETURNING_CUSTOMER_PREFIX = 'onramp:rc:';

/**
 * Records one completion, atomically with the tombstone check. KEYS[1] the customer's hash
 * (provider code → last completion, ms), KEYS[2] its tombstone (deletion time, ms). ARGV[1] the
 * provider code, ARGV[2] the completion's time, ARGV[3] now, ARGV[4] the retention (ms).
 *
 * Nothing happens when the completion finished at or before the tombstone. Otherwise the
 * provider's time becomes the later of the two, providers past the retention are dropped, and the
 * hash expires when its newest completion leaves the retention. Returns 1 when recorded, else 0.
 */
const RECORD_SCRIPT = `
local finished = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local retention = tonumber(ARGV[4])
local deleted = redis.call('GET', KEYS[2])
if deleted and tonumber(deleted) and finished <= tonumber(deleted) then return 0 end
if finished <= now - retention then return 0 end
local known = redis.call('HGET', KEYS[1], ARGV[1])
if not known or not tonumber(known) or finished > tonumber(known) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
local newest = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local at = tonumber(fields[i + 1])
  if at == nil or at <= now - retention then
    redis.call('HDEL', KEYS[1], fields[i])
  elseif at > newest then
    newest = at
  end
end
if newest > 0 then redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', newest + retention)) end
return 1
`;

/**
 * Forgets a customer: deletes its hash and sets its tombstone to the later of now and an earlier
 * tombstone, kept ARGV[2] ms. KEYS as RECORD_SCRIPT; ARGV[1] now.
 */
const FORGET_SCRIPT = `
redis.call('DEL', KEYS[1])
local at = tonumber(ARGV[1])
local before = tonumber(redis.call('GET', KEYS[2]) or '')
if before and before > at then at = before end
redis.call('SET', KEYS[2], string.format('%.0f', at), 'PX', ARGV[2])
return 1
`;

const sha1 = (script: string) => createHash('sha1').update(script).digest('hex');
const SCRIPTS = { record: { text: RECORD_SCRIPT, sha: sha1(RECORD_SCRIPT) }, forget: { text: FORGET_SCRIPT, sha: sha1(FORGET_SCRIPT) } };

/**
 * Returning customers in Redis, shared by every API process and the outcome indexer. Per customer
 * (its keyed hash, in a hash tag so that both keys live in one cluster slot): `<prefix>{hash}:p`,
 * a hash of provider code → last completion (ms), expiring with its newest completion's retention;
 * `<prefix>{hash}:t`, the deletion time, expiring after TOMBSTONE_MS. No integrator or user id is
 * written anywhere. Redis being unreachable is a ReturningCustomersUnavailableError.
 */
export class RedisReturningCustomers implements ReturningCustomers {
  private readonly now: () => number;
  private readonly prefix: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly config: ReturningCustomersConfig,
    private readonly options: ReturningCustomersOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.prefix = options.prefix ?? DEFAULT_RETURNING_CUSTOMER_PREFIX;
  }

  async recordCompletion({ integratorId, externalUserId, providerCode, finishedAtMs }: Completion): Promise<boolean> {
    const now = this.now();
    if (!withinRetention(finishedAtMs, now, this.config.retentionMs)) return false;
    const keys = this.keysOf(integratorId, externalUserId);
    const args = [providerCode, String(finishedAtMs), String(now), String(this.config.retentionMs)];
    return (await this.script('record', keys, args)) === 1;
  }

  async providersOf(integratorId: string, externalUserId: string): Promise<Set<string>> {
    const now = this.now();
    const [providersKey] = this.keysOf(integratorId, externalUserId);
    const providers = await this.call('providersOf', () => this.redis.hGetAll(providersKey));
    return new Set(
      Object.entries(providers)
        .filter(([, at]) => withinRetention(Number(at), now, this.config.retentionMs))
        .map(([code]) => code),
    );
  }

  async forget(integratorId: string, externalUserId: string): Promise<void> {
    await this.script('forget', this.keysOf(integratorId, externalUserId), [String(this.now()), String(TOMBSTONE_MS)]);
  }

  /** The customer's two keys: its providers, its tombstone. */
  keysOf(integratorId: string, externalUserId: string): [string, string] {
    const base = `${this.prefix}{${customerKey(this.config.key, integratorId, externalUserId)}}`;
    return [`${base}:p`, `${base}:t`];
  }

  private script(name: keyof typeof SCRIPTS, keys: string[], args: string[]): Promise<unknown> {
    const { text, sha } = SCRIPTS[name];
    return this.call(name, async () => {
      try {
        return await this.redis.evalSha(sha, { keys, arguments: args });
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
        return await this.redis.eval(text, { keys, arguments: args });
      }
    });
  }

  private async call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await withRedisDeadline(fn(), this.options.timeoutMs ?? DEFAULT_REDIS_CALL_TIMEOUT_MS);
    } catch (err) {
      this.options.logger?.error({ err, operation }, 'returning customers: Redis call failed');
      throw new ReturningCustomersUnavailableError(err);
    }
  }
}
