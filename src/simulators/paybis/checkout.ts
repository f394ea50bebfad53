import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import type { CheckoutActionDraw } from '../kit/faults';
import { refuse } from './api';
import type { PaybisLifecycle } from './lifecycle';
import { currentTransaction, type CheckoutAction, type PaybisSimRequest } from './orders';
import { PAYBIS_PROFILE, tickerOfCode } from './profile';

/** The widget, opened with `?requestId=`: the customer's page, whose buttons drive the request's transaction. */
export class PaybisCheckout {
  readonly router = express.Router();

  constructor(
    private readonly requests: ReadonlyMap<string, PaybisSimRequest>,
    private readonly lifecycle: PaybisLifecycle,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/widget', (req, res) => this.page(req, res));
    this.router.post('/widget', (req, res) => this.action(req, res));
  }

  private requestOf(req: Request): PaybisSimRequest | undefined {
    const id = req.query.requestId;
    return typeof id === 'string' ? this.requests.get(id) : undefined;
  }

  private page(req: Request, res: Response): void {
    const request = this.requestOf(req);
    if (!request) {
      res.status(404).type('text/plain').send('Unknown Paybis request');
      return;
    }
    const tx = currentTransaction(request);
    res.type('html').send(
      renderCheckoutPage({
        reference: tx?.invoice ?? request.requestId,
        providerName: PAYBIS_PROFILE.name,
        status: tx?.status ?? 'not started',
        fiatAmount: request.fiatAmount,
        fiatCurrency: request.fiat,
        cryptoAmount: request.quote.cryptoAmount,
        cryptoCurrency: tickerOfCode(request.quote.code) ?? request.quote.code,
        network: request.quote.code,
        walletAddress: request.walletAddress,
        paymentMethod: request.quote.paymentMethodName,
        actions: this.lifecycle.allowedActions(request),
      }),
    );
  }

  private action(req: Request, res: Response): void {
    const request = this.requestOf(req);
    if (!request) return refuse(res, 404, 'NOT_FOUND', 'Request not found');
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = this.lifecycle.allowedActions(request);
    if (typeof action !== 'string' || !allowed.includes(action as CheckoutAction)) {
      res.status(409).json({
        error: {
          code: 'invalid_action',
          message: `action ${String(action)} is not possible while the transaction is ${currentTransaction(request)?.status ?? 'not started'}`,
          allowed,
        },
      });
      return;
    }
    const played = this.playedAction(action as CheckoutAction, allowed);
    if (played) this.lifecycle.act(request, played);
    res.json({ requestId: request.requestId, status: currentTransaction(request)?.status ?? null });
  }
}
