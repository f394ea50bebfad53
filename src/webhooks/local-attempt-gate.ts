/**
 * Which first webhook attempts a worker makes as local activities. A local attempt holds its
 * order's workflow task, and with it one of the worker's workflow task slots (the SDK's default
 * is 40), for as long as the integrator takes to answer: one integrator whose endpoint hangs must
 * not hold them all, or every other order on the worker waits. So a worker makes at most
 * `maxInFlight` local attempts at once, and none for an integrator whose last attempt from this
 * worker failed within `coolOffMs`; the workflow makes a deferred attempt as an ordinary activity,
 * which waits in an activity slot instead.
 */
export const LOCAL_ATTEMPTS_MAX_IN_FLIGHT = 10;
export const LOCAL_ATTEMPTS_COOL_OFF_MS = 60_000;

export class LocalAttemptGate {
  private inFlight = 0;
  /** When each integrator's last failed attempt ended (epoch ms), until one is delivered. */
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly maxInFlight = LOCAL_ATTEMPTS_MAX_IN_FLIGHT,
    private readonly coolOffMs = LOCAL_ATTEMPTS_COOL_OFF_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a place for a local attempt to this integrator; false when the attempt must be an ordinary one. */
  tryEnter(integratorId: string): boolean {
    if (this.inFlight >= this.maxInFlight) return false;
    const failedAt = this.failedAt.get(integratorId);
    if (failedAt !== undefined && this.now() - failedAt < this.coolOffMs) return false;
    this.inFlight += 1;
    return true;
  }

  /** Gives back the place tryEnter took. */
  leave(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** Any attempt's outcome for this integrator, local or not: a failure starts its cool-off, a delivery ends it. */
  record(integratorId: string, outcome: string): void {
    if (outcome === 'failed') this.failedAt.set(integratorId, this.now());
    else if (outcome === 'delivered') this.failedAt.delete(integratorId);
  }
}
