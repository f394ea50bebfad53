import BigNumber from 'bignumber.js';
import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import { providerOrderMadeAt, type CheckoutActionDraw, type SimulatorFaults } from '../kit/faults';
import { priceBuy, refuse } from './api';
import type { RevolutLifecycle } from './lifecycle';
import { CHECKOUT_ACTIONS, orderJson, type BuyRequest, type CheckoutAction, type RevolutSimOrder } from './orders';
import { findCrypto, REVOLUT_PROFILE } from './profile';

const URL_PARAMS = ['fiatCurrency', 'amount', 'cryptoCurrency', 'walletAddress', 'countryCode', 'externalOrderId'] as const;

/**
 * The Revolut Ramp web app behind a redirect URL (https://ramp.revolut.com/?…): opening it starts
 * the purchase (Revolut's order, `ORDER_CREATED`), and the page's buttons play the customer. The URL
 * is not signed: the order is made of what it says (`amount` in minor units), with the payment
 * option `/buy` was asked for.
 */
export class RevolutCheckout {
  readonly router = express.Router();

  constructor(
    private readonly orders: Map<string, RevolutSimOrder>,
    private readonly buys: ReadonlyMap<string, BuyRequest>,
    private readonly lifecycle: RevolutLifecycle,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly playedAction: CheckoutActionDraw,
    private readonly log?: (message: string) => void,
  ) {
    this.router.get('/widget', (req, res) => this.page(req, res));
    this.router.post('/widget', express.json({ limit: '8kb' }), (req, res) => this.action(req, res));
  }

  /** The order the URL opens: the one already started under its external id, or a new one. */
  private open(req: Request, res: Response): RevolutSimOrder | undefined {
    const q = req.query as Record<string, unknown>;
    const missing = URL_PARAMS.filter((k) => typeof q[k] !== 'string' || q[k] === '');
    if (missing.length > 0) return void refuse(res, 400, `Invalid field '${missing[0]}'`);
    const id = q.externalOrderId as string;
    const existing = this.orders.get(id);
    if (existing) return existing;
    const buy = this.buys.get(id);
    if (!buy) return void refuse(res, 404, 'Not found');
    if (!/^\d+$/.test(q.amount as string)) return void refuse(res, 400, "Invalid field 'amount'");
    const fiat = q.fiatCurrency as string;
    const total = new BigNumber(q.amount as string).div(100).toFixed(2);
    const cryptoId = q.cryptoCurrency as string;
    const priced = priceBuy(fiat, total, cryptoId, buy.payment, q.countryCode as string, buy.feePercentage);
    if (typeof priced === 'string') return void refuse(res, 400, priced);
    const now = new Date();
    const order: RevolutSimOrder = {
      id,
      fiatCurrency: fiat,
      total,
      ...priced,
      cryptoId,
      payment: buy.payment,
      wallet: q.walletAddress as string,
      status: 'AWAITING_PAYMENT',
      additionalProperties: buy.additionalProperties,
      createdAt: providerOrderMadeAt(this.faults),
      updatedAt: now,
    };
    this.orders.set(id, order);
    this.log?.(`revolut order ${id} created`);
    this.lifecycle.created(order);
    return order;
  }

  private page(req: Request, res: Response): void {
    const order = this.open(req, res);
    if (!order) return;
    const crypto = findCrypto(order.cryptoId);
    res.type('html').send(
      renderCheckoutPage({
        reference: order.id,
        providerName: `${REVOLUT_PROFILE.name} (simulator)`,
        status: order.status,
        fiatAmount: order.total,
        fiatCurrency: order.fiatCurrency,
        cryptoAmount: order.cryptoAmount,
        cryptoCurrency: crypto?.currency ?? order.cryptoId,
        network: crypto?.blockchain ?? '',
        walletAddress: order.wallet,
        paymentMethod: REVOLUT_PROFILE.paymentMethods.find((m) => m.code === order.payment)?.name ?? order.payment,
        actions: this.lifecycle.allowedActions(order),
      }),
    );
  }

  private action(req: Request, res: Response): void {
    const order = this.open(req, res);
    if (!order) return;
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = this.lifecycle.allowedActions(order);
    if (typeof action !== 'string' || !CHECKOUT_ACTIONS.includes(action as CheckoutAction) || !allowed.includes(action as CheckoutAction)) {
      res.status(409).json({
        error: { code: 'invalid_action', message: `action ${String(action)} is not possible while the order is ${order.status}`, allowed },
      });
      return;
    }
    const played = this.playedAction(action as CheckoutAction, allowed);
    if (played) this.lifecycle.act(order, played);
    res.json(orderJson(order));
  }
}
