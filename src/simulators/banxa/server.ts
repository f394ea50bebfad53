/**
 * A local simulator of Banxa Hosted Checkout v2, mounted at `/banxa` (which plays the partner's base
 * URL `https://api.banxa.com/<partnerRef>`): catalogue, quotes, server-side buy orders, order lookup,
 * a checkout page whose buttons drive the order through Banxa's statuses, and webhooks signed the way
 * Banxa signs them. The broker reaches it only through its Banxa adapter.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { BanxaCredentials } from '../../providers/banxa/config';
import { renderCheckoutPage } from '../kit/checkout-page';
import { SimulatorBase } from '../kit/base';
import type { SimulatorFaults } from '../kit/faults';
import { FIAT_PER_USD } from '../kit/market';
import { methodLimits, quote, type QuoteResult } from '../kit/pricing';
import {
  allowedActions,
  failureStatus,
  listedOrderView,
  orderView,
  payStepsFrom,
  webhookBody,
  type BanxaSimOrder,
  type BanxaSimStatus,
  type CheckoutAction,
} from './orders';
import { BANXA_CONTRACTS, BANXA_PROFILE, COUNTRY_NAMES } from './profile';
import { banxaAuthorization } from './signing';

export interface BanxaSimulatorOptions {
  /** The simulator's own public base, e.g. http://127.0.0.1:4010/banxa: checkout links start with it. */
  publicUrl: string;
  /** The broker's webhook URL, http://broker/api/webhooks/banxa: its path is part of each signature. */
  brokerWebhookUrl: string;
  credentials: BanxaCredentials;
  faults?: Partial<SimulatorFaults>;
  /** Between the automatic steps of a status walk; 300 ms when absent. */
  stepDelayMs?: number;
  log?: (message: string) => void;
  random?: () => number;
}

const DECIMAL = /^\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DEFAULT_PAGE_SIZE = 100;

/** Banxa's error body: an application code and a message. */
function refuse(res: Response, httpStatus: number, code: number, message: string): void {
  res.status(httpStatus).json({ code, message });
}

