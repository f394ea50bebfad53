import { countersAt, type LevelCounters } from './decay';
import { levelsOf, type Level } from './levels';

/** Where the `*` level's completion rate is pulled to: what an order is assumed to do with no history at all. */
export const PRIOR_COMPLETION_RATE = 0.8;
/** Where the `*` level's refused share is pulled to. */
export const PRIOR_REFUSED_SHARE = 0.05;

export interface EstimateSettings {
  halfLifeMs: number;
  /** K: how many orders' worth of weight the parent level's rate has in a level's estimate. */
  priorWeight: number;
}

/** The level counters by key, as a stats snapshot holds them. */
export type LevelLookup = (key: string) => LevelCounters | undefined;

/** One level's counters at the estimate's moment, with its smoothed rates. */
export interface LevelEstimate extends Level {
  /** Decayed orders at this level (0 when it has none). */
  attempts: number;
  completionRate: number;
  refusedShare: number;
}

export interface CompletionEstimate {
  /** The chance an order started now completes: (1 - refused share) x completion rate, both smoothed. */
  p: number;
  /** The share of created (not refused) orders that complete, smoothed. */
  completionRate: number;
  /** The share of orders the provider refused at creation, smoothed. */
  refusedShare: number;
  /** The decayed orders (rounded) of the most specific of the provider's own levels that has any; 0 when none. */
  samples: number;
  /** That level, when there is one. */
  samplesLevel?: LevelEstimate;
  /** The mean time to complete (ms) at the most specific of the provider's levels that timed any; undefined when none. */
  meanCompleteMs?: number;
  /** The levels considered, most specific first (the last is `*`). */
  levels: LevelEstimate[];
}

/** `(count + K * parent) / (total + K)`; the parent's rate when there is nothing to weigh. */
export function smoothed(count: number, total: number, parentRate: number, priorWeight: number): number {
  const weight = total + priorWeight;
  // Exactly the parent's with nothing to weigh (an integrator with no orders reads the shared estimate as it is).
  if (total <= 0 || weight <= 0) return parentRate;
  return Math.min(1, Math.max(0, (count + priorWeight * parentRate) / weight));
}

/**
 * The completion estimate for an order with `providerCode` in `country` paid by `paymentMethod`:
 * each level's rates are smoothed toward its parent's, from `*` (toward the fixed priors) down to
 * the most specific level, so a level with few orders reads mostly as the wider one above it.
 * The completion rate counts created orders (attempts - refused), the refused share all attempts.
 */
export function estimateCompletion(
  lookup: LevelLookup,
  providerCode: string,
  country: string | undefined,
  paymentMethod: string | undefined,
  nowMs: number,
  settings: EstimateSettings,
): CompletionEstimate {
  const levels = levelsOf(providerCode, country, paymentMethod);
  const estimates: LevelEstimate[] = new Array<LevelEstimate>(levels.length);
  let completionRate = PRIOR_COMPLETION_RATE;
  let refusedShare = PRIOR_REFUSED_SHARE;
  let samplesLevel: LevelEstimate | undefined;
  let meanCompleteMs: number | undefined;
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    const stored = lookup(level.key);
    const counters = stored ? countersAt(stored, nowMs, settings.halfLifeMs) : undefined;
    const attempts = counters?.attempts ?? 0;
    const refused = Math.min(counters?.refused ?? 0, attempts);
    completionRate = smoothed(counters?.completed ?? 0, attempts - refused, completionRate, settings.priorWeight);
    refusedShare = smoothed(refused, attempts, refusedShare, settings.priorWeight);
    const estimate: LevelEstimate = { key: level.key, kind: level.kind, attempts, completionRate, refusedShare };
    estimates[i] = estimate;
    if (level.kind === 'all') continue;
    // Walking toward the most specific level, so the last one found wins.
    if (attempts >= 0.5) samplesLevel = estimate;
    if (counters && counters.timed >= 0.5) meanCompleteMs = counters.completeMsSum / counters.timed;
  }
  // Built field by field: object spreads here cost more than the rest of the estimate (offers path).
  const result: CompletionEstimate = {
    p: (1 - refusedShare) * completionRate,
    completionRate,
    refusedShare,
    samples: samplesLevel ? Math.round(samplesLevel.attempts) : 0,
    levels: estimates,
  };
  if (samplesLevel) result.samplesLevel = samplesLevel;
  if (meanCompleteMs !== undefined) result.meanCompleteMs = meanCompleteMs;
  return result;
}

/**
 * One integrator's estimate: at the level the shared estimate is made for (its most specific), the
 * integrator's own counters smoothed toward the shared estimate of that level with the same K. An
 * integrator with no orders of its own there reads the shared estimate; one with many, its own rate.
 * `samples` and `ownAttempts` count the integrator's orders only: what it may be told.
 */
export interface IntegratorEstimate {
  p: number;
  completionRate: number;
  refusedShare: number;
  /** The integrator's own decayed orders at the estimate's level. */
  ownAttempts: number;
  /** `ownAttempts` rounded. */
  samples: number;
  /** The estimate from every integrator's orders it leans on (never shown to an integrator as counts). */
  shared: CompletionEstimate;
}

/** `shared` the shared levels, `own` the integrator's (undefined: it has none). */
export function estimateForIntegrator(
  shared: LevelLookup,
  own: LevelLookup | undefined,
  providerCode: string,
  country: string | undefined,
  paymentMethod: string | undefined,
  nowMs: number,
  settings: EstimateSettings,
): IntegratorEstimate {
  const wide = estimateCompletion(shared, providerCode, country, paymentMethod, nowMs, settings);
  const level = wide.levels[0]!;
  const stored = own?.(level.key);
  const counters = stored ? countersAt(stored, nowMs, settings.halfLifeMs) : undefined;
  const attempts = counters?.attempts ?? 0;
  const refused = Math.min(counters?.refused ?? 0, attempts);
  const completionRate = smoothed(counters?.completed ?? 0, attempts - refused, level.completionRate, settings.priorWeight);
  const refusedShare = smoothed(refused, attempts, level.refusedShare, settings.priorWeight);
  return {
    p: (1 - refusedShare) * completionRate,
    completionRate,
    refusedShare,
    ownAttempts: attempts,
    samples: Math.round(attempts),
    shared: wide,
  };
}

/** A returning customer's estimate: `p + (1 - p) * boost` (the boost in [0, 1]; 0 leaves p as it is). */
export function returningCustomerEstimate(p: number, boost: number): number {
  return p + (1 - p) * boost;
}
