/**
 * A local simulator of Revolut Ramp's buy flow, mounted at `/revolut`: the Crypto Ramp partner API
 * (`/partners/api/2.0`: configuration, quotes, redirect URLs, order lookups; `/partners/api/1.0`:
 * webhooks), every call behind `X-API-KEY`, the Ramp web app behind each redirect URL (a page whose
 * buttons play the customer) and `Revolut-Signature` webhooks. The broker reaches it only through
 * its Revolut adapter.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { EVENT_TYPES, refuse, RevolutApi, type SimWebhook } from './api';
import { RevolutCheckout } from './checkout';
import { RevolutLifecycle } from './lifecycle';
import type { RevolutSimulatorOptions } from './options';
import type { BuyRequest, RevolutSimOrder } from './orders';

export type { RevolutSimulatorOptions } from './options';

export class RevolutSimulator extends SimulatorBase {
  readonly code = 'revolut';
  readonly orders = new Map<string, RevolutSimOrder>();
  private readonly buys = new Map<string, BuyRequest>();
  /** The partner's webhooks: the broker's URL, created at start for every buy event, and any the API creates. */
  readonly subscriptions = new Map<string, SimWebhook>();

  constructor(options: RevolutSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const start: SimWebhook = {
      id: randomUUID(),
      url: options.brokerWebhookUrl,
      events: [...EVENT_TYPES],
      signing_secret: options.credentials.webhookSecret,
    };
    this.subscriptions.set(start.id, start);
    const lifecycle = new RevolutLifecycle(this.parts, options.credentials, this.subscriptions);
    const api = new RevolutApi(this.orders, this.buys, this.subscriptions, options);
    // The customer's web app: no key, no API faults.
    this.app.use(new RevolutCheckout(this.orders, this.buys, lifecycle, this.faults, this.playedAction, options.log).router);
    const outage = (res: Response) => refuse(res, 503, 'Service is not available');
    this.app.use('/partners/api', api.authenticate);
    this.injectFaultsUnder('/partners/api', outage);
    // `/buy` makes the customer's link, the one call made for an order (the order's lookup comes after).
    this.injectCreationFaultsOn('get', '/partners/api/2.0/buy', outage, (res) =>
      refuse(res, 400, 'This customer cannot buy with Revolut Ramp'),
    );
    this.app.use('/partners/api/2.0', api.partners);
    this.app.use('/partners/api/1.0', api.webhookRoutes);
    this.app.use((_req: Request, res: Response) => refuse(res, 404, 'Not found'));
  }

  simulatedOrders(): SimulatedOrder[] {
    return [...this.orders.values()].map((o) => ({ id: o.id, reference: o.id, status: o.status, created_at: o.createdAt.toISOString() }));
  }
}

export function createRevolutSimulator(options: RevolutSimulatorOptions): RevolutSimulator {
  return new RevolutSimulator(options);
}
