import type { LevelCounters } from './decay';

/** Every level's counters (src/ranking/levels.ts keys), as a stats store holds them at one moment. */
export interface StatsSnapshot {
  levels: ReadonlyMap<string, LevelCounters>;
}

export const EMPTY_SNAPSHOT: StatsSnapshot = { levels: new Map() };
