import type { SimulatorTimers } from './timers';

/** Between the automatic steps of a status walk, unless a simulator is told otherwise. */
export const DEFAULT_STEP_DELAY_MS = 300;

/**
 * Plays the status steps of a customer's action on one order: the first at once, each next one
 * `stepDelayMs` later. A newer action on the same order supersedes the walk under way, whose
 * remaining steps are dropped.
 */
export class StatusWalks {
  private readonly generations = new WeakMap<object, number>();
  private readonly walking = new WeakSet<object>();

  constructor(
    private readonly timers: SimulatorTimers,
    private readonly stepDelayMs: number,
  ) {}

  /** Walks `order` through `steps`, each applied by `apply`, superseding the order's walk under way. */
  start<Step>(order: object, steps: readonly Step[], apply: (step: Step) => void): void {
    const generation = this.supersede(order);
    const play = (index: number) => {
      const step = steps[index];
      if (step === undefined || this.generations.get(order) !== generation) return;
      const more = index + 1 < steps.length;
      if (more) this.walking.add(order);
      else this.walking.delete(order);
      apply(step);
      if (more) this.timers.later(() => play(index + 1), this.stepDelayMs);
    };
    play(0);
  }

  /** Ends the order's walk under way, if any: an action that is not a walk still stops it. */
  supersede(order: object): number {
    const generation = (this.generations.get(order) ?? 0) + 1;
    this.generations.set(order, generation);
    this.walking.delete(order);
    return generation;
  }

  /** Whether a walk of the order still has steps to play. */
  isWalking(order: object): boolean {
    return this.walking.has(order);
  }
}
