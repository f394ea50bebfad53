import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import type { CheckoutActionDraw } from '../kit/faults';
import type { SandboxLifecycle } from './lifecycle';
import { ACTIONS_BY_STATUS, sandboxError as error, type SimOrder } from './orders';

/** The customer's checkout page, whose buttons drive the order; it needs no API key. */
export class SandboxCheckout {
  readonly router = express.Router();

  constructor(
    private readonly orders: ReadonlyMap<string, SimOrder>,
    private readonly lifecycle: SandboxLifecycle,
    private readonly providerName: string,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/checkout/:id', (req, res) => this.checkoutPage(req, res));
    this.router.post('/checkout/:id', express.json({ limit: '64kb' }), (req, res) => this.checkoutAction(req, res));
  }

  private checkoutPage(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).type('text/plain').send('Unknown checkout session');
      return;
    }
    this.lifecycle.reachedPayment(order);
    res.type('html').send(
      renderCheckoutPage({
        reference: order.id,
        providerName: this.providerName,
        status: order.status,
        fiatAmount: order.fiat_amount,
        fiatCurrency: order.fiat_currency,
        cryptoAmount: order.crypto_amount,
        cryptoCurrency: order.crypto_currency,
        network: order.network,
        walletAddress: order.wallet_address,
        paymentMethod: order.payment_method,
        actions: ACTIONS_BY_STATUS[order.status],
      }),
    );
  }

  private checkoutAction(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).json(error('not_found', 'no such order'));
      return;
    }
    const action = (req.body as { action?: unknown } | undefined)?.action;
    if (typeof action !== 'string' || !ACTIONS_BY_STATUS[order.status].includes(action)) {
      res.status(409).json(
        error('invalid_action', `action ${String(action)} is not possible while the order is ${order.status}`, {
          allowed: ACTIONS_BY_STATUS[order.status],
        }),
      );
      return;
    }
    const played = this.playedAction(action, ACTIONS_BY_STATUS[order.status]);
    if (played) this.lifecycle.act(order, played);
    res.json(order);
  }
}
