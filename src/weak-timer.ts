/**
 * A repeating timer that does not keep its owner alive: it holds the owner weakly and stops itself
 * once the owner has been collected. A background refresh started by a component that is simply
 * dropped (an API built for a test, then let go) would otherwise pin the component, and everything
 * its closures reach, for the life of the process. Never holds the process open.
 */
export function weakInterval<T extends object>(owner: T, ms: number, tick: (owner: T) => void): NodeJS.Timeout {
  const ref = new WeakRef(owner);
  const timer = setInterval(() => {
    const current = ref.deref();
    if (current === undefined) clearInterval(timer);
    else tick(current);
  }, ms);
  return timer.unref();
}
