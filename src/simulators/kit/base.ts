import express, { type Response } from 'express';
import {
  checkoutActionAsSwitched,
  faultRoutes,
  injectCreationFaults,
  injectFaults,
  NO_FAULTS,
  type CheckoutActionDraw,
  type SimulatorFaults,
} from './faults';
import { SimulatedBooks } from './books';
import type { ProviderSimulator } from './host';
import { simulatedOrderRoutes, type OrderWebhookSwitches, type SimulatedOrder } from './simulated-orders';
import { DEFAULT_STEP_DELAY_MS, StatusWalks } from './status-walk';
import { SimulatorTimers } from './timers';
import { WebhookSender } from './webhook-sender';

export interface SimulatorBaseOptions {
  /** Where the provider's webhooks go by default: the broker's POST /api/webhooks/<code>. */
  webhookUrl: string;
  faults?: Partial<SimulatorFaults>;
  /** Between the automatic steps of a status walk; DEFAULT_STEP_DELAY_MS when absent. */
  stepDelayMs?: number;
  random?: () => number;
  log?: (message: string) => void;
}

/** What a simulator's lifecycle moves orders with: the fault switches, the webhook sender, the status walks, the log. */
export interface SimulatorParts {
  faults: SimulatorFaults;
  webhooks: WebhookSender;
  walks: StatusWalks;
  log?: (message: string) => void;
}

/**
 * What every simulated provider has: its Express app with the fault switches mounted, a webhook
 * sender subject to them, status walks, and timers that stop with it. Subclasses mount the
 * provider's checkout and API on the app.
 */
export abstract class SimulatorBase implements ProviderSimulator {
  abstract readonly code: string;
  readonly app = express();
  readonly faults: SimulatorFaults;
  readonly webhooks: WebhookSender;
  protected readonly timers = new SimulatorTimers();
  protected readonly parts: SimulatorParts;
  protected readonly random: () => number;
  /** What the checkout plays a customer's action as, under the `completionRate` switch. */
  protected readonly playedAction: CheckoutActionDraw = (action, allowed) =>
    checkoutActionAsSwitched(action, allowed, this.faults, this.random);
  /** What the provider's transaction list shows differently from its status answers (reconciliation tests). */
  readonly books = new SimulatedBooks();
  /** Per-order webhook switches, by the broker's order id (the orders' reference). */
  private readonly orderSwitches = new Map<string, OrderWebhookSwitches>();

  constructor(options: SimulatorBaseOptions) {
    this.faults = { ...NO_FAULTS, ...options.faults };
    this.random = options.random ?? Math.random;
    this.webhooks = new WebhookSender({
      url: options.webhookUrl,
      faults: this.faults,
      timers: this.timers,
      orderSwitches: (orderKey) => this.switchesOf(orderKey),
      log: options.log,
    });
    const walks = new StatusWalks(this.timers, options.stepDelayMs ?? DEFAULT_STEP_DELAY_MS);
    this.parts = { faults: this.faults, webhooks: this.webhooks, walks, log: options.log };
    this.app.disable('x-powered-by');
    // Providers' APIs answer fresh data: no ETag to compute for every answer.
    this.app.set('etag', false);
    // Turning the reorder switch off sends what it held back (but for orders whose own switch holds them).
    this.app.use(
      '/_simulator',
      faultRoutes(this.faults, () => {
        if (!this.faults.reorderWebhooks) this.webhooks.releaseHeld((key) => this.switchesOf(key)?.reorderWebhooks !== true);
      }),
    );
    this.app.use('/_simulator', this.books.router());
    this.app.use(
      '/_simulator',
      simulatedOrderRoutes({
        orders: () => this.simulatedOrders(),
        switches: this.orderSwitches,
        onChange: (reference) => {
          const switches = this.orderSwitches.get(reference);
          const holding = switches?.reorderWebhooks ?? this.faults.reorderWebhooks;
          if (!holding) this.webhooks.releaseHeld((key) => this.referenceOf(key) === reference);
        },
      }),
    );
  }

  /** Every order the provider holds, with the broker's order id it was given: `GET /_simulator/orders`. */
  abstract simulatedOrders(): SimulatedOrder[];

  /** The broker's order id behind a webhook's orderKey (the provider's order id, or the reference itself). */
  private referenceOf(orderKey: string): string | undefined {
    const order = this.simulatedOrders().find((o) => o.id === orderKey || o.reference === orderKey);
    return order?.reference ?? undefined;
  }

  private switchesOf(orderKey: string): OrderWebhookSwitches | undefined {
    if (this.orderSwitches.size === 0) return undefined;
    const reference = this.referenceOf(orderKey);
    return reference === undefined ? undefined : this.orderSwitches.get(reference);
  }

  /** Stops pending timers (status steps, webhook retries); webhooks in flight finish. */
  stop(): void {
    this.timers.stop();
  }

  /** Latency, outages and unanswered requests on the API routes under `prefix`; `outage` writes the provider's own 503. */
  protected injectFaultsUnder(prefix: string | string[], outage: (res: Response) => void): void {
    this.app.use(prefix, injectFaults({ faults: this.faults, timers: this.timers, random: this.random, outage }));
  }

  /**
   * The `createErrorRate` and `createRejectRate` switches on an order creation route (`method` and
   * `path` as the provider's API router has them): `outage` writes the provider's own 5xx, `refusal`
   * the refusal its adapter reads as the provider refusing the order.
   */
  protected injectCreationFaultsOn(
    method: 'get' | 'post',
    path: string,
    outage: (res: Response) => void,
    refusal: (res: Response) => void,
  ): void {
    this.app[method](path, injectCreationFaults({ faults: this.faults, random: this.random, outage, refusal }));
  }
}
