/**
 * Which first webhook attempts a worker makes as local activities. A local attempt holds its
 * order's workflow task, and with it one of the worker's workflow task slots (the SDK's default
 * is 40), for as long as the integrator takes to answer: one integrator whose endpoint hangs or
 * crawls must not hold them, or every other order on the worker waits. So a worker makes at most
 * `maxInFlight` local attempts at once, and none for an integrator
 * - while one of its local attempts has been running for `slowMs` or more (a hang is seen before
 *   it ends), or
 * - for `coolOffMs` after one of its attempts from this worker, local or not, failed or took
 *   `slowMs` or more, until one is delivered in less.
 * The workflow makes a deferred attempt as an ordinary activity, which the delivery gate bounds
 * in its turn (src/webhooks/delivery-gate.ts). The cool-off is the worker's view of the endpoint
 * (src/webhooks/endpoint-health.ts), shared with that gate.
 */
import { ENDPOINT_COOL_OFF_MS, ENDPOINT_SLOW_MS, EndpointHealth, type EndpointHealthLimits } from './endpoint-health';

export const LOCAL_ATTEMPTS_MAX_IN_FLIGHT = 10;
export const LOCAL_ATTEMPTS_SLOW_MS = ENDPOINT_SLOW_MS;
export const LOCAL_ATTEMPTS_COOL_OFF_MS = ENDPOINT_COOL_OFF_MS;

export interface LocalAttemptLimits extends EndpointHealthLimits {
  maxInFlight: number;
}

const DEFAULT_LIMITS: LocalAttemptLimits = {
  maxInFlight: LOCAL_ATTEMPTS_MAX_IN_FLIGHT,
  slowMs: LOCAL_ATTEMPTS_SLOW_MS,
  coolOffMs: LOCAL_ATTEMPTS_COOL_OFF_MS,
};

export class LocalAttemptGate {
  private inFlight = 0;
  /** When each running local attempt began, by integrator. */
  private readonly running = new Map<string, Set<{ startedAt: number }>>();

  constructor(
    private readonly limits: LocalAttemptLimits = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
    /** The worker's view of each endpoint, shared with the ordinary attempts' gate. */
    readonly health: EndpointHealth = new EndpointHealth(limits, now),
  ) {}

  /** A place for a local attempt to this integrator, as the function that gives it back; undefined when the attempt must be an ordinary one. */
  tryEnter(integratorId: string): (() => void) | undefined {
    const now = this.now();
    if (this.inFlight >= this.limits.maxInFlight) return undefined;
    if (this.health.inTrouble(integratorId)) return undefined;
    const running = this.running.get(integratorId) ?? new Set();
    for (const attempt of running) if (now - attempt.startedAt >= this.limits.slowMs) return undefined;
    const attempt = { startedAt: now };
    running.add(attempt);
    this.running.set(integratorId, running);
    this.inFlight += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight -= 1;
      running.delete(attempt);
      if (running.size === 0) this.running.delete(integratorId);
    };
  }

  /** Any attempt's outcome for this integrator, local or not (src/webhooks/endpoint-health.ts). */
  record(integratorId: string, outcome: string, durationMs: number): void {
    this.health.record(integratorId, outcome, durationMs);
  }
}
