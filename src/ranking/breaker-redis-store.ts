import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/connection';
import { DEFAULT_REDIS_CALL_TIMEOUT_MS, withRedisDeadline } from '../redis/deadline';
import type { BreakerStore } from './breaker-store';
import type { Admission, BreakerRecord, BreakerSettings, BreakerState, CreationResult, Step, Transition } from './provider-breaker';

export const DEFAULT_BREAKER_KEY_PREFIX = 'onramp:breaker:';

/** How long a breaker nobody touches is kept (a closed window of old creations is forgotten after a day). */
const IDLE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * One step of one provider's breaker, the rules of ./provider-breaker.ts (`current`, then `admit`
 * or `settle`) in Lua so that every API process moves the same breaker atomically. One hash per
 * provider: `s` the state (c closed, o open, h half-open), `w` the closed window, `u` when the open
 * time ends (ms), `p` the probes in flight as `id=leaseEnd;...`. Each write sets the key to expire
 * after ARGV[11] ms, so a breaker nobody uses is forgotten.
 *
 * KEYS[1] the provider's key. ARGV: 1 `admit` or `settle`; 2 now (ms); 3 the probe id ('' none);
 * 4 the creation's result (settle); 5 failures; 6 failure rate; 7 window; 8 open ms; 9 probes;
 * 10 probe lease ms; 11 retention ms.
 * Returns { s, w, u, p, verdict (admitted|probe|refused, '' for settle), retryAt, transitions as `ch,ho` }.
 */
const STEP_SCRIPT = `
local key = KEYS[1]
local op, now, id, result = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4]
local failures, rate, size = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local openMs, probesMax, lease, retain = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
local f = redis.call('HMGET', key, 's', 'w', 'u', 'p')
local s, w, u = f[1] or 'c', f[2] or '', tonumber(f[3] or '0')
local probes = {}
if s == 'h' then
  for pid, l in string.gmatch(f[4] or '', '([^=;]+)=(%d+)') do
    if tonumber(l) > now then probes[#probes + 1] = {pid, tonumber(l)} end
  end
end
local transitions = {}
local function move(to)
  if to ~= s then transitions[#transitions + 1] = s .. to end
  s = to
end
if s == 'o' and now >= u then move('h') probes = {} end
local function probeAt(pid)
  for i, probe in ipairs(probes) do if probe[1] == pid then return i end end
  return nil
end
local verdict, retryAt = '', 0
if op == 'admit' then
  if s == 'c' then verdict = 'admitted'
  elseif s == 'o' then verdict, retryAt = 'refused', u
  elseif #probes >= probesMax then
    verdict, retryAt = 'refused', probes[1][2]
    for _, probe in ipairs(probes) do if probe[2] < retryAt then retryAt = probe[2] end end
  else
    probes[#probes + 1] = {id, now + lease}
    verdict = 'probe'
  end
elseif s == 'h' then
  local at = probeAt(id)
  if at ~= nil then
    if result == 'ignored' then table.remove(probes, at)
    elseif result == 'success' then move('c') w = '' probes = {}
    else move('o') u = now + openMs probes = {} end
  end
elseif s == 'c' and result ~= 'ignored' then
  w = string.sub(w .. (result == 'failure' and '1' or '0'), -size)
  local _, failed = string.gsub(w, '1', '')
  local run = #w >= failures and string.sub(w, -failures) == string.rep('1', failures)
  if failures > 0 and failed >= failures and (failed >= rate * #w or run) then move('o') u = now + openMs w = '' end
end
local encoded = {}
for _, probe in ipairs(probes) do encoded[#encoded + 1] = probe[1] .. '=' .. string.format('%.0f', probe[2]) end
local p = table.concat(encoded, ';')
local untilText = string.format('%.0f', u)
if s == 'c' then
  redis.call('HSET', key, 's', 'c', 'w', w)
  redis.call('HDEL', key, 'u', 'p')
elseif s == 'o' then
  redis.call('HSET', key, 's', 'o', 'u', untilText)
  redis.call('HDEL', key, 'w', 'p')
else
  redis.call('HSET', key, 's', 'h', 'p', p)
  redis.call('HDEL', key, 'w', 'u')
end
redis.call('PEXPIRE', key, retain)
return { s, w, untilText, p, verdict, string.format('%.0f', retryAt), table.concat(transitions, ',') }
`;
const STEP_SHA = createHash('sha1').update(STEP_SCRIPT).digest('hex');

