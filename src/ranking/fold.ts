import { foldAt, type LevelCounters, type LevelWeights } from './decay';
import { integratorLevelKey, isKeyableIntegrator, levelsOf } from './levels';
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

/**
 * An order recorded `not_complete` may still complete (an expired order paid late): the same order
 * then adds its completion alone, never a second attempt. A `complete` outcome is kept under this
 * second id beside the order's own, so each of the two folds happens once.
 */
export const completionId = (runId: string) => `${runId}#complete`;

/** What a completion adds to an order already counted as an attempt. */
export function completionWeights(outcome: OrderOutcome): LevelWeights {
  return { ...outcomeWeights(outcome), attempts: 0, refused: 0 };
}

/**
 * The weights to fold for `outcome`, given whether its id and its completion id were folded
 * before; undefined when there is nothing new.
 */
export function weightsToFold(outcome: OrderOutcome, idSeen: boolean, completionSeen: boolean): LevelWeights | undefined {
  if (outcome.kind !== 'complete') return idSeen ? undefined : outcomeWeights(outcome);
  if (completionSeen) return undefined;
  return idSeen ? completionWeights(outcome) : outcomeWeights(outcome);
}

/**
 * The level keys an outcome is folded into: the shared levels, most specific first, then the same
 * levels under its integrator when it has one (src/ranking/levels.ts).
 */
export function outcomeLevelKeys(outcome: OrderOutcome): string[] {
  const shared = levelsOf(outcome.providerCode, outcome.country, outcome.paymentMethod).map((level) => level.key);
  const { integratorId } = outcome;
  if (!isKeyableIntegrator(integratorId)) return shared;
  return [...shared, ...shared.map((key) => integratorLevelKey(integratorId, key))];
}

/** Folds one outcome into every level it belongs to, at its finishing time. */
export function foldOutcome(
  levels: Map<string, LevelCounters>,
  outcome: OrderOutcome,
  halfLifeMs: number,
  weights: LevelWeights = outcomeWeights(outcome),
): void {
  for (const key of outcomeLevelKeys(outcome)) levels.set(key, foldAt(levels.get(key), weights, outcome.finishedAtMs, halfLifeMs));
}
