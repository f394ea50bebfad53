/** Timers a simulator can cancel all at once when it stops, so tests leave nothing running. */
export class SimulatorTimers {
  private readonly pending = new Set<NodeJS.Timeout>();
  private stopped = false;

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Runs `fn` after `ms` unless the simulator stops first. */
  later(fn: () => void, ms: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      fn();
    }, ms);
    this.pending.add(timer);
  }

  /** Resolves after `ms`; never resolves once the simulator has stopped (callers check isStopped). */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => this.later(resolve, ms));
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