const STATE_OF: Record<string, BreakerState> = { c: 'closed', o: 'open', h: 'half_open' };

export interface RedisBreakerStoreOptions {
  /** Prepended to every key; `onramp:breaker:` by default. */
  prefix?: string;
  /** How long one call may wait for Redis (ms); 2000 by default. */
  timeoutMs?: number;
}

/** The providers' breakers in Redis, shared by every API process; each step one script, atomic. */
export class RedisBreakerStore implements BreakerStore {
  private readonly prefix: string;
  private readonly retentionMs: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly settings: BreakerSettings,
    private readonly options: RedisBreakerStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? DEFAULT_BREAKER_KEY_PREFIX;
    this.retentionMs = Math.max(IDLE_RETENTION_MS, 2 * (settings.openMs + settings.probeLeaseMs));
  }

  async admit(provider: string, now: number, probeId: string): Promise<Step<Admission>> {
    const [record, verdict, retryAt, transitions] = await this.step(provider, ['admit', String(now), probeId, '']);
    const result: Admission =
      verdict === 'refused'
        ? { admitted: false, state: record.state === 'open' ? 'open' : 'half_open', retryAt }
        : { admitted: true, probe: verdict === 'probe' };
    return { record, transitions, result };
  }

  async settle(provider: string, now: number, result: CreationResult, probeId: string | undefined): Promise<Step> {
    const [record, , , transitions] = await this.step(provider, ['settle', String(now), probeId ?? '', result]);
    return { record, transitions, result: undefined };
  }

  async read(providers: readonly string[]): Promise<Map<string, BreakerRecord>> {
    const fields = await withRedisDeadline(
      Promise.all(providers.map((p) => this.redis.hGetAll(this.prefix + p))),
      this.options.timeoutMs ?? DEFAULT_REDIS_CALL_TIMEOUT_MS,
    );
    return new Map(providers.map((p, i) => [p, recordOf(fields[i]!)]));
  }

  private async step(provider: string, head: string[]): Promise<[BreakerRecord, string, number, Transition[]]> {
    const { failures, failureRate, window, openMs, probes, probeLeaseMs } = this.settings;
    const args = {
      keys: [this.prefix + provider],
      arguments: [
        ...head,
        String(failures),
        String(failureRate),
        String(window),
        String(openMs),
        String(probes),
        String(probeLeaseMs),
        String(this.retentionMs),
      ],
    };
    const run = async (): Promise<unknown> => {
      try {
        return await this.redis.evalSha(STEP_SHA, args);
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
        return this.redis.eval(STEP_SCRIPT, args);
      }
    };
    const [s, w, u, p, verdict, retryAt, transitions] = (await withRedisDeadline(
      run(),
      this.options.timeoutMs ?? DEFAULT_REDIS_CALL_TIMEOUT_MS,
    )) as string[];
    return [
      recordOf({ s: s!, w: w!, u: u!, p: p! }),
      verdict!,
      Number(retryAt),
      transitions ? transitions.split(',').map((t) => ({ from: STATE_OF[t[0]!]!, to: STATE_OF[t[1]!]! })) : [],
    ];
  }
}

/** A breaker's hash as a record; an empty hash (none kept) is a closed breaker with no history. */
function recordOf(fields: Record<string, string>): BreakerRecord {
  if (fields.s === 'o') return { state: 'open', until: Number(fields.u) };
  if (fields.s === 'h') {
    const probes: Record<string, number> = {};
    for (const entry of (fields.p ?? '').split(';')) {
      const [id, leaseEnd] = entry.split('=');
      if (id && leaseEnd) probes[id] = Number(leaseEnd);
    }
    return { state: 'half_open', probes };
  }
  return { state: 'closed', window: fields.w ?? '' };
}
