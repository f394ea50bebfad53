/**
 * A probe whose answer is shared: callers within `ttlMs` of the last answer get it again, and
 * callers while a probe runs wait for that one. /readyz is unauthenticated, so without this every
 * request to it would be a call to Temporal; with it, at most one per `ttlMs` whatever the traffic.
 * A failure is kept as long as a success: a down dependency is not probed harder.
 */
export function sharedProbe<T>(probe: () => Promise<T>, ttlMs: number, now: () => number = Date.now): () => Promise<T> {
  let answer: { value: Promise<T>; at: number } | undefined;
  let running: Promise<T> | undefined;
  return () => {
    if (answer && now() - answer.at < ttlMs) return answer.value;
    if (running) return running;
    const started = probe();
    running = started;
    const settle = () => {
      answer = { value: started, at: now() };
      running = undefined;
    };
    started.then(settle, settle);
    return started;
  };
}
