/**
 * A local simulator of Mercuryo's Widget Partner API v1.6 and of its redirect widget: public
 * catalogue, limit and rate endpoints (`widget_id`), the transaction lookup (`Sdk-Partner-Token`),
 * the signed widget URL (v2 signature), and `X-Signature` callbacks for every operation status.
 */
import { randomBytes } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import { iso31661Alpha2ToAlpha3 } from 'iso-3166';
import type { MercuryoSimulatorCredentials } from '../../providers/mercuryo/config';
import { renderCheckoutPage } from '../kit/checkout-page';
import { SimulatorBase } from '../kit/base';
import type { SimulatorFaults } from '../kit/faults';
import { FIAT_PER_USD, USD_PRICE } from '../kit/market';
import { methodLimits, quote } from '../kit/pricing';
import { MERCURYO_PROFILE } from './profile';
import { allowedActions, mercuryoId, newPurchase, stepsFor, type SimPurchase, type Step } from './purchase';
import { clientIpForms, signCallback, signWidget } from './signing';
import { callbackBody, transactionItem } from './views';

export interface MercuryoSimulatorOptions {
  /** The simulator's own base URL, e.g. http://127.0.0.1:4010/mercuryo. */
  publicUrl: string;
  /** The broker's POST /api/webhooks/mercuryo (the widget's Callback URL). */
  brokerWebhookUrl: string;
  credentials: MercuryoSimulatorCredentials;
  faults?: Partial<SimulatorFaults>;
  /** Pause between automatic status steps; 300 ms by default. */
  stepDelayMs?: number;
  log?: (message: string) => void;
}

const WIDGET_PARAMS = ['address', 'merchant_transaction_id', 'signature', 'currency', 'network', 'fiat_currency', 'fiat_amount'] as const;
type WidgetQuery = Record<(typeof WIDGET_PARAMS)[number], string> & { payment_method?: string };

const apiError = (res: Response, status: number, message: string, code = status * 100) =>
  void res.status(status).json({ status, code, message, data: null });

/** Mercuryo-style codes of the simulator's refusals (its own numbering). */
const REFUSAL_CODES: Readonly<Record<string, number>> = {
  unsupported_fiat: 40010,
  unsupported_asset: 40011,
  unsupported_payment_method: 40012,
  amount_out_of_range: 40020,
};

export class MercuryoSimulator extends SimulatorBase {
  readonly code = 'mercuryo';
  /** Purchases by merchant_transaction_id (the broker's order id). */
  readonly purchases = new Map<string, SimPurchase>();
  private readonly profile = MERCURYO_PROFILE;
  private readonly stepDelayMs: number;

  constructor(private readonly options: MercuryoSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    this.stepDelayMs = options.stepDelayMs ?? 300;
    this.routes();
  }

  private routes(): void {
    const app = this.app;
    // The widget (https://exchange.mercuryo.io/?widget_id=...): the customer's page, no fault injection.
    app.get('/', (req, res) => this.widgetPage(req, res));
    app.post('/', express.json({ limit: '16kb' }), (req, res) => this.widgetAction(req, res));

    this.injectFaultsUnder('/v1.6', (res) => apiError(res, 503, 'Service temporarily unavailable'));
    app.get('/v1.6/lib/currencies', this.widget(false), (_req, res) => this.currencies(res));
    app.get('/v1.6/public/card-countries', this.widget(false), (req, res) => this.countries(req, res));
    app.get('/v1.6/public/currency-limits', this.widget(true), (req, res) => this.limits(req, res));
    app.get('/v1.6/widget/buy/rate', this.widget(true), (req, res) => this.rate(req, res));
    app.get('/v1.6/sdk-partner/transactions', (req, res) => this.transactions(req, res));
    app.use((_req: Request, res: Response) => apiError(res, 404, 'Not found'));
  }

  /** Public calls name the partner's widget; an unknown one is refused. */
  private widget(required: boolean) {
    return (req: Request, res: Response, next: NextFunction) => {
      const id = req.query.widget_id;
      if (id === undefined && !required) return next();
      if (id !== this.options.credentials.widgetId) return apiError(res, 403, 'Widget not found');
      next();
    };
  }

