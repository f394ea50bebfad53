/**
 * A local simulator of MoonPay's buy flow: its public currency, country and quote endpoints
 * (`apiKey` query), its transaction lookups (`Authorization: Api-Key <secret>`), the signed buy
 * widget URL (a page whose buttons play the customer) and `Moonpay-Signature-V2` webhooks.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { MoonpayCredentials } from '../../providers/moonpay/config';
import { renderCheckoutPage } from '../kit/checkout-page';
import { SimulatorBase } from '../kit/base';
import type { SimulatorFaults } from '../kit/faults';
import { quote, type QuoteResult } from '../kit/pricing';
import { countriesAnswer, cryptoCurrency, currenciesAnswer, fiatCurrency } from './catalogue';
import { MOONPAY_ASSETS, MOONPAY_PROFILE, type SimulatedAsset } from './profile';
import { checkWidgetQuery, moonpayWebhookSignature } from './signing';
import { ALLOWED_ACTIONS, isAction, plan, transactionJson, type MoonpaySimAction, type SimTransaction, type Step } from './transactions';

export interface MoonpaySimulatorOptions {
  /** The simulator's own base URL, e.g. http://127.0.0.1:4010/moonpay. */
  publicUrl: string;
  /** The broker's MoonPay webhook endpoint, e.g. http://127.0.0.1:3000/api/webhooks/moonpay. */
  brokerWebhookUrl: string;
  credentials: MoonpayCredentials;
  faults?: Partial<SimulatorFaults>;
  /** Between the automatic steps of an action (default 300 ms). */
  stepDelayMs?: number;
  log?: (message: string) => void;
}

type ErrorType = 'BadRequestError' | 'UnauthorizedError' | 'NotFoundError' | 'MoonPayApiError';

/** MoonPay's error body (`moonPayErrorCode`, `message`, `type`, `errors`). */
function moonpayError(res: Response, status: number, type: ErrorType, code: string, message: string): void {
  res.status(status).json({ moonPayErrorCode: code, message, type, errors: [] });
}

const DEFAULT_PAYMENT_METHOD = 'credit_debit_card';
const DECIMAL = /^\d+(\.\d+)?$/;

export class MoonpaySimulator extends SimulatorBase {
  readonly code = 'moonpay';
  readonly transactions = new Map<string, SimTransaction>();
  private readonly profile = MOONPAY_PROFILE;
  private readonly stepDelayMs: number;

  constructor(private readonly options: MoonpaySimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    this.stepDelayMs = options.stepDelayMs ?? 300;
    this.mount();
  }

