import type { LevelCounters } from './decay';
import { splitIntegratorKey } from './levels';

/**
 * Every level's counters (src/ranking/levels.ts keys), as a stats store holds them at one moment:
 * the shared levels (all integrators' orders), and each integrator's own levels under its id.
 */
export interface StatsSnapshot {
  levels: ReadonlyMap<string, LevelCounters>;
  integrators: ReadonlyMap<string, ReadonlyMap<string, LevelCounters>>;
}

export const EMPTY_SNAPSHOT: StatsSnapshot = { levels: new Map(), integrators: new Map() };

/** A snapshot of stored levels (shared and integrator keys alike), the integrator keys sorted under their integrator. */
export function snapshotOf(entries: Iterable<readonly [string, LevelCounters]>): StatsSnapshot {
  const levels = new Map<string, LevelCounters>();
  const integrators = new Map<string, Map<string, LevelCounters>>();
  for (const [key, counters] of entries) {
    const split = splitIntegratorKey(key);
    if (!split) {
      levels.set(key, counters);
      continue;
    }
    let own = integrators.get(split.integratorId);
    if (!own) {
      own = new Map<string, LevelCounters>();
      integrators.set(split.integratorId, own);
    }
    own.set(split.levelKey, counters);
  }
  return { levels, integrators };
}
