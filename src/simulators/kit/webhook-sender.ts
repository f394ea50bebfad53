import type { SimulatorFaults } from './faults';
import type { OrderWebhookSwitches } from './simulated-orders';
import type { SimulatorTimers } from './timers';

/** One attempt to deliver a webhook; httpStatus 0 means the request failed. */
export interface WebhookAttempt {
  orderKey: string;
  /** The provider status the webhook reported (for tests and logs). */
  status: string;
  eventId: string;
  httpStatus: number;
}

export interface OutgoingWebhook {
  /** Groups webhooks of one order: they go out one after another, in order. */
  orderKey: string;
  status: string;
  eventId: string;
  body: string;
  headers: Record<string, string>;
  /** Where it goes; the sender's default URL when absent (Ramp sends to a URL given per order). */
  url?: string;
}

export interface WebhookSenderOptions {
  url: string;
  faults: SimulatorFaults;
  timers: SimulatorTimers;
  /** Pauses between attempts; one attempt more than there are pauses. */
  retryDelaysMs?: readonly number[];
  /** The switches set for one order (by its orderKey), if any: each one set overrides the simulator's for that order's webhooks. */
  orderSwitches?: (orderKey: string) => OrderWebhookSwitches | undefined;
  log?: (message: string) => void;
}

/**
 * Delivers a simulated provider's webhooks to the broker: per order in sequence, retried on failure,
 * and subject to the drop / duplicate / delay / reorder fault switches.
 */
export class WebhookSender {
  /** Every attempt, for tests. */
  readonly attempts: WebhookAttempt[] = [];
  private readonly queues = new Map<string, Promise<void>>();
  private readonly held = new Map<string, OutgoingWebhook[]>();

  constructor(private readonly options: WebhookSenderOptions) {}

  send(webhook: OutgoingWebhook): void {
    const switches = this.options.orderSwitches?.(webhook.orderKey);
    const faults = switches ? { ...this.options.faults, ...switches } : this.options.faults;
    if (faults.dropWebhooks) {
      this.options.log?.(`webhook ${webhook.eventId} (${webhook.status}) dropped`);
      return;
    }
    if (faults.reorderWebhooks) {
      const batch = this.held.get(webhook.orderKey) ?? [];
      batch.push(webhook);
      this.held.set(webhook.orderKey, batch);
      return;
    }
    this.enqueue(webhook);
    if (faults.duplicateWebhooks) this.enqueue(webhook);
  }

  /** Sends the webhooks held back by `reorderWebhooks`, each order's newest first; only the orders `which` picks when given. */
  releaseHeld(which?: (orderKey: string) => boolean): void {
    for (const [orderKey, batch] of this.held) {
      if (which && !which(orderKey)) continue;
      for (const webhook of [...batch].reverse()) this.enqueue(webhook);
      this.held.delete(orderKey);
    }
  }

  /** Resolves when every queued webhook has been attempted. */
  async drain(): Promise<void> {
    await Promise.all([...this.queues.values()]);
  }

  private enqueue(webhook: OutgoingWebhook): void {
    const previous = this.queues.get(webhook.orderKey) ?? Promise.resolve();
    this.queues.set(
      webhook.orderKey,
      previous.then(() => this.deliver(webhook)),
    );
  }

  private async deliver(webhook: OutgoingWebhook): Promise<void> {
    const { faults, timers } = this.options;
    if (faults.webhookDelayMs > 0) await timers.pause(faults.webhookDelayMs);
    const delays = this.options.retryDelaysMs ?? [250, 1000, 3000];
    for (let attempt = 0; attempt <= delays.length && !timers.isStopped; attempt++) {
      let httpStatus = 0;
      try {
        const response = await fetch(webhook.url ?? this.options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...webhook.headers },
          body: webhook.body,
          signal: AbortSignal.timeout(5000),
        });
        httpStatus = response.status;
        await response.arrayBuffer();
      } catch {
        httpStatus = 0;
      }
      this.attempts.push({ orderKey: webhook.orderKey, status: webhook.status, eventId: webhook.eventId, httpStatus });
      if (httpStatus >= 200 && httpStatus < 300) return;
      const wait = delays[attempt];
      if (wait !== undefined) await timers.pause(wait);
    }
  }
}
