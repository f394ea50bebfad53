/**
 * A local simulator of the "sandbox" provider: quotes, server-side order creation, status lookup,
 * a checkout page whose buttons drive the order, and signed webhooks to the broker.
 * It is a separate HTTP service; the broker reaches it only through its adapter.
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type NextFunction } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import { SimulatorBase } from '../kit/base';
import type { SimulatorFaults } from '../kit/faults';
import { methodLimits, quote } from '../kit/pricing';
import type { SimulatorProfile } from '../kit/profile';
import { SANDBOX_PROFILE } from './profile';
import { signSandboxPayload } from './signing';

export type SimStatus = 'CREATED' | 'AWAITING_PAYMENT' | 'ON_HOLD' | 'PAYMENT_RECEIVED' | 'COMPLETED' | 'FAILED' | 'EXPIRED' | 'REFUNDED';

export interface SimOrder {
  id: string;
  partner_order_id: string;
  status: SimStatus;
  fiat_currency: string;
  fiat_amount: string;
  crypto_currency: string;
  network: string;
  crypto_amount: string;
  wallet_address: string;
  payment_method: string;
  country: string;
  checkout_url: string;
  return_url?: string;
  failure_reason?: string;
  tx_hash?: string;
  created_at: string;
  updated_at: string;
}

export interface SandboxSimulatorOptions {
  apiKey: string;
  webhookSecret: string;
  /** Where webhooks go: the broker's POST /api/webhooks/sandbox. */
  webhookUrl: string;
  /** The simulator's own public base URL, for checkout links. */
  publicUrl: string;
  profile?: SimulatorProfile;
  /** Time between payment received and crypto delivered. */
  settleDelayMs?: number;
  faults?: Partial<SimulatorFaults>;
  random?: () => number;
  log?: (message: string) => void;
}

const ACTIONS_BY_STATUS: Record<SimStatus, readonly string[]> = {
  CREATED: ['pay', 'hold', 'fail', 'expire'],
  AWAITING_PAYMENT: ['pay', 'hold', 'fail', 'expire'],
  ON_HOLD: ['pay', 'fail', 'expire'],
  PAYMENT_RECEIVED: ['refund', 'fail'],
  COMPLETED: [],
  FAILED: ['refund'],
  EXPIRED: ['pay'],
  REFUNDED: [],
};

const TERMINAL: readonly SimStatus[] = ['COMPLETED', 'REFUNDED'];

export class SandboxSimulator extends SimulatorBase {
  readonly code: string;
  readonly orders = new Map<string, SimOrder>();
  private readonly byPartnerId = new Map<string, string>();
  private readonly profile: SimulatorProfile;

  constructor(private readonly options: SandboxSimulatorOptions) {
    super(options);
    this.profile = options.profile ?? SANDBOX_PROFILE;
    this.code = this.profile.code;
    this.routes();
  }

  private routes(): void {
    const app = this.app;
    const json = express.json({ limit: '64kb' });

    // Customer-facing pages need no API key.
    app.get('/checkout/:id', (req, res) => this.checkoutPage(req, res));
    app.post('/checkout/:id', json, (req, res) => this.checkoutAction(req, res));

    app.use('/v1', (req, res, next) => this.authenticate(req, res, next));
    this.injectFaultsUnder('/v1', (res) => void res.status(503).json(error('unavailable', 'simulated outage')));
    app.get('/v1/currencies', (_req, res) => this.getCurrencies(res));
    app.get('/v1/countries', (_req, res) => this.getCountries(res));
    app.get('/v1/payment-methods', (_req, res) => this.getPaymentMethods(res));
    app.get('/v1/quotes', (req, res) => this.getQuote(req, res));
    app.post('/v1/orders', json, (req, res) => this.createOrder(req, res));
    app.get('/v1/orders', (req, res) => this.findOrder(req, res));
    app.get('/v1/orders/:id', (req, res) => this.getOrder(req, res));
    app.use((_req: Request, res: Response) => void res.status(404).json(error('not_found', 'no such route')));
  }

  /** Whether an `Authorization` header carries this provider's API key. */
  isAuthorized(authorization: string | undefined): boolean {
    return authorization === `Bearer ${this.options.apiKey}`;
  }

