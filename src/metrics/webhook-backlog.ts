import { integratorWebhookOldestUndelivered } from './metrics';
import { beforeScrape } from './registry';

interface Pending {
  integrator: string;
  occurredAtMs: number;
  /** Past this the entry is dropped unless a later failed attempt renews it: the webhook may be on another worker now. */
  forgetAtMs: number;
}

/**
 * The integrator webhooks this worker saw fail and not yet settle, for the age of the oldest one
 * (onramp_integrator_webhook_oldest_undelivered_seconds, computed when scraped). The order
 * workflow's sink reports each failed attempt with the time of the next, and each webhook settled.
 * An entry lives until a little after its next attempt is due: that attempt (on whichever worker
 * runs it) renews or settles it, so a webhook that moved to another worker is not counted here
 * forever. A worker that restarts learns of a failing webhook again at its next attempt. Expired
 * entries are dropped at each scrape and, when one is due, at a recorded failure (at most once a
 * second), so the map stays bounded without scrapes too; past `maxEntries` the entries recorded
 * longest ago are dropped.
 */
export class WebhookBacklog {
  private readonly pending = new Map<string, Pending>();
  /** Every integrator seen, so that one whose backlog cleared reads 0 rather than vanishing. */
  private readonly integrators = new Set<string>();
  /** The earliest forgetAtMs of the entries (a lower bound), and when failed() last pruned. */
  private earliestForgetAtMs = Infinity;
  private prunedAtMs = -Infinity;

  constructor(
    private readonly now: () => number = Date.now,
    /** How long after its next attempt was due an entry is kept. */
    private readonly graceMs = 5 * 60_000,
    /** Entries kept at most; past it the ones recorded longest ago are dropped. */
    private readonly maxEntries = 10_000,
  ) {}

  failed(webhookId: string, integrator: string, occurredAtMs: number, nextAttemptAtMs: number): void {
    const now = this.now();
    if (now > this.earliestForgetAtMs && now - this.prunedAtMs >= 1000) {
      this.prunedAtMs = now;
      this.prune(now);
    }
    const forgetAtMs = nextAttemptAtMs + this.graceMs;
    // Deleted first so that the map's order stays the order entries were last recorded in.
    this.pending.delete(webhookId);
    this.pending.set(webhookId, { integrator, occurredAtMs, forgetAtMs });
    this.earliestForgetAtMs = Math.min(this.earliestForgetAtMs, forgetAtMs);
    for (const id of this.pending.keys()) {
      if (this.pending.size <= this.maxEntries) break;
      this.pending.delete(id);
    }
    this.integrators.add(integrator);
  }

  /** Drops the entries whose next attempt is more than graceMs overdue. */
  private prune(now: number): void {
    let earliest = Infinity;
    for (const [id, entry] of this.pending) {
      if (now > entry.forgetAtMs) this.pending.delete(id);
      else earliest = Math.min(earliest, entry.forgetAtMs);
    }
    this.earliestForgetAtMs = earliest;
  }

  settled(webhookId: string): void {
    this.pending.delete(webhookId);
  }

  /** Seconds since the oldest pending webhook's event, per integrator. */
  oldestAges(): Map<string, number> {
    const now = this.now();
    this.prune(now);
    const oldest = new Map<string, number>();
    for (const entry of this.pending.values())
      oldest.set(entry.integrator, Math.min(oldest.get(entry.integrator) ?? Infinity, entry.occurredAtMs));
    return new Map([...oldest].map(([integrator, at]) => [integrator, Math.max(0, (now - at) / 1000)]));
  }

  /** Sets the gauge from the entries (an integrator with none left reads 0). */
  update(): void {
    const ages = this.oldestAges();
    for (const integrator of this.integrators) integratorWebhookOldestUndelivered.set({ integrator }, ages.get(integrator) ?? 0);
  }
}

/** The worker's backlog, brought up to date at each scrape. */
export const webhookBacklog = new WebhookBacklog();
beforeScrape(() => webhookBacklog.update());
