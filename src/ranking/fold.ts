import { foldAt, type LevelCounters, type LevelWeights } from './decay';
import { levelsOf } from './levels';
import type { OrderOutcome } from './outcome';

/** What one outcome adds to the counters of each of its levels. */
export function outcomeWeights(outcome: OrderOutcome): LevelWeights {
  const complete = outcome.kind === 'complete';
  const timed = complete && outcome.completeMs !== undefined;
  return {
    attempts: 1,
    completed: complete ? 1 : 0,
    refused: outcome.kind === 'refused' ? 1 : 0,
    completeMsSum: timed ? outcome.completeMs! : 0,
    timed: timed ? 1 : 0,
  };
}

/** The level keys an outcome is folded into, most specific first. */
export function outcomeLevelKeys(outcome: OrderOutcome): string[] {
  return levelsOf(outcome.providerCode, outcome.country, outcome.paymentMethod).map((level) => level.key);
}

/** Folds one outcome into every level it belongs to, at its finishing time. */
export function foldOutcome(levels: Map<string, LevelCounters>, outcome: OrderOutcome, halfLifeMs: number): void {
  const weights = outcomeWeights(outcome);
  for (const key of outcomeLevelKeys(outcome)) levels.set(key, foldAt(levels.get(key), weights, outcome.finishedAtMs, halfLifeMs));
}
