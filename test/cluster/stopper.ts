/** Sleeps that all end at once when the run is told to stop (Ctrl-C, a failure). */
export class Stopper {
  private stopped = false;
  private readonly waking = new Set<() => void>();

  get isStopped(): boolean {
    return this.stopped;
  }

  sleep = (ms: number): Promise<void> => {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waking.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waking.add(wake);
    });
  };

  /** Sleeps until `at` (epoch ms). */
  until(at: number): Promise<void> {
    return this.sleep(Math.max(0, at - Date.now()));
  }

  stop(): void {
    this.stopped = true;
    for (const wake of [...this.waking]) wake();
  }
}