  private authenticate(req: Request, res: Response, next: NextFunction): void {
    if (!this.isAuthorized(req.header('authorization'))) {
      res.status(401).json(error('unauthorized', 'missing or wrong API key'));
      return;
    }
    next();
  }

  private getCurrencies(res: Response): void {
    res.json({
      fiat: this.profile.fiat.map((code) => ({ code })),
      crypto: this.profile.assets.map((asset) => {
        const [ticker, network] = asset.split('/');
        return { ticker, network };
      }),
    });
  }

  private getCountries(res: Response): void {
    res.json({
      countries: this.profile.countries.map((code) => ({
        code,
        ...(this.profile.states?.[code] ? { states: this.profile.states[code] } : {}),
      })),
    });
  }

  private getPaymentMethods(res: Response): void {
    res.json({
      payment_methods: this.profile.paymentMethods.map((method) => ({
        code: method.code,
        name: method.name,
        fee_rate: method.feeRate,
        fee_fixed_usd: method.feeFixedUsd,
        limits: Object.fromEntries(
          this.profile.fiat
            .filter((fiat) => !method.fiat || method.fiat.includes(fiat))
            .map((fiat) => {
              const { min, max } = methodLimits(method, fiat);
              return [fiat, { min: min.toFixed(), max: max.toFixed() }];
            }),
        ),
      })),
    });
  }

  private getQuote(req: Request, res: Response): void {
    const answer = this.quoteAnswer(req.query);
    res.status(answer.status).json(answer.body);
  }

  /** The answer of `GET /v1/quotes` to a query, apart from authentication and faults. */
  quoteAnswer(q: Record<string, unknown>): { status: number; body: unknown } {
    const missing = ['fiat_currency', 'crypto_currency', 'network', 'fiat_amount', 'payment_method'].filter(
      (k) => typeof q[k] !== 'string' || q[k] === '',
    );
    if (missing.length > 0) return { status: 400, body: error('invalid_request', `missing ${missing.join(', ')}`) };
    const str = (k: string) => q[k] as string;
    if (!/^\d+(\.\d+)?$/.test(str('fiat_amount'))) {
      return { status: 400, body: error('invalid_request', 'fiat_amount must be a decimal string') };
    }
    const result = quote(this.profile, {
      fiat: str('fiat_currency'),
      crypto: str('crypto_currency'),
      network: str('network'),
      fiatAmount: str('fiat_amount'),
      paymentMethod: str('payment_method'),
      country: typeof q.country === 'string' ? q.country : undefined,
      state: typeof q.state === 'string' ? q.state : undefined,
    });
    if (!result.ok) {
      return { status: result.status, body: error(result.code, result.message, { min_amount: result.min, max_amount: result.max }) };
    }
    return {
      status: 200,
      body: {
        quote_id: randomUUID(),
        fiat_currency: str('fiat_currency'),
        crypto_currency: str('crypto_currency'),
        network: str('network'),
        fiat_amount: str('fiat_amount'),
        crypto_amount: result.cryptoAmount,
        price: result.price,
        processing_fee: result.processingFee,
        network_fee: result.networkFee,
        payment_method: result.method.code,
        expires_at: new Date(Date.now() + this.profile.quoteTtlSeconds * 1000).toISOString(),
      },
    };
  }

