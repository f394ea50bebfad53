/** Runs a task a fixed number of times or for a fixed time with a fixed number in flight, and the percentiles of its latencies. */

export interface Run {
  count: number;
  seconds: number;
  latenciesMs: number[];
}

/** Runs `task` `count` times with `concurrency` in flight. */
export async function runConcurrently(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<Run> {
  const latenciesMs: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        latenciesMs.push(performance.now() - t0);
      }
    }),
  );
  return { count, seconds: (performance.now() - started) / 1000, latenciesMs };
}

/**
 * Runs `task` with `concurrency` in flight until `seconds` have passed: none starts after that, those
 * in flight finish, and the run's time includes them (as runConcurrently's includes its last ones).
 * `count` is the tasks that finished.
 */
export async function runFor(seconds: number, concurrency: number, task: (i: number) => Promise<void>): Promise<Run> {
  const latenciesMs: number[] = [];
  let next = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        latenciesMs.push(performance.now() - t0);
      }
    }),
  );
  return { count: latenciesMs.length, seconds: (performance.now() - started) / 1000, latenciesMs };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
