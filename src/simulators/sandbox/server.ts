/**
 * A local simulator of the "sandbox" provider: quotes, server-side order creation, status lookup,
 * the partner's cancel of an unpaid order, a checkout page whose buttons drive the order, and signed webhooks to the broker;
 * and its sell (off-ramp) side: sell quotes, sell orders with a deposit address each, their checkout and webhooks.
 * It is a separate HTTP service; the broker reaches it only through its adapter.
 */
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { SandboxApi } from './api';
import { SandboxCheckout } from './checkout';
import { SandboxLifecycle } from './lifecycle';
import type { SandboxSimulatorOptions } from './options';
import { sandboxError, type SimOrder } from './orders';
import { SANDBOX_PROFILE } from './profile';
import { DEFAULT_DEPOSIT_WINDOW_MS, SandboxSellApi } from './sell-api';
import { SandboxSellCheckout } from './sell-checkout';
import { SandboxSellLifecycle } from './sell-lifecycle';
import type { SimSellOrder } from './sell-orders';
import { SANDBOX_SELL_PROFILE } from './sell-profile';

export type { SandboxSimulatorOptions } from './options';

/** Between payment received and crypto delivered, unless told otherwise. */
const SETTLE_DELAY_MS = 1500;

export class SandboxSimulator extends SimulatorBase {
  readonly code: string;
  readonly orders = new Map<string, SimOrder>();
  /** The sell (off-ramp) orders, by the provider's id. */
  readonly sellOrders: ReadonlyMap<string, SimSellOrder>;
  private readonly api: SandboxApi;
  private readonly sellApi: SandboxSellApi;

  constructor(options: SandboxSimulatorOptions) {
    super({ ...options, stepDelayMs: options.settleDelayMs ?? SETTLE_DELAY_MS });
    const profile = options.profile ?? SANDBOX_PROFILE;
    this.code = profile.code;
    const lifecycle = new SandboxLifecycle(this.parts, options.webhookSecret);
    this.api = new SandboxApi(this.orders, profile, options, this.faults, lifecycle);
    const sellProfile = options.sellProfile ?? SANDBOX_SELL_PROFILE;
    const sellLifecycle = new SandboxSellLifecycle(this.parts, this.timers, sellProfile, options.webhookSecret);
    this.sellApi = new SandboxSellApi(
      sellProfile,
      { publicUrl: options.publicUrl, depositWindowMs: options.depositWindowMs ?? DEFAULT_DEPOSIT_WINDOW_MS, log: options.log },
      this.faults,
      sellLifecycle,
    );
    const sellApi = this.sellApi;
    this.sellOrders = sellApi.orders;
    // Customer-facing pages need no API key.
    this.app.use(new SandboxCheckout(this.orders, lifecycle, profile.name, this.playedAction).router);
    this.app.use(new SandboxSellCheckout(sellApi.orders, sellLifecycle, profile.name, this.playedAction).router);
    this.app.use('/v1', this.api.authenticate);
    this.injectFaultsUnder('/v1', (res) => void res.status(503).json(sandboxError('unavailable', 'simulated outage')));
    for (const path of ['/v1/orders', '/v1/sell/orders']) {
      this.injectCreationFaultsOn(
        'post',
        path,
        (res) => void res.status(503).json(sandboxError('unavailable', 'simulated order creation outage')),
        (res) => void res.status(422).json(sandboxError('customer_refused', 'simulated refusal of this customer')),
      );
    }
    this.app.use(this.api.router);
    this.app.use(sellApi.router);
    this.app.use((_req: Request, res: Response) => void res.status(404).json(sandboxError('not_found', 'no such route')));
  }

  /** Buy and sell orders alike (the per-order webhook switches reach both). */
  simulatedOrders(): SimulatedOrder[] {
    return [...this.orders.values(), ...this.sellOrders.values()].map((o) => ({
      id: o.id,
      reference: o.partner_order_id,
      status: o.status,
      created_at: o.created_at,
    }));
  }

  /** Whether an `Authorization` header carries this provider's API key. */
  isAuthorized(authorization: string | undefined): boolean {
    return this.api.isAuthorized(authorization);
  }

  /** The answer of `GET /v1/quotes` to a query, apart from authentication and faults. */
  quoteAnswer(q: Record<string, unknown>): { status: number; body: unknown } {
    return this.api.quoteAnswer(q);
  }

  /** The answer of `GET /v1/sell/quotes` to a query, apart from authentication and faults (bench/lib/quote-front.ts). */
  sellQuoteAnswer(q: Record<string, unknown>): { status: number; body: unknown } {
    return this.sellApi.quoteAnswer(q);
  }
}
