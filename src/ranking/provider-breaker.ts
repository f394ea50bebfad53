/**
 * One provider's circuit breaker, as pure functions of its record and the time (the clock is the
 * caller's): closed while its order creations succeed; open, so that it is left out of offers and
 * its orders are refused, once enough of its recent creations failed; half-open once the open time
 * is over, when a few orders at a time are let through as probes; closed again by a probe that
 * succeeds, open again by one that fails. The Redis store runs the same rules in Lua
 * (./breaker-redis-store.ts); test/unit/ranking/breaker-store.test.ts holds both to the same cases.
 */
import { z } from 'zod';

export const BreakerSettingsSchema = z.object({
  /** Failures among the window needed to open; 0 turns the breaker off. */
  failures: z.number().int().min(0),
  /** ...and their share of the window's creations at least this (0 < rate <= 1). */
  failureRate: z.number().gt(0).max(1),
  /** The last this many creations are the window. */
  window: z.number().int().min(1),
  /** How long the breaker stays open before it lets probes through. */
  openMs: z.number().int().min(1),
  /** Orders let through at a time while half-open. */
  probes: z.number().int().min(1),
  /** How long a probe holds its place without an outcome (a process that died with it in flight). */
  probeLeaseMs: z.number().int().min(1),
});
export type BreakerSettings = z.infer<typeof BreakerSettingsSchema>;

export type BreakerState = 'closed' | 'half_open' | 'open';

/**
 * What is kept of one provider's breaker. `window` is the closed breaker's last creations, oldest
 * first, `1` a failure and `0` a success. An `open` record whose time is over is half-open with no
 * probe in flight (`current`). `probes` maps each probe in flight to the end of its lease.
 */
export type BreakerRecord =
  { state: 'closed'; window: string } | { state: 'open'; until: number } | { state: 'half_open'; probes: Record<string, number> };

export const CLOSED: BreakerRecord = Object.freeze({ state: 'closed', window: '' });

/** What a creation's outcome says of its provider: `ignored` frees a probe's place without a verdict. */
export type CreationResult = 'success' | 'failure' | 'ignored';

export interface Transition {
  from: BreakerState;
  to: BreakerState;
}

export type Admission =
  | { admitted: true; probe: boolean }
  /** `retryAt`: when the breaker half-opens (open), or when the earliest probe's lease ends (half-open, every place taken). */
  | { admitted: false; state: 'open' | 'half_open'; retryAt: number };

export interface Step<T = undefined> {
  record: BreakerRecord;
  /** The changes of state this step made, in order: an open breaker whose time is over moves to half-open first. */
  transitions: Transition[];
  result: T;
}

/** The gauge value of a state: 0 closed, 1 half-open, 2 open. */
export const STATE_VALUE: Record<BreakerState, number> = { closed: 0, half_open: 1, open: 2 };

/** The record as it stands at `now`: an open breaker whose time is over is half-open, and expired probes are gone. */
export function current(record: BreakerRecord, now: number): BreakerRecord {
  if (record.state === 'open') return now >= record.until ? { state: 'half_open', probes: {} } : record;
  if (record.state !== 'half_open') return record;
  const probes = Object.fromEntries(Object.entries(record.probes).filter(([, leaseEnd]) => leaseEnd > now));
  return Object.keys(probes).length === Object.keys(record.probes).length ? record : { state: 'half_open', probes };
}

/** Whether an order for the provider may go ahead now; a half-open breaker takes `probeId` as a probe when it has room. */
export function admit(record: BreakerRecord, now: number, probeId: string, settings: BreakerSettings): Step<Admission> {
  const at = current(record, now);
  const transitions = changes(record, at);
  if (at.state === 'closed') return { record: at, transitions, result: { admitted: true, probe: false } };
  if (at.state === 'open') return { record: at, transitions, result: { admitted: false, state: 'open', retryAt: at.until } };
  const leases = Object.values(at.probes);
  if (leases.length >= settings.probes) {
    return { record: at, transitions, result: { admitted: false, state: 'half_open', retryAt: Math.min(...leases) } };
  }
  return {
    record: { state: 'half_open', probes: { ...at.probes, [probeId]: now + settings.probeLeaseMs } },
    transitions,
    result: { admitted: true, probe: true },
  };
}

/**
 * A creation's outcome. Closed: it joins the window, and the breaker opens when the window holds at
 * least `failures` failures making at least `failureRate` of it, or ends in `failures` failures in a
 * row. Half-open: only a probe's outcome
 * counts (a success closes, a failure opens again); anything else is ignored, as every outcome is
 * while open (creations that began before it opened).
 */
export function settle(
  record: BreakerRecord,
  now: number,
  result: CreationResult,
  probeId: string | undefined,
  settings: BreakerSettings,
): Step {
  const at = current(record, now);
  const step = (next: BreakerRecord): Step => ({
    record: next,
    transitions: [...changes(record, at), ...changes(at, next)],
    result: undefined,
  });
  if (at.state === 'open' || result === 'ignored') {
    if (at.state !== 'half_open' || probeId === undefined || !(probeId in at.probes)) return step(at);
    const { [probeId]: _freed, ...probes } = at.probes;
    return step({ state: 'half_open', probes });
  }
  if (at.state === 'half_open') {
    if (probeId === undefined || !(probeId in at.probes)) return step(at);
    return step(result === 'success' ? CLOSED : { state: 'open', until: now + settings.openMs });
  }
  const window = (at.window + (result === 'failure' ? '1' : '0')).slice(-settings.window);
  const failed = countFailures(window);
  if (
    settings.failures > 0 &&
    failed >= settings.failures &&
    (failed >= settings.failureRate * window.length || endsInRun(window, settings.failures))
  ) {
    return step({ state: 'open', until: now + settings.openMs });
  }
  return step({ state: 'closed', window });
}

/**
 * Whether the window's last `length` creations all failed. A provider that goes down after a long
 * healthy spell has a window full of successes: by the share alone it would take half the window's
 * failures to open, and ranking, which moves customers away from a provider whose creations fail,
 * may never send it that many.
 */
function endsInRun(window: string, length: number): boolean {
  if (window.length < length) return false;
  for (let i = window.length - length; i < window.length; i++) if (window.charCodeAt(i) !== 49 /* '1' */) return false;
  return true;
}

function countFailures(window: string): number {
  let failed = 0;
  for (let i = 0; i < window.length; i++) if (window.charCodeAt(i) === 49 /* '1' */) failed++;
  return failed;
}

/** The change of state from one record to the next: none, or one. */
function changes(before: BreakerRecord, after: BreakerRecord): Transition[] {
  return before.state === after.state ? [] : [{ from: before.state, to: after.state }];
}
