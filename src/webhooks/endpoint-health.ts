/**
 * What one worker has seen of each integrator's webhook endpoint lately: whether it is in trouble
 * and whether it stalls. The one place both gates ask (src/webhooks/local-attempt-gate.ts for local
 * first attempts, src/webhooks/delivery-gate.ts for ordinary ones); every attempt's outcome, local
 * or not, is recorded here.
 * - **In trouble** for `coolOffMs` after an attempt failed or took `slowMs` or more, until one is
 *   delivered in less: no local attempt for it (a local attempt holds a workflow task slot).
 * - **Stalled** for `coolOffMs` after an attempt failed having taken `slowMs` or more (no answer
 *   within the timeout, or an error after a long wait), until one is delivered in less: such
 *   attempts hold an activity slot each for nothing, so only one at a time goes out. A failure
 *   answered quickly (a 500 in 5 ms) costs no slot and does not stall an integrator; a slow
 *   delivery does not either (the delivery gate's cap bounds it).
 */
export const ENDPOINT_SLOW_MS = 2_000;
export const ENDPOINT_COOL_OFF_MS = 60_000;

export interface EndpointHealthLimits {
  slowMs: number;
  coolOffMs: number;
}

export class EndpointHealth {
  /** When each integrator's last failed or slow attempt ended (epoch ms), until one is delivered in time. */
  private readonly troubleAt = new Map<string, number>();
  /** When each integrator's last slow failure ended (epoch ms), until one is delivered in time. */
  private readonly stalledAt = new Map<string, number>();

  constructor(
    readonly limits: EndpointHealthLimits = { slowMs: ENDPOINT_SLOW_MS, coolOffMs: ENDPOINT_COOL_OFF_MS },
    private readonly now: () => number = Date.now,
  ) {}

  /** Any attempt's outcome for this integrator: a failure or a slow answer starts its cool-off, a timely delivery ends it. */
  record(integratorId: string, outcome: string, durationMs: number): void {
    const slow = durationMs >= this.limits.slowMs;
    if (outcome === 'failed' || slow) this.troubleAt.set(integratorId, this.now());
    if (outcome === 'failed' && slow) this.stalledAt.set(integratorId, this.now());
    if (outcome === 'delivered' && !slow) {
      this.troubleAt.delete(integratorId);
      this.stalledAt.delete(integratorId);
    }
  }

  /** Whether the integrator's endpoint failed or answered slowly within the cool-off. */
  inTrouble(integratorId: string): boolean {
    return this.within(this.troubleAt, integratorId);
  }

  /** Whether the integrator's endpoint failed slowly (held its slot for nothing) within the cool-off. */
  stalled(integratorId: string): boolean {
    return this.within(this.stalledAt, integratorId);
  }

  private within(times: Map<string, number>, integratorId: string): boolean {
    const at = times.get(integratorId);
    if (at === undefined) return false;
    if (this.now() - at < this.limits.coolOffMs) return true;
    times.delete(integratorId);
    return false;
  }
}
