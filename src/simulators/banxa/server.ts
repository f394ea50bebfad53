/**
 * A local simulator of Banxa Hosted Checkout v2, mounted at `/banxa` (which plays the partner's base
 * URL `https://api.banxa.com/<partnerRef>`): catalogue, quotes, server-side buy orders, order lookup,
 * a checkout page whose buttons drive the order through Banxa's statuses, webhooks signed the way
 * Banxa signs them, and an order list that honours the books switches (src/simulators/kit/books.ts). The broker reaches it only through its Banxa adapter.
 */
import express, { type Request, type Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { BanxaApi, refuse } from './api';
import { BanxaCheckout } from './checkout';
import { BanxaLifecycle } from './lifecycle';
import type { BanxaSimulatorOptions } from './options';
import type { BanxaSimOrder } from './orders';
import { BanxaSellApi } from './sell-api';
import { BanxaSellLifecycle } from './sell-lifecycle';
import { listedSellOrderView, type BanxaSimSellOrder } from './sell-orders';

export type { BanxaSimulatorOptions } from './options';

export class BanxaSimulator extends SimulatorBase {
  readonly code = 'banxa';
  readonly orders = new Map<string, BanxaSimOrder>();
  /** Sell (off-ramp) orders, under the same ids' namespace, shown by the same order lookup. */
  readonly sellOrders = new Map<string, BanxaSimSellOrder>();

  constructor(options: BanxaSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const webhookPath = new URL(options.brokerWebhookUrl).pathname;
    const lifecycle = new BanxaLifecycle(this.parts, options.credentials, webhookPath);
    const sellLifecycle = new BanxaSellLifecycle(this.parts, options.credentials, webhookPath);
    const sellApi = new BanxaSellApi(this.sellOrders, options, this.faults, sellLifecycle);
    const api = new BanxaApi(this.orders, options, this.faults, this.books, () =>
      [...this.sellOrders.values()].map((o) => ({ ...o, view: listedSellOrderView(o, options.publicUrl) })),
    );
    // A purchase only Banxa's books hold (reconciliation tests): listed by GET /v2/orders, never announced.
    this.books.makePhantomsWith((request) => api.phantom(request));
    this.app.use(express.json({ limit: '64kb' }));
    this.app.use(new BanxaCheckout(this.orders, lifecycle, options.publicUrl, this.playedAction, this.sellOrders, sellLifecycle).router);
    this.app.use('/v2', api.authenticate);
    const outage = (res: Response) => refuse(res, 503, 999, 'System error');
    this.injectFaultsUnder('/v2', outage);
    this.injectCreationFaultsOn('post', '/v2/buy', outage, (res) => refuse(res, 422, 4000, 'The customer cannot place this order'));
    this.injectCreationFaultsOn('post', '/v2/sell', outage, (res) => refuse(res, 422, 4000, 'The customer cannot place this order'));
    // Before the buy API: a sell order's lookup is answered here, any other passes on.
    this.app.use(sellApi.router);
    this.app.use(api.router);
    this.app.use((_req: Request, res: Response) => refuse(res, 404, 404, 'Not found'));
  }

  simulatedOrders(): SimulatedOrder[] {
    return [...this.orders.values(), ...this.sellOrders.values()].map((o) => ({
      id: o.id,
      reference: o.externalOrderId,
      status: o.status,
      created_at: o.createdAt.toISOString(),
    }));
  }
}

export function createBanxaSimulator(options: BanxaSimulatorOptions): BanxaSimulator {
  return new BanxaSimulator(options);
}
