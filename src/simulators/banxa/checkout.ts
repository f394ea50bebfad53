import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import type { CheckoutActionDraw } from '../kit/faults';
import { refuse } from './api';
import type { BanxaLifecycle } from './lifecycle';
import { orderView, type BanxaSimOrder, type CheckoutAction } from './orders';
import { BANXA_PROFILE } from './profile';
import type { BanxaSellLifecycle } from './sell-lifecycle';
import { isBanxaSellAction, sellOrderView, type BanxaSimSellOrder } from './sell-orders';

/** The customer's pages: the one-time checkout link and the order's status page, whose buttons drive the order. */
export class BanxaCheckout {
  readonly router = express.Router();

  constructor(
    private readonly orders: ReadonlyMap<string, BanxaSimOrder>,
    private readonly lifecycle: BanxaLifecycle,
    private readonly publicUrl: string,
    private readonly playedAction: CheckoutActionDraw,
    private readonly sellOrders: ReadonlyMap<string, BanxaSimSellOrder>,
    private readonly sellLifecycle: BanxaSellLifecycle,
  ) {
    this.router.get(['/checkout/:id', '/status/:id'], (req, res) => this.page(req, res));
    this.router.post(['/checkout/:id', '/status/:id'], (req, res) => this.action(req, res));
  }

  private page(req: Request, res: Response): void {
    const sold = this.sellOrders.get(String(req.params.id));
    if (sold) return this.sellPage(sold, res);
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).type('text/plain').send('Unknown Banxa order');
      return;
    }
    res.type('html').send(
      renderCheckoutPage({
        reference: String(order.reference),
        providerName: BANXA_PROFILE.name,
        status: order.status,
        fiatAmount: order.fiatAmount,
        fiatCurrency: order.fiat,
        cryptoAmount: order.cryptoAmount,
        cryptoCurrency: order.coin,
        network: order.blockchain,
        walletAddress: order.walletAddress,
        paymentMethod: order.paymentMethodName,
        actions: this.lifecycle.allowedActions(order),
      }),
    );
  }

  /** A sell order's page: once it is ready to receive crypto, where to send it. */
  private sellPage(order: BanxaSimSellOrder, res: Response): void {
    const view = sellOrderView(order, this.publicUrl);
    res.type('html').send(
      renderCheckoutPage({
        reference: String(order.reference),
        providerName: BANXA_PROFILE.name,
        status: order.status,
        fiatAmount: order.fiatAmount,
        fiatCurrency: order.fiat,
        cryptoAmount: order.cryptoAmount,
        cryptoCurrency: order.coin,
        network: order.blockchain,
        walletAddress: view.walletAddress ?? '(shown once the order is ready)',
        paymentMethod: order.paymentMethodName,
        actions: this.sellLifecycle.allowedActions(order),
      }),
    );
  }

  private sellAction(order: BanxaSimSellOrder, action: unknown, res: Response): void {
    const allowed = this.sellLifecycle.allowedActions(order);
    if (!isBanxaSellAction(action) || !allowed.includes(action)) {
      res.status(409).json({
        error: { code: 'invalid_action', message: `action ${String(action)} is not possible while the order is ${order.status}`, allowed },
      });
      return;
    }
    const played = this.playedAction(action, allowed);
    if (played) this.sellLifecycle.act(order, played);
    res.json(sellOrderView(order, this.publicUrl));
  }

  private action(req: Request, res: Response): void {
    const sold = this.sellOrders.get(String(req.params.id));
    if (sold) return this.sellAction(sold, (req.body as { action?: unknown } | undefined)?.action, res);
    const order = this.orders.get(String(req.params.id));
    if (!order) return refuse(res, 404, 1, 'Order not found');
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = this.lifecycle.allowedActions(order);
    if (typeof action !== 'string' || !allowed.includes(action as CheckoutAction)) {
      res.status(409).json({
        error: { code: 'invalid_action', message: `action ${String(action)} is not possible while the order is ${order.status}`, allowed },
      });
      return;
    }
    const played = this.playedAction(action as CheckoutAction, allowed);
    if (played) this.lifecycle.act(order, played);
    res.json(orderView(order, this.publicUrl));
  }
}
