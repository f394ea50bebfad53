/**
 * What each integrator's order searches may ask of Temporal's visibility store: a token bucket of
 * visibility calls (counts and list reads) per integrator, refilled at `perSecond` up to `burst`.
 * A page starts only with a call's worth in the bucket and is never cut short: it spends what its
 * calls cost (up to 8 counts and one read or more, src/orders/search.ts), so the bucket may go below zero and the
 * integrator's next page waits until it is refilled. One integrator's searches then take at most
 * `perSecond` calls a second from the store, however many pages it asks for, while the concurrency
 * cap bounds how many run at once. Per API process, like that cap.
 */
export interface SearchBudgetOptions {
  /** Visibility calls per second one integrator's searches may make, on average. */
  perSecond: number;
  /** Calls one integrator may make at once after a quiet spell. */
  burst: number;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

export class SearchBudget {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;

  constructor(private readonly options: SearchBudgetOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Seconds until the integrator may start a page (0: now). Buckets that have filled up are
   * forgotten, so the map holds only integrators that searched within the last `burst / perSecond` s.
   */
  waitSeconds(integratorId: string): number {
    const tokens = this.refilled(integratorId);
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / this.options.perSecond);
  }

  /** Spends `calls` of the integrator's budget (a page's calls, as they are made). */
  spend(integratorId: string, calls: number): void {
    const tokens = this.refilled(integratorId);
    this.buckets.set(integratorId, { tokens: tokens - calls, atMs: this.now() });
  }

  private refilled(integratorId: string): number {
    const { perSecond, burst } = this.options;
    const bucket = this.buckets.get(integratorId);
    if (!bucket) return burst;
    const tokens = Math.min(burst, bucket.tokens + ((this.now() - bucket.atMs) / 1000) * perSecond);
    if (tokens >= burst) this.buckets.delete(integratorId);
    return tokens;
  }
}
