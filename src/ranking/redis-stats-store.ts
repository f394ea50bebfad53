import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/connection';
import { DEFAULT_REDIS_CALL_TIMEOUT_MS, withRedisDeadline } from '../redis/deadline';
import { COUNTER_NAMES, type LevelCounters } from './decay';
import { completionId, completionWeights, outcomeLevelKeys, outcomeWeights } from './fold';
import type { OrderOutcome } from './outcome';
import { snapshotOf, type StatsSnapshot } from './snapshot';
import { dedupeRetentionMs, type OutcomeStatsStore, type OutcomeStatsStoreOptions } from './stats-store';

export const DEFAULT_RANKING_KEY_PREFIX = 'onramp:ranking:';

export interface RedisOutcomeStatsStoreOptions extends OutcomeStatsStoreOptions {
  /** Prepended to every key; `onramp:ranking:` by default. */
  prefix?: string;
  /** How long one call may wait for Redis before it fails (ms); 2000 by default. */
  timeoutMs?: number;
}

/**
 * Atomically: forget the folded run ids older than the retention, add this run id (score: now),
 * and when it was not there fold the outcome into each level's counters as src/ranking/decay.ts
 * `foldAt` does. A level is one field of the levels hash, `atMs,attempts,completed,refused,
 * completeMsSum,timed` (COUNTER_NAMES order); the shared levels and the integrator's (fold.ts
 * `outcomeLevelKeys`) are fields of the same hash.
 *
 * KEYS[1] the folded run ids (sorted set); KEYS[2] the levels (hash).
 * ARGV[1] run id; ARGV[2] now (ms); ARGV[3] retention (ms); ARGV[4] half-life (ms); ARGV[5] the
 * outcome's time (ms); ARGV[6..10] its weights; ARGV[11] its completion id ('' unless complete);
 * ARGV[12..16] the weights of a completion alone; ARGV[17..] its level keys.
 * Returns 1 when folded, 0 when there was nothing new (fold.ts `weightsToFold`).
 */
const RECORD_SCRIPT = `
local now = tonumber(ARGV[2])
local stamp = string.format('%.0f', now)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. string.format('%.0f', now - tonumber(ARGV[3])))
local first = redis.call('ZADD', KEYS[1], 'NX', stamp, ARGV[1])
local w = 6
if ARGV[11] ~= '' then
  if redis.call('ZADD', KEYS[1], 'NX', stamp, ARGV[11]) == 0 then return 0 end
  if first == 0 then w = 12 end
elseif first == 0 then
  return 0
end
local halfLife = tonumber(ARGV[4])
local t = tonumber(ARGV[5])
local weights = { tonumber(ARGV[w]), tonumber(ARGV[w + 1]), tonumber(ARGV[w + 2]), tonumber(ARGV[w + 3]), tonumber(ARGV[w + 4]) }
for i = 17, #ARGV do
  local stored = redis.call('HGET', KEYS[2], ARGV[i])
  local at = t
  local counters = weights
  if stored then
    local parts = {}
    for part in string.gmatch(stored, '[^,]+') do parts[#parts + 1] = tonumber(part) end
    at = parts[1]
    local old, added = 1, 1
    if t >= at then
      old = 2 ^ (-(t - at) / halfLife)
      at = t
    else
      added = 2 ^ (-(at - t) / halfLife)
    end
    counters = {}
    for j = 1, 5 do counters[j] = (parts[j + 1] or 0) * old + weights[j] * added end
  end
  redis.call('HSET', KEYS[2], ARGV[i], string.format('%.0f,%.17g,%.17g,%.17g,%.17g,%.17g', at, counters[1], counters[2], counters[3], counters[4], counters[5]))
end
return 1
`;
const RECORD_SHA = createHash('sha1').update(RECORD_SCRIPT).digest('hex');

const FIELD_PARTS = COUNTER_NAMES.length + 1;
const parts = new Array<number>(FIELD_PARTS);

/**
 * A levels-hash field back into counters; undefined when it is not one. Every field is parsed on
 * each refresh of every API process (one per integrator and market): scanned by hand, without
 * the arrays and closures of split/map, which cost three times as much.
 */
export function parseLevel(field: string): LevelCounters | undefined {
  let start = 0;
  for (let i = 0; i < FIELD_PARTS; i++) {
    const comma = field.indexOf(',', start);
    const last = i === FIELD_PARTS - 1;
    if (last !== (comma === -1)) return undefined;
    const value = Number(field.slice(start, last ? field.length : comma));
    if (!Number.isFinite(value) || start === (last ? field.length : comma)) return undefined;
    parts[i] = value;
    start = comma + 1;
  }
  // COUNTER_NAMES order after atMs.
  return { atMs: parts[0]!, attempts: parts[1]!, completed: parts[2]!, refused: parts[3]!, completeMsSum: parts[4]!, timed: parts[5]! };
}

/**
 * The outcome statistics in Redis, shared by every process: a hash of the levels' counters, a
 * sorted set of the folded run ids and the indexer's cursor, under one prefix. Folding and the
 * run-id check are one Lua script, so two processes recording the same run fold it once. Redis
 * failures are thrown (with the call's deadline); the callers retry or keep their last snapshot.
 */
export class RedisOutcomeStatsStore implements OutcomeStatsStore {
  private readonly now: () => number;
  private readonly prefix: string;
  private readonly retentionMs: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: RedisOutcomeStatsStoreOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.prefix = options.prefix ?? DEFAULT_RANKING_KEY_PREFIX;
    this.retentionMs = dedupeRetentionMs(options.halfLifeMs);
  }

  get keys(): { runs: string; levels: string; cursor: string } {
    return { runs: `${this.prefix}runs`, levels: `${this.prefix}levels`, cursor: `${this.prefix}cursor` };
  }

  async record(outcome: OrderOutcome): Promise<boolean> {
    const weights = outcomeWeights(outcome);
    const completion = completionWeights(outcome);
    const args = {
      keys: [this.keys.runs, this.keys.levels],
      arguments: [
        outcome.runId,
        String(this.now()),
        String(this.retentionMs),
        String(this.options.halfLifeMs),
        String(outcome.finishedAtMs),
        ...COUNTER_NAMES.map((name) => String(weights[name])),
        outcome.kind === 'complete' ? completionId(outcome.runId) : '',
        ...COUNTER_NAMES.map((name) => String(completion[name])),
        ...outcomeLevelKeys(outcome),
      ],
    };
    const folded = await this.call(async () => {
      try {
        return await this.redis.evalSha(RECORD_SHA, args);
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
        return this.redis.eval(RECORD_SCRIPT, args);
      }
    });
    return folded === 1;
  }

  async snapshot(): Promise<StatsSnapshot> {
    const fields = await this.call(() => this.redis.hGetAll(this.keys.levels));
    const levels: [string, LevelCounters][] = [];
    for (const [key, field] of Object.entries(fields)) {
      const counters = parseLevel(field);
      if (counters) levels.push([key, counters]);
    }
    return snapshotOf(levels);
  }

  async getCursor(): Promise<number | undefined> {
    const value = await this.call(() => this.redis.get(this.keys.cursor));
    const ms = value === null ? NaN : Number(value);
    return Number.isFinite(ms) ? ms : undefined;
  }

  async setCursor(ms: number): Promise<void> {
    await this.call(() => this.redis.set(this.keys.cursor, String(ms)));
  }

  private call<T>(fn: () => Promise<T>): Promise<T> {
    return withRedisDeadline(fn(), this.options.timeoutMs ?? DEFAULT_REDIS_CALL_TIMEOUT_MS);
  }
}