/** The kit's pricing refusals as Banxa's application codes. */
function refusePricing(res: Response, result: Extract<QuoteResult, { ok: false }>): void {
  if (result.code === 'unsupported_asset') return refuse(res, 422, 5034, `Coin restriction: ${result.message}`);
  if (result.code === 'unsupported_payment_method') return refuse(res, 422, 4007, 'The selected payment is not available');
  refuse(res, 422, 4002, `Validation error: ${result.message}`);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export class BanxaSimulator extends SimulatorBase {
  readonly code = 'banxa';
  readonly orders = new Map<string, BanxaSimOrder>();
  private readonly profile = BANXA_PROFILE;
  private readonly webhookPath: string;
  private reference = 17_000_000;

  constructor(private readonly options: BanxaSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    this.webhookPath = new URL(options.brokerWebhookUrl).pathname;
    this.routes();
  }

  private get stepDelayMs(): number {
    return this.options.stepDelayMs ?? 300;
  }

  private routes(): void {
    const app = this.app;
    app.use(express.json({ limit: '64kb' }));

    // The customer's pages: the one-time checkout link and the order's status page.
    app.get(['/checkout/:id', '/status/:id'], (req, res) => this.checkoutPage(req, res));
    app.post(['/checkout/:id', '/status/:id'], (req, res) => this.checkoutAction(req, res));

    app.use('/v2', (req, res, next) => this.authenticate(req, res, next));
    this.injectFaultsUnder('/v2', (res) => refuse(res, 503, 999, 'System error'));
    app.get('/v2/crypto/buy', (_req, res) => this.cryptoList(res));
    app.get('/v2/fiats/buy', (_req, res) => this.fiatList(res));
    app.get('/v2/countries', (_req, res) => this.countryList(res));
    app.get('/v2/countries/:country/states', (req, res) => this.stateList(req, res));
    app.get('/v2/quotes/buy', (req, res) => this.quote(req, res));
    app.post('/v2/buy', (req, res) => this.createOrder(req, res));
    app.get('/v2/orders', (req, res) => this.listOrders(req, res));
    app.get('/v2/orders/:id', (req, res) => this.getOrder(req, res));
    app.use((_req: Request, res: Response) => refuse(res, 404, 404, 'Not found'));
  }

  private authenticate(req: Request, res: Response, next: NextFunction): void {
    if (req.header('x-api-key') !== this.options.credentials.apiKey)
      return refuse(res, 401, 40103, 'You are not authorized to access this resource.');
    next();
  }

  private cryptoList(res: Response): void {
    const coins = new Map<string, { id: string; blockchains: { id: string; address: string | null; unsupportedCountries: [] }[] }>();
    for (const asset of this.profile.assets) {
      const [coin = '', blockchain = ''] = asset.split('/');
      const entry = coins.get(coin) ?? { id: coin, blockchains: [] };
      entry.blockchains.push({ id: blockchain, address: BANXA_CONTRACTS[asset] ?? null, unsupportedCountries: [] });
      coins.set(coin, entry);
    }
    res.json([...coins.values()]);
  }

  private fiatList(res: Response): void {
    const names = new Intl.DisplayNames(['en'], { type: 'currency' });
    res.json(
      this.profile.fiat.map((fiat) => ({
        id: fiat,
        description: names.of(fiat) ?? fiat,
        symbol:
          new Intl.NumberFormat('en', { style: 'currency', currency: fiat }).formatToParts(0).find((p) => p.type === 'currency')?.value ??
          fiat,
        supportedPaymentMethods: this.profile.paymentMethods
          .filter((m) => !m.fiat || m.fiat.includes(fiat))
          .map((m) => {
            const { min, max } = methodLimits(m, fiat);
            return { id: m.code, name: m.name, minimum: min.toFixed(), maximum: max.toFixed() };
          }),
      })),
    );
  }

  private countryList(res: Response): void {
    res.json(this.profile.countries.map((id) => ({ id, name: COUNTRY_NAMES[id] ?? id })));
  }

  private stateList(req: Request, res: Response): void {
    const states = this.profile.states?.[String(req.params.country).toUpperCase()];
    if (!states) return refuse(res, 404, 404, 'Not found');
    res.json({ states: states.map((state_code) => ({ state_code })) });
  }

  private price(fiat: string, coin: string, blockchain: string, fiatAmount: string, paymentMethodId: string): QuoteResult {
    return quote(this.profile, { fiat, crypto: coin, network: blockchain, fiatAmount, paymentMethod: paymentMethodId });
  }

  private quote(req: Request, res: Response): void {
    const q = req.query;
    const missing = ['fiat', 'crypto', 'blockchain', 'paymentMethodId'].filter((k) => text(q[k]) === undefined);
    if (missing.length > 0) return refuse(res, 422, 4002, `Validation error: ${missing.join(', ')} required`);
    const fiatAmount = text(q.fiatAmount);
    if (fiatAmount === undefined || !DECIMAL.test(fiatAmount)) {
      return refuse(res, 422, 4002, 'Validation error: fiatAmount must be a decimal amount (this simulator quotes by fiat amount)');
    }
    const [fiat, coin, blockchain, method] = [q.fiat, q.crypto, q.blockchain, q.paymentMethodId].map(String) as [
      string,
      string,
      string,
      string,
    ];
    const result = this.price(fiat, coin, blockchain, fiatAmount, method);
    if (!result.ok) return refusePricing(res, result);
    res.json({
      paymentMethodId: method,
      cryptoAmount: result.cryptoAmount,
      fiatAmount,
      processingFee: result.processingFee,
      networkFee: result.networkFee,
    });
  }

  private createOrder(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const missing = ['crypto', 'fiat', 'walletAddress', 'redirectUrl', 'externalCustomerId'].filter((k) => text(body[k]) === undefined);
    if (missing.length > 0) return refuse(res, 422, 4002, `Validation error: ${missing.join(', ')} required`);
    const fiatAmount = text(body.fiatAmount);
    if (fiatAmount === undefined || !DECIMAL.test(fiatAmount))
      return refuse(res, 422, 4002, 'Validation error: fiatAmount must be a decimal amount');
    const coin = body.crypto as string;
    const blockchain = text(body.blockchain) ?? this.profile.assets.find((a) => a.startsWith(`${coin}/`))?.split('/')[1] ?? '';
    const paymentMethodId = text(body.paymentMethodId) ?? 'debit-credit-card';
    const priced = this.price(body.fiat as string, coin, blockchain, fiatAmount, paymentMethodId);
    if (!priced.ok) return refusePricing(res, priced);

    const now = new Date();
    const order: BanxaSimOrder = {
      id: randomBytes(16).toString('hex'),
      reference: ++this.reference,
      externalOrderId: text(body.externalOrderId) ?? null,
      externalCustomerId: body.externalCustomerId as string,
      coin,
      blockchain,
      contract: BANXA_CONTRACTS[`${coin}/${blockchain}`] ?? null,
      fiat: body.fiat as string,
      fiatAmount,
      cryptoAmount: priced.cryptoAmount,
      assetPrice: priced.price,
      paymentMethodId,
      paymentMethodName: priced.method.name,
      processingFee: priced.processingFee,
      networkFee: priced.networkFee,
      walletAddress: body.walletAddress as string,
      redirectUrl: body.redirectUrl as string,
      status: 'pendingPayment',
      transactionHash: null,
      createdAt: now,
      updatedAt: now,
      generation: 0,
      walking: false,
    };
    this.orders.set(order.id, order);
    this.options.log?.(`banxa order ${order.id} created (externalOrderId ${order.externalOrderId ?? '-'})`);
    res.json({ ...orderView(order, this.options.publicUrl), checkoutUrl: `${this.options.publicUrl}/checkout/${order.id}` });
  }

  private listOrders(req: Request, res: Response): void {
    const start = text(req.query.start);
    const end = text(req.query.end);
    if (!start || !end || !DATE.test(start) || !DATE.test(end))
      return refuse(res, 422, 4002, 'Validation error: start and end dates (YYYY-MM-DD) required');
    const status = text(req.query.status);
    const customer = text(req.query.externalCustomerId);
    const matching = [...this.orders.values()].filter((o) => {
      const day = o.createdAt.toISOString().slice(0, 10);
      return day >= start && day <= end && (!status || o.status === status) && (!customer || o.externalCustomerId === customer);
    });
    const limit = Math.max(1, Number(text(req.query.limit) ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE);
    const page = Math.max(1, Number(text(req.query.page) ?? 1) || 1);
    const skip = Math.max(0, Number(text(req.query.skip) ?? 0) || 0);
    const first = skip + (page - 1) * limit;
    res.json({
      orders: matching.slice(first, first + limit).map((o) => listedOrderView(o, this.options.publicUrl)),
      pageTotal: Math.ceil(Math.max(matching.length - skip, 0) / limit),
      total: matching.length,
    });
  }

  private getOrder(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) return refuse(res, 404, 1, 'Order not found');
    res.json(orderView(order, this.options.publicUrl));
  }

  private checkoutPage(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).type('text/plain').send('Unknown Banxa order');
      return;
    }
    res.type('html').send(
      renderCheckoutPage({
        reference: String(order.reference),
        providerName: this.profile.name,
        status: order.status,
        fiatAmount: order.fiatAmount,
        fiatCurrency: order.fiat,
        cryptoAmount: order.cryptoAmount,
        cryptoCurrency: order.coin,
        network: order.blockchain,
        walletAddress: order.walletAddress,
        paymentMethod: order.paymentMethodName,
        actions: allowedActions(order),
      }),
    );
  }

  private checkoutAction(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) return refuse(res, 404, 1, 'Order not found');
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = allowedActions(order);
    if (typeof action !== 'string' || !allowed.includes(action as CheckoutAction)) {
      res.status(409).json({
        error: { code: 'invalid_action', message: `action ${String(action)} is not possible while the order is ${order.status}`, allowed },
      });
      return;
    }
    order.generation++;
    order.walking = false;
    switch (action as CheckoutAction) {
      case 'pay':
        this.payAsSwitched(order);
        this.walk(order, payStepsFrom(order.status === 'extraVerification' ? (order.heldFrom ?? 'pendingPayment') : order.status));
        break;
      case 'hold':
        order.heldFrom = order.status;
        this.transition(order, 'extraVerification');
        break;
      case 'fail':
        this.transition(order, failureStatus(order));
        break;
      case 'expire':
        this.transition(order, 'expired');
        break;
      case 'refund':
        this.transition(order, 'refunded');
        break;
    }
    res.json(orderView(order, this.options.publicUrl));
  }

  /** The `paid*` fault switches: what the customer pays instead of the order's terms, reported from now on. */
  private payAsSwitched(order: BanxaSimOrder): void {
    const { paidFiatAmount, paidFiatCurrency, paidWalletAddress } = this.faults;
    if (paidFiatAmount) order.fiatAmount = paidFiatAmount;
    if (paidFiatCurrency) order.fiat = paidFiatCurrency;
    if (paidWalletAddress) order.walletAddress = paidWalletAddress;
  }

  /** The first status at once, each next one `stepDelayMs` later, until another action takes over. */
  private walk(order: BanxaSimOrder, steps: BanxaSimStatus[]): void {
    const generation = order.generation;
    order.walking = true;
    const step = (index: number) => {
      const status = steps[index];
      if (status === undefined || order.generation !== generation) return;
      this.transition(order, status);
      if (index + 1 < steps.length) this.timers.later(() => step(index + 1), this.stepDelayMs);
      else order.walking = false;
    };
    step(0);
  }

  private transition(order: BanxaSimOrder, status: BanxaSimStatus): void {
    if (status === 'coinTransferred') order.transactionHash = `0x${randomBytes(32).toString('hex')}`;
    order.status = status;
    order.updatedAt = new Date();
    this.options.log?.(`banxa order ${order.id} -> ${status}`);
    const body = JSON.stringify(webhookBody(order, FIAT_PER_USD[order.fiat] ?? '1'));
    this.webhooks.send({
      orderKey: order.id,
      status,
      eventId: randomUUID(),
      body,
      headers: {
        authorization: banxaAuthorization(this.options.credentials, { method: 'POST', path: this.webhookPath, body }, Date.now()),
      },
    });
  }
}

export function createBanxaSimulator(options: BanxaSimulatorOptions): BanxaSimulator {
  return new BanxaSimulator(options);
}
