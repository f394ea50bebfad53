import express, { type Request, type Response } from 'express';
import { renderSellCheckoutPage } from '../kit/checkout-page';
import type { CheckoutActionDraw } from '../kit/faults';
import { sandboxError as error } from './orders';
import type { SandboxSellLifecycle } from './sell-lifecycle';
import { SELL_ACTIONS_BY_STATUS, type SimSellOrder } from './sell-orders';

const AMOUNT = /^\d{1,30}(\.\d{1,30})?$/;

/**
 * The sell order's checkout page (`GET /sell/checkout/{id}`): the deposit address, memo, amount and
 * window; its buttons play what the customer does with the crypto (`POST` with `{"action": …}`,
 * and `wrong_amount` an optional `"amount"`). It needs no API key.
 */
export class SandboxSellCheckout {
  readonly router = express.Router();

  constructor(
    private readonly orders: ReadonlyMap<string, SimSellOrder>,
    private readonly lifecycle: SandboxSellLifecycle,
    private readonly providerName: string,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/sell/checkout/:id', (req, res) => this.checkoutPage(req, res));
    this.router.post('/sell/checkout/:id', express.json({ limit: '64kb' }), (req, res) => this.checkoutAction(req, res));
  }

  private checkoutPage(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).type('text/plain').send('Unknown checkout session');
      return;
    }
    res.type('html').send(
      renderSellCheckoutPage({
        reference: order.id,
        providerName: this.providerName,
        status: order.status,
        cryptoAmount: order.deposit.amount,
        cryptoCurrency: order.crypto_currency,
        network: order.network,
        depositAddress: order.deposit.address,
        ...(order.deposit.memo === undefined ? {} : { depositMemo: order.deposit.memo }),
        depositExpiresAt: order.deposit.expires_at,
        fiatAmount: order.fiat_amount,
        fiatCurrency: order.fiat_currency,
        payoutMethod: order.payout_method,
        refundAddress: order.refund_address,
        actions: SELL_ACTIONS_BY_STATUS[order.status],
      }),
    );
  }

  private checkoutAction(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).json(error('not_found', 'no such order'));
      return;
    }
    const body = (req.body ?? {}) as { action?: unknown; amount?: unknown };
    const { action, amount } = body;
    const allowed = SELL_ACTIONS_BY_STATUS[order.status];
    if (typeof action !== 'string' || !allowed.includes(action)) {
      res
        .status(409)
        .json(error('invalid_action', `action ${String(action)} is not possible while the order is ${order.status}`, { allowed }));
      return;
    }
    if (amount !== undefined && (action !== 'wrong_amount' || typeof amount !== 'string' || !AMOUNT.test(amount) || Number(amount) <= 0)) {
      res.status(400).json(error('invalid_request', 'amount is a positive decimal string, for wrong_amount only'));
      return;
    }
    const played = this.playedAction(action, allowed);
    if (played) this.lifecycle.act(order, played, typeof amount === 'string' ? { amount } : {});
    res.json(order);
  }
}
