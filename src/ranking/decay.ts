/**
 * Exponentially decayed counters. A counter is a value as of a moment (`atMs`); at any later moment
 * it is worth `value * 2^(-(now - atMs) / halfLife)`, so an order a half-life old counts half.
 * Folding a weight in at `t >= atMs` decays the value to `t` and adds the weight there; a weight
 * that arrives late (`t < atMs`, an outcome folded out of order) is decayed to `atMs` instead and
 * added there, which gives the same values as folding everything in order.
 */

/** How much a weight `elapsedMs` old still counts; never above 1 (a clock behind `atMs` reads the stored value). */
export function decayFactor(elapsedMs: number, halfLifeMs: number): number {
  return elapsedMs <= 0 ? 1 : 2 ** (-elapsedMs / halfLifeMs);
}

export interface DecayedCounter {
  value: number;
  atMs: number;
}

/** The counter's value at `nowMs`. */
export function valueAt(counter: DecayedCounter | undefined, nowMs: number, halfLifeMs: number): number {
  return counter ? counter.value * decayFactor(nowMs - counter.atMs, halfLifeMs) : 0;
}

/** The counter with `weight` added at `tMs` (in order or not). */
export function addAt(counter: DecayedCounter | undefined, weight: number, tMs: number, halfLifeMs: number): DecayedCounter {
  if (!counter) return { value: weight, atMs: tMs };
  if (tMs >= counter.atMs) return { value: counter.value * decayFactor(tMs - counter.atMs, halfLifeMs) + weight, atMs: tMs };
  return { value: counter.value + weight * decayFactor(counter.atMs - tMs, halfLifeMs), atMs: counter.atMs };
}

/**
 * The counters of one level (src/ranking/levels.ts), decayed together: they share `atMs`, since
 * every outcome adds to `attempts`. `completeMsSum` sums the time to complete of the `timed`
 * completed orders (those whose time is known), for the mean time to complete.
 */
export interface LevelCounters {
  atMs: number;
  /** Every outcome: completed, not completed and refused. */
  attempts: number;
  completed: number;
  /** Refused by the provider at creation. */
  refused: number;
  completeMsSum: number;
  timed: number;
}

/** What one outcome adds to each counter of a level. */
export type LevelWeights = Omit<LevelCounters, 'atMs'>;

export const COUNTER_NAMES = [
  'attempts',
  'completed',
  'refused',
  'completeMsSum',
  'timed',
] as const satisfies readonly (keyof LevelWeights)[];

/** The level's counters with `weights` folded in at `tMs`, as `addAt` does for each one. */
export function foldAt(counters: LevelCounters | undefined, weights: LevelWeights, tMs: number, halfLifeMs: number): LevelCounters {
  if (!counters) return { atMs: tMs, ...weights };
  const late = tMs < counters.atMs;
  const old = late ? 1 : decayFactor(tMs - counters.atMs, halfLifeMs);
  const added = late ? decayFactor(counters.atMs - tMs, halfLifeMs) : 1;
  const folded = { atMs: late ? counters.atMs : tMs } as LevelCounters;
  for (const name of COUNTER_NAMES) folded[name] = counters[name] * old + weights[name] * added;
  return folded;
}

/** The level's counters as they stand at `nowMs` (atMs becomes `nowMs` when later). */
export function countersAt(counters: LevelCounters, nowMs: number, halfLifeMs: number): LevelCounters {
  if (nowMs <= counters.atMs) return counters;
  const factor = decayFactor(nowMs - counters.atMs, halfLifeMs);
  const decayed = { atMs: nowMs } as LevelCounters;
  for (const name of COUNTER_NAMES) decayed[name] = counters[name] * factor;
  return decayed;
}