  private currencies(res: Response): void {
    const assets = this.profile.assets.map((a) => a.split('/') as [string, string]);
    const methods = (fiat: string) =>
      this.profile.paymentMethods
        .filter((m) => !m.fiat || m.fiat.includes(fiat))
        .flatMap((m) =>
          m.code === 'card'
            ? [
                { code: 'card', name: 'Visa' },
                { code: 'card', name: 'Mastercard' },
              ]
            : [{ code: m.code, name: m.name }],
        );
    const card = this.profile.paymentMethods[0]!;
    res.json({
      status: 200,
      data: {
        fiat: this.profile.fiat,
        crypto: [...new Set(assets.map(([ticker]) => ticker))],
        config: {
          crypto_currencies: assets.map(([currency, network]) => ({ currency, network, network_label: network, contract: '' })),
        },
        fiat_payment_methods: Object.fromEntries(
          this.profile.fiat.map((fiat) => {
            const { min, max } = methodLimits(card, fiat);
            return [fiat, { payment_methods: methods(fiat), limits: { min: min.toFixed(), max: max.toFixed() } }];
          }),
        ),
      },
    });
  }

  private countries(req: Request, res: Response): void {
    const alpha2 = req.query.type === 'alpha2';
    res.json({
      status: 200,
      data: this.profile.countries.map((c) => (alpha2 ? c : (iso31661Alpha2ToAlpha3[c] ?? c)).toLowerCase()),
    });
  }

  private limits(req: Request, res: Response): void {
    const { from = '', to = '' } = req.query as Record<string, string | undefined>;
    const price = USD_PRICE[to];
    if (req.query.type !== 'buy') return apiError(res, 400, 'Only type=buy is simulated');
    if (!this.profile.fiat.includes(from) || price === undefined || !this.profile.assets.some((a) => a.startsWith(`${to}/`))) {
      return apiError(res, 400, `Currency pair ${from}/${to} is not supported`, REFUSAL_CODES.unsupported_asset);
    }
    const { min, max } = methodLimits(this.profile.paymentMethods[0]!, from);
    const unit = new BigNumber(price).times(FIAT_PER_USD[from] ?? '1');
    res.json({
      status: 200,
      code: 0,
      message: '',
      data: {
        [to]: {
          min: min.div(unit).decimalPlaces(8, BigNumber.ROUND_UP).toFixed(),
          max: max.div(unit).decimalPlaces(8, BigNumber.ROUND_DOWN).toFixed(),
        },
        [from]: { min: min.toFixed(), max: max.toFixed() },
      },
    });
  }

  private rate(req: Request, res: Response): void {
    const q = req.query as Record<string, string | undefined>;
    const { from = '', to = '', amount = '' } = q;
    if (!/^\d+(\.\d+)?$/.test(amount)) return apiError(res, 400, 'amount must be a number');
    const network = q.network ?? this.profile.assets.find((a) => a.startsWith(`${to}/`))?.split('/')[1] ?? '';
    // Mercuryo's rate does not depend on the payment method: the card's terms are everyone's.
    const priced = quote(this.profile, { fiat: from, crypto: to, network, fiatAmount: amount, paymentMethod: 'card' });
    if (!priced.ok) return apiError(res, 400, priced.message, REFUSAL_CODES[priced.code]);
    const fee = new BigNumber(priced.processingFee).plus(priced.networkFee).toFixed(2);
    const feeCrypto = new BigNumber(fee).div(priced.price).decimalPlaces(8, BigNumber.ROUND_UP).toFixed();
    res.json({
      status: 200,
      data: {
        buy_token: randomBytes(24).toString('hex'),
        currency: to,
        amount: priced.cryptoAmount,
        fiat_currency: from,
        fiat_amount: amount,
        rate: priced.price,
        fee: { [to]: feeCrypto, [from]: fee },
        subtotal: { [to]: priced.cryptoAmount, [from]: new BigNumber(amount).minus(fee).toFixed(2) },
        total: { [to]: new BigNumber(priced.cryptoAmount).plus(feeCrypto).toFixed(), [from]: amount },
        kyc_limit_exceeded: false,
      },
    });
  }

