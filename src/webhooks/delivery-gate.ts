/**
 * Which ordinary webhook attempts a worker makes now. Each attempt holds one of the worker's
 * activity slots (WORKER_ACTIVITY_SLOTS) until the integrator answers or the timeout ends it, and
 * status polls need those slots too: one integrator whose endpoint hangs must not hold them. So a
 * worker has at most `perWorker` attempts out at once (fewer than its activity slots: the rest are
 * always free for polls), and at most `perIntegrator` to any one integrator. An attempt beyond
 * either is not made: the worker answers at once, without a request, and the order tries again
 * later (`deferred`, not counted as an attempt; docs/decisions.md, "Webhooks to integrators").
 * An integrator whose endpoint stalls (src/webhooks/endpoint-health.ts) gets one attempt at a
 * time, a probe; the others fail at once as if they had timed out, and follow the retry schedule.
 */
import type { EndpointHealth } from './endpoint-health';

export interface DeliveryLimits {
  /** Ordinary attempts out at once on this worker; below its activity slots. */
  perWorker: number;
  /** Ordinary attempts out at once to one integrator on this worker. */
  perIntegrator: number;
}

/** Why an attempt was not made: over a cap (`deferred`, tried again soon) or a stalled endpoint (a failed attempt). */
export type DeliveryRefusal = 'integrator_busy' | 'worker_busy' | 'not_answering';

export type DeliveryPlace = { leave: () => void } | { refused: DeliveryRefusal };

/** A deferred attempt's pause: 1 s doubling with each deferral of the same webhook, at most a minute, jittered down by up to half. */
export const DEFER_BASE_MS = 1_000;
export const DEFER_MAX_MS = 60_000;

export function deferralDelayMs(deferrals: number, random: () => number = Math.random): number {
  const full = Math.min(DEFER_BASE_MS * 2 ** Math.min(deferrals, 16), DEFER_MAX_MS);
  return Math.round(full * (1 - random() / 2));
}

export class DeliveryGate {
  private inFlight = 0;
  private readonly byIntegrator = new Map<string, number>();

  constructor(
    readonly limits: DeliveryLimits,
    private readonly health: EndpointHealth,
  ) {}

  /** A place for an ordinary attempt to this integrator, or why there is none. */
  tryEnter(integratorId: string): DeliveryPlace {
    const mine = this.byIntegrator.get(integratorId) ?? 0;
    if (mine >= 1 && this.health.stalled(integratorId)) return { refused: 'not_answering' };
    if (mine >= this.limits.perIntegrator) return { refused: 'integrator_busy' };
    if (this.inFlight >= this.limits.perWorker) return { refused: 'worker_busy' };
    this.inFlight += 1;
    this.byIntegrator.set(integratorId, mine + 1);
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        this.inFlight -= 1;
        const rest = (this.byIntegrator.get(integratorId) ?? 1) - 1;
        if (rest > 0) this.byIntegrator.set(integratorId, rest);
        else this.byIntegrator.delete(integratorId);
      },
    };
  }
}