  private mount(): void {
    const app = this.app;

    // The customer's widget: signed URL, no API faults.
    app.get('/widget', (req, res) => this.widgetPage(req, res));
    app.post('/widget', express.json({ limit: '8kb' }), (req, res) => this.widgetAction(req, res));

    const outage = (res: Response) => moonpayError(res, 503, 'MoonPayApiError', '1_SYS_UNKNOWN', 'Service Unavailable');
    for (const prefix of ['/v3', '/v1']) this.injectFaultsUnder(prefix, outage);

    app.get('/v3/currencies', this.publicKey(false), (_req, res) => void res.json(currenciesAnswer(this.profile)));
    app.get('/v3/countries', this.publicKey(false), (_req, res) => void res.json(countriesAnswer(this.profile)));
    app.get('/v3/currencies/:code/buy_quote', this.publicKey(true), (req, res) => this.buyQuote(req, res));
    app.get('/v1/transactions/ext/:externalTransactionId', this.secretKey(), (req, res) => this.byExternalId(req, res));
    app.get('/v1/transactions/:id', this.secretKey(), (req, res) => this.byId(req, res));
    app.use((_req: Request, res: Response) => moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Not Found'));
  }

  /** Public endpoints take the publishable key as `apiKey`; a wrong one is refused, a missing one where required. */
  private publicKey(required: boolean) {
    return (req: Request, res: Response, next: NextFunction) => {
      const apiKey = req.query.apiKey;
      if ((apiKey === undefined && !required) || apiKey === this.options.credentials.publishableKey) return next();
      moonpayError(res, 401, 'UnauthorizedError', '4_SYS_UNAUTHORIZED', apiKey === undefined ? 'Missing API key' : 'Invalid API key');
    };
  }

  private secretKey() {
    return (req: Request, res: Response, next: NextFunction) => {
      if (req.header('authorization') === `Api-Key ${this.options.credentials.secretKey}`) return next();
      moonpayError(res, 401, 'UnauthorizedError', '4_SYS_UNAUTHORIZED', 'Invalid secret key');
    };
  }

  private asset(code: string): SimulatedAsset | undefined {
    return MOONPAY_ASSETS.find((a) => a.code === code);
  }

  private price(asset: SimulatedAsset, fiat: string, amount: string, paymentMethod: string): QuoteResult {
    if (!asset.asset) return { ok: false, status: 400, code: 'unsupported_asset', message: `${asset.code} cannot be bought right now` };
    const [crypto = '', network = ''] = asset.asset.split('/');
    return quote(this.profile, { fiat, crypto, network, fiatAmount: amount, paymentMethod });
  }

  private buyQuote(req: Request, res: Response): void {
    const asset = this.asset(String(req.params.code));
    if (!asset) return moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Currency not found');
    const q = req.query;
    const baseCode = typeof q.baseCurrencyCode === 'string' ? q.baseCurrencyCode : '';
    const amount = typeof q.baseCurrencyAmount === 'string' ? q.baseCurrencyAmount : '';
    if (baseCode === '' || !DECIMAL.test(amount)) {
      return moonpayError(
        res,
        400,
        'BadRequestError',
        '4_SYS_BAD_REQUEST',
        'baseCurrencyCode and a numeric baseCurrencyAmount are required',
      );
    }
    const paymentMethod = typeof q.paymentMethod === 'string' ? q.paymentMethod : DEFAULT_PAYMENT_METHOD;
    const fiat = baseCode.toUpperCase();
    const priced = this.price(asset, fiat, amount, paymentMethod);
    if (!priced.ok) return moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', priced.message);
    const feesIncluded = q.areFeesIncluded === 'true';
    const fees = new BigNumber(priced.processingFee).plus(priced.networkFee);
    // With fees included the amount is what the customer pays; otherwise the fees come on top of it.
    const base = feesIncluded ? new BigNumber(amount).minus(fees) : new BigNumber(amount);
    const cryptoAmount = feesIncluded ? priced.cryptoAmount : base.div(priced.price).decimalPlaces(8, BigNumber.ROUND_DOWN).toFixed();
    const expiresAt = new Date(Date.now() + this.profile.quoteTtlSeconds * 1000);
    res.json({
      baseCurrencyCode: fiat.toLowerCase(),
      baseCurrencyAmount: base.toNumber(),
      quoteCurrencyCode: asset.code,
      quoteCurrencyAmount: Number(cryptoAmount),
      quoteCurrencyPrice: Number(priced.price),
      paymentMethod,
      feeAmount: Number(priced.processingFee),
      extraFeePercentage: 0,
      extraFeeAmount: 0,
      networkFeeAmount: Number(priced.networkFee),
      networkFeeAmountNonRefundable: false,
      totalAmount: base.plus(fees).toNumber(),
      areFeesIncluded: feesIncluded,
      baseCurrency: fiatCurrency(this.profile, fiat),
      quoteCurrency: cryptoCurrency(asset),
      externalId: null,
      expiresIn: this.profile.quoteTtlSeconds,
      expiresAt: expiresAt.toISOString(),
    });
  }

  private byExternalId(req: Request, res: Response): void {
    const externalId = String(req.params.externalTransactionId);
    const found = [...this.transactions.values()].filter((tx) => tx.externalTransactionId === externalId);
    if (found.length === 0) return moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Transaction not found');
    res.json(found.map((tx) => transactionJson(tx, this.profile)));
  }

  private byId(req: Request, res: Response): void {
    const tx = [...this.transactions.values()].find((t) => t.id === req.params.id);
    if (!tx) return moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Transaction not found');
    res.json(transactionJson(tx, this.profile));
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

    const asset = this.asset(params.get('currencyCode') ?? '');
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
    const priced = this.price(asset, fiat, amount, paymentMethod);
    if (!priced.ok) {
      moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', priced.message);
      return undefined;
    }
    const now = new Date().toISOString();
    const tx: SimTransaction = {
      id: randomUUID(),
      session,
      run: 0,
      createdAt: now,
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
    this.emit(tx, 'transaction_created');
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
    if (action === 'pay') this.payAsSwitched(tx);
    this.play(tx, action);
    res.json(transactionJson(tx, this.profile));
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the transaction's; the fees stay as priced. */
  private payAsSwitched(tx: SimTransaction): void {
    const { paidFiatAmount, paidFiatCurrency, paidWalletAddress } = this.faults;
    if (paidFiatCurrency) tx.fiat = paidFiatCurrency.toUpperCase();
    if (paidWalletAddress) tx.walletAddress = paidWalletAddress;
    if (paidFiatAmount) {
      tx.totalAmount = paidFiatAmount;
      tx.baseCurrencyAmount = new BigNumber(paidFiatAmount).minus(tx.feeAmount).minus(tx.networkFeeAmount).toFixed();
    }
  }

  /** The action's first status change now, each further one `stepDelayMs` later, unless another action intervenes. */
  private play(tx: SimTransaction, action: MoonpaySimAction): void {
    const run = ++tx.run;
    const [first, ...rest] = plan(action, tx.status);
    const next = (steps: Step[]) => {
      const [step, ...later] = steps;
      if (!step) return;
      this.timers.later(() => {
        if (tx.run !== run) return;
        this.apply(tx, step);
        next(later);
      }, this.stepDelayMs);
    };
    if (first) this.apply(tx, first);
    next(rest);
  }

  private apply(tx: SimTransaction, step: Step): void {
    tx.status = step.status;
    tx.failure = step.failure;
    tx.updatedAt = new Date().toISOString();
    if (step.status === 'completed') tx.cryptoTransactionId = `0x${randomBytes(32).toString('hex')}`;
    this.options.log?.(`moonpay transaction ${tx.id} -> ${tx.status}`);
    this.emit(tx, step.status === 'failed' ? 'transaction_failed' : 'transaction_updated');
  }

  private emit(tx: SimTransaction, type: 'transaction_created' | 'transaction_updated' | 'transaction_failed'): void {
    const body = JSON.stringify({ type, data: transactionJson(tx, this.profile) });
    this.webhooks.send({
      orderKey: tx.id,
      status: tx.status,
      eventId: randomUUID(),
      body,
      headers: {
        'Moonpay-Signature-V2': moonpayWebhookSignature(this.options.credentials.webhookKey, body, Math.floor(Date.now() / 1000)),
      },
    });
  }
}

export function createMoonpaySimulator(options: MoonpaySimulatorOptions): MoonpaySimulator {
  return new MoonpaySimulator(options);
}
