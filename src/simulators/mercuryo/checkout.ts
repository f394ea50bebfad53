import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import { providerOrderMadeAt, type CheckoutActionDraw, type SimulatorFaults } from '../kit/faults';
import { quote } from '../kit/pricing';
import { apiError } from './api';
import type { MercuryoLifecycle } from './lifecycle';
import type { MercuryoSimulatorOptions } from './options';
import { MERCURYO_PROFILE } from './profile';
import { allowedActions, newPurchase, stepsFor, type SimPurchase } from './purchase';
import { clientIpForms, signWidget } from './signing';
import { transactionItem } from './views';

const WIDGET_PARAMS = ['address', 'merchant_transaction_id', 'signature', 'currency', 'network', 'fiat_currency', 'fiat_amount'] as const;
type WidgetQuery = Record<(typeof WIDGET_PARAMS)[number], string> & { payment_method?: string };

/**
 * The redirect widget (https://exchange.mercuryo.io/?widget_id=...): the signed widget URL opens the
 * purchase, and the page's buttons play the customer.
 */
export class MercuryoCheckout {
  readonly router = express.Router();
  private readonly profile = MERCURYO_PROFILE;

  constructor(
    private readonly purchases: Map<string, SimPurchase>,
    private readonly lifecycle: MercuryoLifecycle,
    private readonly options: Pick<MercuryoSimulatorOptions, 'publicUrl' | 'credentials' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/', (req, res) => this.widgetPage(req, res));
    this.router.post('/', express.json({ limit: '16kb' }), (req, res) => this.widgetAction(req, res));
  }

  /** Checks the widget URL as Mercuryo does; answers the refusal and returns undefined when it fails. */
  private checkWidgetUrl(req: Request, res: Response, asJson: boolean): WidgetQuery | undefined {
    const q = req.query as Record<string, unknown>;
    const refuse = (status: number, message: string) => {
      if (asJson) apiError(res, status, message);
      else res.status(status).type('text/plain').send(message);
      return undefined;
    };
    if (q.widget_id !== this.options.credentials.widgetId) return refuse(403, 'Widget not found');
    if (q.type !== 'buy') return refuse(400, 'Only type=buy is simulated');
    const missing = WIDGET_PARAMS.filter((k) => typeof q[k] !== 'string' || q[k] === '');
    if (missing.length > 0) return refuse(400, `Missing ${missing.join(', ')}`);
    const query = q as WidgetQuery;
    const signed = clientIpForms(req.socket.remoteAddress).some(
      (ip) => signWidget(query.address, this.options.credentials.secret, ip, query.merchant_transaction_id) === query.signature,
    );
    if (!signed) return refuse(403, 'Signature is invalid');
    return query;
  }

  /** The first open creates the purchase (Mercuryo's transaction); later opens show it. */
  private openPurchase(query: WidgetQuery): SimPurchase | string {
    const widgetTerms = JSON.stringify([query.address, query.currency, query.network, query.fiat_currency, query.fiat_amount]);
    const existing = this.purchases.get(query.merchant_transaction_id);
    if (existing) return existing.widgetTerms === widgetTerms ? existing : 'merchant_transaction_id is already used by another purchase';
    const paymentMethod = query.payment_method ?? 'card';
    const priced = quote(this.profile, {
      fiat: query.fiat_currency,
      crypto: query.currency,
      network: query.network,
      fiatAmount: query.fiat_amount,
      paymentMethod,
    });
    if (!priced.ok) return priced.message;
    const purchase = newPurchase(
      {
        merchantTransactionId: query.merchant_transaction_id,
        widgetTerms,
        paymentMethod,
        address: query.address,
        currency: query.currency,
        network: query.network,
        fiatCurrency: query.fiat_currency,
        fiatAmount: query.fiat_amount,
        cryptoAmount: priced.cryptoAmount,
      },
      providerOrderMadeAt(this.faults),
    );
    this.purchases.set(query.merchant_transaction_id, purchase);
    this.options.log?.(
      `mercuryo purchase ${purchase.transactionId} opened at ${this.options.publicUrl}/ for ${purchase.merchantTransactionId}`,
    );
    this.lifecycle.opened(purchase);
    return purchase;
  }

  private widgetPage(req: Request, res: Response): void {
    const query = this.checkWidgetUrl(req, res, false);
    if (!query) return;
    const purchase = this.openPurchase(query);
    if (typeof purchase === 'string') {
      res.status(400).type('text/plain').send(purchase);
      return;
    }
    const current = purchase.withdraw ? `withdraw: ${purchase.withdraw.status}` : `${purchase.paymentType}: ${purchase.payment.status}`;
    res.type('html').send(
      renderCheckoutPage({
        reference: query.merchant_transaction_id,
        providerName: this.profile.name,
        status: current,
        fiatAmount: purchase.fiatAmount,
        fiatCurrency: purchase.fiatCurrency,
        cryptoAmount: purchase.cryptoAmount,
        cryptoCurrency: purchase.currency,
        network: purchase.network,
        walletAddress: purchase.address,
        paymentMethod: purchase.paymentMethod,
        actions: allowedActions(purchase),
      }),
    );
  }

  private widgetAction(req: Request, res: Response): void {
    const query = this.checkWidgetUrl(req, res, true);
    if (!query) return;
    const purchase = this.openPurchase(query);
    if (typeof purchase === 'string') return apiError(res, 400, purchase);
    const asked = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = allowedActions(purchase);
    if (typeof asked !== 'string' || !allowed.includes(asked)) {
      const status = purchase.withdraw?.status ?? purchase.payment.status;
      res.status(409).json({
        error: { code: 'invalid_action', message: `action ${String(asked)} is not possible now (${status})`, allowed },
      });
      return;
    }
    const action = this.playedAction(asked, allowed);
    if (action) this.lifecycle.act(purchase, action, stepsFor(purchase, action)!);
    res.json(this.summary(purchase));
  }

  private summary(purchase: SimPurchase) {
    const leg = purchase.withdraw ? 'withdraw' : purchase.paymentType;
    return {
      merchant_transaction_id: purchase.merchantTransactionId,
      transaction_id: purchase.transactionId,
      type: leg,
      status: purchase.withdraw?.status ?? purchase.payment.status,
      operations: transactionItem(purchase, this.options.credentials.widgetId),
    };
  }
}