  private createOrder(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const required = [
      'partner_order_id',
      'fiat_currency',
      'crypto_currency',
      'network',
      'fiat_amount',
      'wallet_address',
      'payment_method',
      'country',
    ];
    const missing = required.filter((k) => typeof body[k] !== 'string' || body[k] === '');
    if (missing.length > 0) {
      res.status(400).json(error('invalid_request', `missing ${missing.join(', ')}`));
      return;
    }
    const s = (k: string) => body[k] as string;
    const existingId = this.byPartnerId.get(s('partner_order_id'));
    if (existingId !== undefined) {
      res.status(200).json(this.orders.get(existingId));
      return;
    }
    const priced = quote(this.profile, {
      fiat: s('fiat_currency'),
      crypto: s('crypto_currency'),
      network: s('network'),
      fiatAmount: s('fiat_amount'),
      paymentMethod: s('payment_method'),
      country: s('country'),
      state: typeof body.state === 'string' ? body.state : undefined,
    });
    if (!priced.ok) {
      res.status(priced.status).json(error(priced.code, priced.message, { min_amount: priced.min, max_amount: priced.max }));
      return;
    }
    const id = randomUUID();
    const now = new Date().toISOString();
    const order: SimOrder = {
      id,
      partner_order_id: s('partner_order_id'),
      status: 'CREATED',
      fiat_currency: s('fiat_currency'),
      fiat_amount: s('fiat_amount'),
      crypto_currency: s('crypto_currency'),
      network: s('network'),
      crypto_amount: priced.cryptoAmount,
      wallet_address: s('wallet_address'),
      payment_method: s('payment_method'),
      country: s('country'),
      checkout_url: `${this.options.publicUrl}/checkout/${id}`,
      return_url: typeof body.return_url === 'string' ? body.return_url : undefined,
      created_at: now,
      updated_at: now,
    };
    this.orders.set(id, order);
    this.byPartnerId.set(order.partner_order_id, id);
    this.options.log?.(`order ${id} created for partner order ${order.partner_order_id}`);
    res.status(201).json(order);
  }

  private findOrder(req: Request, res: Response): void {
    const partnerId = req.query.partner_order_id;
    const id = typeof partnerId === 'string' ? this.byPartnerId.get(partnerId) : undefined;
    const order = id === undefined ? undefined : this.orders.get(id);
    if (!order) {
      res.status(404).json(error('not_found', 'no order with that partner_order_id'));
      return;
    }
    res.json(order);
  }

  private getOrder(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).json(error('not_found', 'no such order'));
      return;
    }
    res.json(order);
  }

  private checkoutPage(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).type('text/plain').send('Unknown checkout session');
      return;
    }
    // The customer has reached the payment step.
    if (order.status === 'CREATED') this.transition(order, 'AWAITING_PAYMENT');
    res.type('html').send(
      renderCheckoutPage({
        reference: order.id,
        providerName: this.profile.name,
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
    switch (action) {
      case 'pay':
        this.payAsSwitched(order);
        if (order.status === 'CREATED') this.transition(order, 'AWAITING_PAYMENT');
        this.transition(order, 'PAYMENT_RECEIVED');
        this.timers.later(() => {
          if (order.status === 'PAYMENT_RECEIVED') {
            order.tx_hash = `0x${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '')}`;
            this.transition(order, 'COMPLETED');
          }
        }, this.options.settleDelayMs ?? 1500);
        break;
      case 'hold':
        this.transition(order, 'ON_HOLD');
        break;
      case 'fail':
        order.failure_reason = order.status === 'PAYMENT_RECEIVED' ? 'crypto_delivery_failed' : 'card_declined';
        this.transition(order, 'FAILED');
        break;
      case 'expire':
        this.transition(order, 'EXPIRED');
        break;
      case 'refund':
        this.transition(order, 'REFUNDED');
        break;
    }
    res.json(order);
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the order's. */
  private payAsSwitched(order: SimOrder): void {
    const { paidFiatAmount, paidFiatCurrency, paidWalletAddress } = this.faults;
    if (paidFiatAmount) order.fiat_amount = paidFiatAmount;
    if (paidFiatCurrency) order.fiat_currency = paidFiatCurrency;
    if (paidWalletAddress) order.wallet_address = paidWalletAddress;
  }

  private transition(order: SimOrder, status: SimStatus): void {
    if (TERMINAL.includes(order.status)) return;
    order.status = status;
    order.updated_at = new Date().toISOString();
    this.options.log?.(`order ${order.id} -> ${status}`);
    this.emitWebhook(order);
  }

  private emitWebhook(order: SimOrder): void {
    const eventId = randomUUID();
    const body = JSON.stringify({ event_id: eventId, event_type: 'order.status_changed', created_at: new Date().toISOString(), order });
    this.webhooks.send({
      orderKey: order.id,
      status: order.status,
      eventId,
      body,
      headers: { 'sandbox-signature': signSandboxPayload(this.options.webhookSecret, body, Math.floor(Date.now() / 1000)) },
    });
  }
}

function error(code: string, message: string, extra: Record<string, unknown> = {}) {
  const details = Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined));
  return { error: { code, message, ...details } };
}
