import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import { providerOrderMadeAt, type CheckoutActionDraw, type SimulatorFaults } from '../kit/faults';
import { quote } from '../kit/pricing';
import { apiError } from './api';
import type { OnrampMoneyLifecycle } from './lifecycle';
import type { OnrampMoneySimulatorOptions } from './options';
import { FIAT_TYPES, ONRAMP_MONEY_PROFILE, PAYMENT_TYPES } from './profile';
import { allowedActions, endedUnpaid, latestOf, nextOrderId, stepsFor, type SimTransaction } from './transactions';
import { transactionRecord } from './views';

const WIDGET_PARAMS = ['walletAddress', 'coinCode', 'network', 'fiatAmount', 'fiatType', 'merchantRecognitionId'] as const;
type WidgetQuery = Record<(typeof WIDGET_PARAMS)[number], string> & { paymentMethod?: string };

/**
 * The hosted widget (https://onramp.money/main/buy/?appId=...): its query pre-fills the purchase,
 * and going through it creates the transaction; the page's buttons play the customer.
 */
export class OnrampMoneyCheckout {
  readonly router = express.Router();
  private readonly profile = ONRAMP_MONEY_PROFILE;

  constructor(
    private readonly transactions: Map<string, SimTransaction>,
    private readonly lifecycle: OnrampMoneyLifecycle,
    private readonly options: Pick<OnrampMoneySimulatorOptions, 'publicUrl' | 'credentials' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/main/buy', (req, res) => this.widgetPage(req, res));
    this.router.post('/main/buy', express.json({ limit: '16kb' }), (req, res) => this.widgetAction(req, res));
  }

  private checkWidgetUrl(req: Request, res: Response, asJson: boolean): WidgetQuery | undefined {
    const q = req.query as Record<string, unknown>;
    const refuse = (status: number, message: string) => {
      if (asJson) apiError(res, status, message);
      else res.status(status).type('text/plain').send(message);
      return undefined;
    };
    if (q.appId !== this.options.credentials.appId) return refuse(403, 'Unknown appId');
    const missing = WIDGET_PARAMS.filter((k) => typeof q[k] !== 'string' || q[k] === '');
    if (missing.length > 0) return refuse(400, `Missing ${missing.join(', ')}`);
    return q as WidgetQuery;
  }

  /**
   * The first pass through the widget creates the transaction (status 0); later visits show it,
   * until it ends unpaid (timed out or abandoned): a pass after that creates another transaction
   * under the same merchantRecognitionId.
   */
  private openTransaction(query: WidgetQuery): SimTransaction | string {
    const widgetTerms = JSON.stringify([
      query.walletAddress,
      query.coinCode,
      query.network,
      query.fiatAmount,
      query.fiatType,
      query.paymentMethod,
    ]);
    const existing = latestOf(this.transactions.values(), query.merchantRecognitionId);
    if (existing && existing.widgetTerms !== widgetTerms) return 'merchantRecognitionId is already used by another transaction';
    if (existing && !endedUnpaid(existing)) return existing;
    const fiat = Object.keys(FIAT_TYPES).find((code) => String(FIAT_TYPES[code]) === query.fiatType);
    if (fiat === undefined) return `fiatType ${query.fiatType} is not supported`;
    const paymentType = Number(query.paymentMethod ?? '1');
    const method = this.profile.paymentMethods.find((m) => m.fiat?.includes(fiat) && PAYMENT_TYPES[m.code] === paymentType);
    if (!method) return `paymentMethod ${paymentType} is not offered for ${fiat}`;
    const priced = quote(this.profile, {
      fiat,
      crypto: query.coinCode.toUpperCase(),
      network: query.network,
      fiatAmount: query.fiatAmount,
      paymentMethod: method.code,
    });
    if (!priced.ok) return priced.message;
    const now = new Date();
    const tx: SimTransaction = {
      orderId: nextOrderId(),
      merchantRecognitionId: query.merchantRecognitionId,
      widgetTerms,
      paymentMethod: method.code,
      walletAddress: query.walletAddress,
      coinCode: query.coinCode.toLowerCase(),
      network: query.network,
      fiatCurrency: fiat,
      fiatAmount: query.fiatAmount,
      expectedPrice: priced.price,
      expectedCryptoAmount: priced.cryptoAmount,
      onrampFee: priced.processingFee,
      gasFee: priced.networkFee,
      status: 0,
      webhookTrials: 0,
      createdAt: providerOrderMadeAt(this.faults),
      updatedAt: now,
    };
    this.transactions.set(String(tx.orderId), tx);
    this.options.log?.(`onramp_money order ${tx.orderId} created at ${this.options.publicUrl}/main/buy for ${tx.merchantRecognitionId}`);
    return tx;
  }

  private widgetPage(req: Request, res: Response): void {
    const query = this.checkWidgetUrl(req, res, false);
    if (!query) return;
    const tx = this.openTransaction(query);
    if (typeof tx === 'string') {
      res.status(400).type('text/plain').send(tx);
      return;
    }
    res.type('html').send(
      renderCheckoutPage({
        reference: tx.merchantRecognitionId,
        providerName: this.profile.name,
        status: `order ${tx.orderId}: ${tx.status}`,
        fiatAmount: tx.fiatAmount,
        fiatCurrency: tx.fiatCurrency,
        cryptoAmount: tx.expectedCryptoAmount,
        cryptoCurrency: tx.coinCode.toUpperCase(),
        network: tx.network,
        walletAddress: tx.walletAddress,
        paymentMethod: tx.paymentMethod,
        actions: allowedActions(tx),
      }),
    );
  }

  private widgetAction(req: Request, res: Response): void {
    const query = this.checkWidgetUrl(req, res, true);
    if (!query) return;
    const tx = this.openTransaction(query);
    if (typeof tx === 'string') return apiError(res, 400, tx);
    const asked = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = allowedActions(tx);
    if (typeof asked !== 'string' || !allowed.includes(asked)) {
      res.status(409).json({
        error: { code: 'invalid_action', message: `action ${String(asked)} is not possible now (${tx.status})`, allowed },
      });
      return;
    }
    const action = this.playedAction(asked, allowed);
    if (action) this.lifecycle.act(tx, action, stepsFor(tx, action)!);
    res.json({
      merchantRecognitionId: tx.merchantRecognitionId,
      orderId: tx.orderId,
      status: tx.status,
      transaction: transactionRecord(tx),
    });
  }
}