  private transactions(req: Request, res: Response): void {
    const { credentials } = this.options;
    if (req.header('sdk-partner-token') !== credentials.sdkPartnerToken) return apiError(res, 401, 'wrong partner');
    if (req.query.widget_id !== undefined && req.query.widget_id !== credentials.widgetId) return apiError(res, 403, 'Widget not found');
    const id = req.query.merchant_transaction_id;
    const found = typeof id === 'string' ? [this.purchases.get(id)].filter((p) => p !== undefined) : [...this.purchases.values()];
    const limit = Math.min(Number(req.query.limit ?? 50) || 50, 50);
    const offset = Number(req.query.offset ?? 0) || 0;
    res.json({
      status: 200,
      total: found.length,
      next: null,
      prev: null,
      data: found.slice(offset, offset + limit).map((p) => transactionItem(p, credentials.widgetId)),
    });
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
    const purchase = newPurchase({
      merchantTransactionId: query.merchant_transaction_id,
      widgetTerms,
      paymentMethod,
      address: query.address,
      currency: query.currency,
      network: query.network,
      fiatCurrency: query.fiat_currency,
      fiatAmount: query.fiat_amount,
      cryptoAmount: priced.cryptoAmount,
    });
    this.purchases.set(purchase.merchantTransactionId, purchase);
    this.options.log?.(
      `mercuryo purchase ${purchase.transactionId} opened at ${this.options.publicUrl}/ for ${purchase.merchantTransactionId}`,
    );
    this.emit(purchase, 'payment');
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
        reference: purchase.merchantTransactionId,
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
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const steps = typeof action === 'string' ? stepsFor(purchase, action) : undefined;
    if (!steps) {
      const status = purchase.withdraw?.status ?? purchase.payment.status;
      res.status(409).json({
        error: {
          code: 'invalid_action',
          message: `action ${String(action)} is not possible now (${status})`,
          allowed: allowedActions(purchase),
        },
      });
      return;
    }
    if (action === 'pay') this.payAsSwitched(purchase);
    purchase.generation += 1;
    this.play(purchase, steps, purchase.generation);
    res.json(this.summary(purchase));
  }

  /** The `paid*` fault switches: what the customer pays instead of the order's terms, reported from now on. */
  private payAsSwitched(purchase: SimPurchase): void {
    const { paidFiatAmount, paidFiatCurrency, paidWalletAddress } = this.faults;
    if (paidFiatAmount) purchase.fiatAmount = paidFiatAmount;
    if (paidFiatCurrency) purchase.fiatCurrency = paidFiatCurrency;
    if (paidWalletAddress) purchase.address = paidWalletAddress;
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

  /** Applies the first step now and each next one after the step delay, unless a newer action came. */
  private play(purchase: SimPurchase, steps: readonly Step[], generation: number): void {
    const [step, ...rest] = steps;
    if (!step || purchase.generation !== generation) return;
    const now = new Date();
    if (step.payment) {
      purchase.payment = { ...purchase.payment, status: step.payment, updatedAt: now };
      this.emit(purchase, 'payment');
    }
    if (step.withdraw) {
      const withdraw = purchase.withdraw ?? { id: mercuryoId(), status: step.withdraw, createdAt: now, updatedAt: now };
      purchase.withdraw = {
        ...withdraw,
        status: step.withdraw,
        updatedAt: now,
        ...(step.withdraw === 'completed' ? { hash: `0x${randomBytes(32).toString('hex')}` } : {}),
      };
      this.emit(purchase, 'withdraw');
    }
    if (rest.length > 0) this.timers.later(() => this.play(purchase, rest, generation), this.stepDelayMs);
  }

  private emit(purchase: SimPurchase, leg: 'payment' | 'withdraw'): void {
    const body = JSON.stringify(callbackBody(purchase, leg));
    const operation = leg === 'payment' ? purchase.payment : purchase.withdraw!;
    const type = leg === 'payment' ? purchase.paymentType : 'withdraw';
    this.options.log?.(`mercuryo ${purchase.merchantTransactionId} ${type} -> ${operation.status}`);
    this.webhooks.send({
      orderKey: purchase.merchantTransactionId,
      status: `${type}:${operation.status}`,
      eventId: `${operation.id}:${operation.status}`,
      body,
      headers: { 'x-signature': signCallback(this.options.credentials.signKey, body) },
    });
  }
}

export function createMercuryoSimulator(options: MercuryoSimulatorOptions): MercuryoSimulator {
  return new MercuryoSimulator(options);
}
