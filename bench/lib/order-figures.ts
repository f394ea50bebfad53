/** Arithmetic of `npm run bench:orders`'s floor figures (bench/README.md), apart so that it can be tested. */
import { median } from './table';

/** CPU seconds used so far, by process name (bench/lib/load.ts `cpuSeconds`; NaN where /proc cannot tell). */
export type CpuSnapshot = Record<string, number>;

/**
 * What order creation adds to the engine's floor: the broker's create p50 less the p50 of an
 * update-with-start that runs no activity and the p50 of the provider's own create, each measured
 * one at a time in the same run. NaN when any of them is missing.
 */
export function createOverFloorMs(createP50Ms: number, floorP50Ms: number, providerCreateP50Ms: number): number {
  return createP50Ms - (floorP50Ms + providerCreateP50Ms);
}

/** CPU seconds each process used between two snapshots (the names of `before`). */
export function cpuDelta(before: CpuSnapshot, after: CpuSnapshot): CpuSnapshot {
  return Object.fromEntries(Object.keys(before).map((name) => [name, (after[name] ?? NaN) - before[name]!]));
}

/**
 * Milliseconds of CPU per unit (a lifecycle) of each process over several measured runs: the
 * runs' deltas summed, divided by the units the runs did together.
 */
export function cpuMsPerUnit(deltas: CpuSnapshot[], units: number): CpuSnapshot {
  const names = [...new Set(deltas.flatMap((d) => Object.keys(d)))];
  return Object.fromEntries(
    names.map((name) => [name, units > 0 ? (deltas.reduce((sum, d) => sum + (d[name] ?? NaN), 0) * 1000) / units : NaN]),
  );
}

/** a ÷ b, or NaN when either is missing or b is 0 (so that a JSON figure is null, never Infinity). */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : NaN;
}

/**
 * Each round's a ÷ b (the broker's lifecycles/s over the baseline's or the floor's in the same
 * round, run next to each other), and their median: the other work on the machine moves both sides
 * of a round alike, where a ratio of medians would set one round's machine against another's.
 */
export function roundRatios(a: number[], b: number[]): { ratios: number[]; median: number } {
  const ratios = a.map((value, i) => ratio(value, b[i] ?? NaN));
  return { ratios, median: ratios.length > 0 ? median(ratios) : NaN };
}
