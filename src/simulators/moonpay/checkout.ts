import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import { providerOrderMadeAt, type CheckoutActionDraw, type SimulatorFaults } from '../kit/faults';
import { DECIMAL, DEFAULT_PAYMENT_METHOD, findAsset, moonpayError, price } from './api';
import type { MoonpayLifecycle } from './lifecycle';
import type { MoonpaySimulatorOptions } from './options';
import { MOONPAY_PROFILE } from './profile';
import { checkWidgetQuery } from './signing';
import { ALLOWED_ACTIONS, isAction, transactionJson, type SimTransaction } from './transactions';

/** The buy widget: a signed URL opens the transaction, and the page's buttons play the customer. */
export class MoonpayCheckout {
  readonly router = express.Router();

  constructor(
    private readonly transactions: Map<string, SimTransaction>,
    private readonly lifecycle: MoonpayLifecycle,
    private readonly options: Pick<MoonpaySimulatorOptions, 'credentials' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/widget', (req, res) => this.widgetPage(req, res));
    this.router.post('/widget', express.json({ limit: '8kb' }), (req, res) => this.widgetAction(req, res));
  }

  /**
   * The transaction behind a widget URL: the URL must carry our publishable key and a valid
   * signature; the first visit creates the transaction (MoonPay's `transaction_created`).
   */
  private session(req: Request, res: Response): SimTransaction | undefined {
    const at = req.originalUrl.indexOf('?');
    const check = checkWidgetQuery(this.options.credentials.secretKey, at < 0 ? '' : req.originalUrl.slice(at));
    if (!check.ok) {
      moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', check.message);
      return undefined;
    }
    const params = check.params;
    if (params.get('apiKey') !== this.options.credentials.publishableKey) {
      moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', 'Invalid API key');
      return undefined;
    }
    const session = params.toString();
    const existing = [...this.transactions.values()].find((tx) => tx.session === session);
    if (existing) return existing;

    const asset = findAsset(params.get('currencyCode') ?? '');
    const fiat = (params.get('baseCurrencyCode') ?? '').toUpperCase();
    const amount = params.get('baseCurrencyAmount') ?? '';
    const walletAddress = params.get('walletAddress') ?? '';
    const paymentMethod = params.get('paymentMethod') ?? DEFAULT_PAYMENT_METHOD;
    if (!asset || fiat === '' || !DECIMAL.test(amount) || walletAddress === '') {
      moonpayError(
        res,
        400,
        'BadRequestError',
        '4_SYS_BAD_REQUEST',
        'currencyCode, baseCurrencyCode, baseCurrencyAmount and walletAddress are required',
      );
      return undefined;
    }
    const priced = price(asset, fiat, amount, paymentMethod);
    if (!priced.ok) {
      moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', priced.message);
      return undefined;
    }
    const now = new Date().toISOString();
    const tx: SimTransaction = {
      id: randomUUID(),
      session,
      createdAt: providerOrderMadeAt(this.faults).toISOString(),
      updatedAt: now,
      status: 'waitingPayment',
      externalTransactionId: params.get('externalTransactionId'),
      externalCustomerId: params.get('externalCustomerId'),
      customerId: randomUUID(),
      walletAddress,
      asset,
      fiat,
      totalAmount: amount,
      baseCurrencyAmount: new BigNumber(amount).minus(priced.processingFee).minus(priced.networkFee).toFixed(),
      quoteCurrencyAmount: priced.cryptoAmount,
      feeAmount: priced.processingFee,
      networkFeeAmount: priced.networkFee,
      paymentMethod,
      widgetRedirectUrl: params.get('redirectURL'),
      cryptoTransactionId: null,
    };
    this.transactions.set(tx.id, tx);
    this.options.log?.(`moonpay transaction ${tx.id} created for ${tx.externalTransactionId ?? '(no external id)'}`);
    this.lifecycle.created(tx);
    return tx;
  }

  private widgetPage(req: Request, res: Response): void {
    const tx = this.session(req, res);
    if (!tx) return;
    const [ticker = tx.asset.code, network = ''] = (tx.asset.asset ?? '').split('/');
    res.type('html').send(
      renderCheckoutPage({
        reference: tx.id,
        providerName: 'MoonPay (simulator)',
        status: tx.status,
        fiatAmount: tx.totalAmount,
        fiatCurrency: tx.fiat,
        cryptoAmount: tx.quoteCurrencyAmount,
        cryptoCurrency: ticker,
        network,
        walletAddress: tx.walletAddress,
        paymentMethod: tx.paymentMethod,
        actions: ALLOWED_ACTIONS[tx.status],
      }),
    );
  }

  private widgetAction(req: Request, res: Response): void {
    const tx = this.session(req, res);
    if (!tx) return;
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = ALLOWED_ACTIONS[tx.status];
    if (!isAction(action) || !allowed.includes(action)) {
      res.status(409).json({
        error: { code: 'action_not_allowed', message: `${String(action)} is not possible while the transaction is ${tx.status}`, allowed },
      });
      return;
    }
    const played = this.playedAction(action, allowed);
    if (played) this.lifecycle.act(tx, played);
    res.json(transactionJson(tx, MOONPAY_PROFILE));
  }
}
