/**
 * A local simulator of Transak: partner access tokens (refresh-token, `api-secret`), public lists
 * and quotes (`partnerApiKey`), widget sessions (`POST /api/v2/auth/session`), order lookup, a
 * widget page whose buttons drive the order, and webhooks `{"data": "<JWT>"}` HS256-signed with the
 * partner's current access token. Paths, field names, statuses and event ids are Transak's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { TransakSimulatorCredentials } from '../../providers/transak/config';
import { renderCheckoutPage } from '../kit/checkout-page';
import { SimulatorBase } from '../kit/base';
import type { SimulatorFaults } from '../kit/faults';
import type { ProviderSimulator } from '../kit/host';
import { countriesResponse, cryptoCurrenciesResponse, fiatCurrenciesResponse, priceQuote } from './catalogue';
import { ACTIONS, EVENT_IDS, isCheckoutAction, stepsOf, type TransakSimOrder, type TransakSimStatus } from './orders';
import { TRANSAK_PROFILE } from './profile';
import { signAccessToken, signWebhookData } from './signing';

export interface TransakSimulatorOptions {
  /** Its own base URL, e.g. http://127.0.0.1:4010/transak. */
  publicUrl: string;
  /** Where webhooks go: the broker's /api/webhooks/transak. */
  brokerWebhookUrl: string;
  credentials: TransakSimulatorCredentials;
  faults?: Partial<SimulatorFaults>;
  /** Between automatic status steps; 300 ms by default. */
  stepDelayMs?: number;
  /** Lifetime of the access tokens it issues; Transak's last 7 days. */
  accessTokenTtlMs?: number;
  random?: () => number;
  log?: (message: string) => void;
}

export interface TransakSimulator extends ProviderSimulator {
  readonly orders: ReadonlyMap<string, TransakSimOrder>;
  /** How many access tokens it has issued (each one invalidates the one before). */
  readonly accessTokensIssued: number;
  /** How many partner calls it refused for a missing, replaced or expired access token. */
  readonly accessTokenRejections: number;
}

interface WidgetSession {
  params: Record<string, unknown>;
  createdAtMs: number;
  orderId?: string;
}

const SESSION_TTL_MS = 5 * 60_000;
const REQUIRED_WIDGET_PARAMS = ['fiatCurrency', 'fiatAmount', 'cryptoCurrencyCode', 'network', 'walletAddress', 'paymentMethod'];

const transakError = (statusCode: number, name: string, message: string) => ({ error: { statusCode, name, message } });
const unauthorized = (res: Response) => void res.status(401).json(transakError(401, 'Unauthorized', 'Authorization Required'));
const badRequest = (res: Response, message: string) => void res.status(400).json(transakError(400, 'Bad Request', message));

class TransakSimulatorServer extends SimulatorBase implements TransakSimulator {
  readonly code = 'transak';
  readonly orders = new Map<string, TransakSimOrder>();
  private readonly sessions = new Map<string, WidgetSession>();
  private readonly tokenSecret = randomBytes(32).toString('hex');
  private accessToken?: { value: string; expiresAtMs: number };
  private issued = 0;
  private rejected = 0;
  /** Webhooks are signed asynchronously; this chain keeps them in the order of the transitions. */
  private outbox: Promise<void> = Promise.resolve();

  constructor(private readonly options: TransakSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    this.routes();
  }

  get accessTokensIssued(): number {
    return this.issued;
  }

  get accessTokenRejections(): number {
    return this.rejected;
  }

  private routes(): void {
    const app = this.app;
    app.use(express.json({ limit: '64kb' }));

    // The customer-facing widget (global.transak.com in production): no faults, no API key check.
    app.get('/global', (req, res) => this.widgetPage(req, res));
    app.post('/global', (req, res) => this.widgetAction(req, res));

    this.injectFaultsUnder(
      ['/api', '/partners', '/cryptocoverage', '/fiat'],
      (res) => void res.status(503).json(transakError(503, 'Service Unavailable', 'simulated outage')),
    );
    const partner = (req: Request, res: Response, next: NextFunction) => this.requireAccessToken(req, res, next);
    app.post('/partners/api/v2/refresh-token', (req, res) => this.refreshToken(req, res));
    app.get('/partners/api/v2/orders', partner, (req, res) => this.listOrders(req, res));
    app.get('/partners/api/v2/order/:orderId', partner, (req, res) => this.getOrder(req, res));
    app.post('/api/v2/auth/session', partner, (req, res) => this.createSession(req, res));
    app.get('/api/v1/pricing/public/quotes', (req, res) => this.quote(req, res));
    app.get('/api/v2/countries', (_req, res) => void res.json(countriesResponse(TRANSAK_PROFILE)));
    app.get('/cryptocoverage/api/v1/public/crypto-currencies', (_req, res) => void res.json(cryptoCurrenciesResponse()));
    app.get('/fiat/public/v1/currencies/fiat-currencies', (_req, res) => void res.json(fiatCurrenciesResponse(TRANSAK_PROFILE)));
    app.use((_req: Request, res: Response) => void res.status(404).json(transakError(404, 'Not Found', 'no such route')));
  }

  private refreshToken(req: Request, res: Response): void {
    const { apiKey, apiSecret } = this.options.credentials;
    if (req.header('api-secret') !== apiSecret) {
      badRequest(res, 'Invalid api-secret. Please generate new api-secret from Partner Dashboard');
      return;
    }
    if ((req.body as { apiKey?: unknown } | undefined)?.apiKey !== apiKey) {
      unauthorized(res);
      return;
    }
    const nowMs = Date.now();
    const expiresAtMs = nowMs + (this.options.accessTokenTtlMs ?? 7 * 24 * 3_600_000);
    const iat = Math.floor(nowMs / 1000);
    const exp = Math.max(iat + 1, Math.floor(expiresAtMs / 1000));
    void signAccessToken(this.tokenSecret, apiKey, iat, exp).then((value) => {
      // Issuing a token invalidates the one before, as Transak does.
      this.accessToken = { value, expiresAtMs: exp * 1000 };
      this.issued++;
      this.options.log?.(`transak: access token ${this.issued} issued`);
      res.json({ data: { accessToken: value, expiresAt: exp } });
    });
  }

  private requireAccessToken(req: Request, res: Response, next: NextFunction): void {
    const token = this.accessToken;
    if (!token || req.header('access-token') !== token.value || Date.now() >= token.expiresAtMs) {
      this.rejected++;
      unauthorized(res);
      return;
    }
    next();
  }

  private quote(req: Request, res: Response): void {
    const q = req.query as Record<string, unknown>;
    if (q.partnerApiKey !== this.options.credentials.apiKey) {
      res.status(401).json(transakError(401, 'Unauthorized', 'Invalid partnerApiKey'));
      return;
    }
    const missing = ['fiatCurrency', 'cryptoCurrency', 'network', 'paymentMethod', 'fiatAmount', 'isBuyOrSell'].filter(
      (k) => typeof q[k] !== 'string' || q[k] === '',
    );
    if (missing.length > 0) return badRequest(res, `${missing.join(', ')} is a required argument`);
    if (q.isBuyOrSell !== 'BUY') return badRequest(res, 'Only BUY quotes are simulated');
    if (!/^\d+(\.\d+)?$/.test(q.fiatAmount as string)) return badRequest(res, 'fiatAmount must be a number');
    const priced = priceQuote(TRANSAK_PROFILE, {
      fiatCurrency: q.fiatCurrency as string,
      cryptoCurrency: q.cryptoCurrency as string,
      network: q.network as string,
      paymentMethod: q.paymentMethod as string,
      fiatAmount: q.fiatAmount as string,
      country: typeof q.quoteCountryCode === 'string' ? q.quoteCountryCode : undefined,
    });
    if (!priced.ok) return badRequest(res, priced.message);
    res.json(priced.body);
  }

  private createSession(req: Request, res: Response): void {
    const params = (req.body as { widgetParams?: unknown } | undefined)?.widgetParams;
    if (typeof params !== 'object' || params === null) return badRequest(res, 'widgetParams is a required argument');
    const p = params as Record<string, unknown>;
    if (p.apiKey !== this.options.credentials.apiKey) return badRequest(res, 'Invalid apiKey in widgetParams');
    if (typeof p.referrerDomain !== 'string' || p.referrerDomain === '') return badRequest(res, 'referrerDomain is a required argument');
    // The real widget lets the customer fill what is missing; the simulator needs the order fixed.
    const missing = REQUIRED_WIDGET_PARAMS.filter((k) => typeof p[k] !== 'string' || p[k] === '');
    if (missing.length > 0) return badRequest(res, `${missing.join(', ')} is a required argument`);
    const priced = this.price(p);
    if (!priced.ok) return badRequest(res, priced.message);
    const sessionId = randomUUID();
    this.sessions.set(sessionId, { params: p, createdAtMs: Date.now() });
    const query = new URLSearchParams({ apiKey: this.options.credentials.apiKey, sessionId });
    res.json({ data: { widgetUrl: `${this.options.publicUrl}/global?${query.toString()}` } });
  }

  private price(p: Record<string, unknown>) {
    return priceQuote(TRANSAK_PROFILE, {
      fiatCurrency: String(p.fiatCurrency),
      cryptoCurrency: String(p.cryptoCurrencyCode),
      network: String(p.network),
      paymentMethod: String(p.paymentMethod),
      fiatAmount: String(p.fiatAmount),
    });
  }

  private listOrders(req: Request, res: Response): void {
    const q = req.query as Record<string, unknown>;
    const partnerOrderId = q['filter[partnerOrderId]'];
    const status = q['filter[status]'];
    const limit = Math.min(Number(q.limit ?? 100) || 100, 100);
    const skip = Number(q.skip ?? 0) || 0;
    // UNCONFIRMED: Transak documents COMPLETED as the default status filter; a partnerOrderId
    // lookup is served across statuses here (docs/providers/transak.md).
    const matching = [...this.orders.values()].filter(
      (o) =>
        (typeof partnerOrderId !== 'string' || o.partnerOrderId === partnerOrderId) && (typeof status !== 'string' || o.status === status),
    );
    res.json({
      meta: {
        filter: { productsAvailed: ['BUY'], ...(typeof status === 'string' ? { status: [status] } : {}) },
        limit,
        skip,
        totalCount: matching.length,
      },
      data: matching.slice(skip, skip + limit),
    });
  }

  private getOrder(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.orderId));
    if (!order) return badRequest(res, 'Order not found');
    res.json({ meta: { orderId: order.id }, data: order });
  }

  /** The session's order: the one it opened before, the partner's existing one, or a new one. */
  private sessionOrder(req: Request): { order: TransakSimOrder } | { error: string; status: number } {
    const sessionId = typeof req.query.sessionId === 'string' ? req.query.sessionId : '';
    const session = this.sessions.get(sessionId);
    if (!session || req.query.apiKey !== this.options.credentials.apiKey) return { status: 404, error: 'Invalid widget session' };
    const opened = session.orderId === undefined ? undefined : this.orders.get(session.orderId);
    if (opened) return { order: opened };
    if (Date.now() - session.createdAtMs > SESSION_TTL_MS) return { status: 410, error: 'This widget session has expired' };
    const partnerOrderId = typeof session.params.partnerOrderId === 'string' ? session.params.partnerOrderId : undefined;
    const existing = partnerOrderId === undefined ? undefined : [...this.orders.values()].find((o) => o.partnerOrderId === partnerOrderId);
    const order = existing ?? this.placeOrder(session.params);
    if (!order) return { status: 400, error: 'This order can no longer be priced' };
    session.orderId = order.id;
    return { order };
  }

  /** The customer confirms the order in the widget: Transak creates it, awaiting payment. */
  private placeOrder(p: Record<string, unknown>): TransakSimOrder | undefined {
    const priced = this.price(p);
    if (!priced.ok) return undefined;
    const now = new Date().toISOString();
    const order: TransakSimOrder = {
      id: randomUUID(),
      ...(typeof p.partnerOrderId === 'string' ? { partnerOrderId: p.partnerOrderId } : {}),
      ...(typeof p.partnerCustomerId === 'string' ? { partnerCustomerId: p.partnerCustomerId } : {}),
      walletAddress: String(p.walletAddress),
      createdAt: now,
      updatedAt: now,
      status: 'AWAITING_PAYMENT_FROM_USER',
      fiatCurrency: String(p.fiatCurrency),
      cryptoCurrency: String(p.cryptoCurrencyCode),
      isBuyOrSell: 'BUY',
      fiatAmount: Number(p.fiatAmount),
      amountPaid: 0,
      paymentOptionId: String(p.paymentMethod),
      network: String(p.network),
      quoteId: String(priced.body.response.quoteId),
      conversionPrice: priced.conversionPrice,
      cryptoAmount: Number(priced.cryptoAmount),
      totalFeeInFiat: Number(priced.totalFee),
      statusHistories: [],
    };
    this.orders.set(order.id, order);
    this.options.log?.(`transak: order ${order.id} created for partner order ${order.partnerOrderId ?? '(none)'}`);
    this.record(order);
    return order;
  }

  private widgetPage(req: Request, res: Response): void {
    const found = this.sessionOrder(req);
    if ('error' in found) {
      res.status(found.status).type('text/plain').send(found.error);
      return;
    }
    const { order } = found;
    res.type('html').send(
      renderCheckoutPage({
        reference: order.id,
        providerName: TRANSAK_PROFILE.name,
        status: order.status,
        fiatAmount: String(order.fiatAmount),
        fiatCurrency: order.fiatCurrency,
        cryptoAmount: String(order.cryptoAmount),
        cryptoCurrency: order.cryptoCurrency,
        network: order.network,
        walletAddress: order.walletAddress,
        paymentMethod: order.paymentOptionId,
        actions: ACTIONS[order.status],
      }),
    );
  }

  private widgetAction(req: Request, res: Response): void {
    const found = this.sessionOrder(req);
    if ('error' in found) {
      res.status(found.status).json({ error: { code: 'not_found', message: found.error } });
      return;
    }
    const { order } = found;
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = ACTIONS[order.status];
    if (!isCheckoutAction(action) || !allowed.includes(action)) {
      res.status(409).json({
        error: { code: 'invalid_action', message: `action ${String(action)} is not possible while the order is ${order.status}`, allowed },
      });
      return;
    }
    if (action === 'pay') this.payAsSwitched(order);
    this.play(order, stepsOf(action, order.status));
    res.json({ status: order.status, orderId: order.id, partnerOrderId: order.partnerOrderId });
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the order's. */
  private payAsSwitched(order: TransakSimOrder): void {
    const { paidFiatAmount, paidFiatCurrency, paidWalletAddress } = this.faults;
    if (paidFiatAmount) order.fiatAmount = Number(paidFiatAmount);
    if (paidFiatCurrency) order.fiatCurrency = paidFiatCurrency;
    if (paidWalletAddress) order.walletAddress = paidWalletAddress;
  }

  /** The first status at once, then one every `stepDelayMs` while nothing else has moved the order. */
  private play(order: TransakSimOrder, steps: readonly TransakSimStatus[]): void {
    const [first, ...rest] = steps;
    if (first === undefined) return;
    this.transition(order, first);
    const next = (index: number, expected: TransakSimStatus) => {
      const status = rest[index];
      if (status === undefined) return;
      this.timers.later(() => {
        if (order.status !== expected) return;
        this.transition(order, status);
        next(index + 1, status);
      }, this.options.stepDelayMs ?? 300);
    };
    next(0, first);
  }

  private transition(order: TransakSimOrder, status: TransakSimStatus): void {
    const now = new Date().toISOString();
    order.status = status;
    order.updatedAt = now;
    if (status === 'PENDING_DELIVERY_FROM_TRANSAK' || status === 'PROCESSING') order.amountPaid = order.fiatAmount;
    if (status === 'COMPLETED') {
      order.transactionHash = `0x${randomBytes(32).toString('hex')}`;
      order.transactionLink = `https://explorer.invalid/tx/${order.transactionHash}`;
      order.completedAt = now;
    }
    this.options.log?.(`transak: order ${order.id} -> ${status}`);
    this.record(order);
  }

  /** Adds the status to the order's history and sends its webhook. */
  private record(order: TransakSimOrder): void {
    const eventID = EVENT_IDS[order.status];
    order.statusHistories.push({ status: order.status, createdAt: order.updatedAt, partnerEventId: eventID });
    const snapshot = structuredClone(order);
    this.outbox = this.outbox
      .then(() => this.sendWebhook(snapshot, eventID))
      .catch((err: unknown) => this.options.log?.(`transak: webhook for ${snapshot.id} not sent: ${(err as Error).message}`));
  }

  private async sendWebhook(order: TransakSimOrder, eventID: string): Promise<void> {
    // Signed with the partner's current access token, as Transak does.
    const token = this.accessToken;
    if (!token) {
      this.options.log?.(`transak: webhook for ${order.id} not sent: no access token issued yet`);
      return;
    }
    const data = await signWebhookData(
      token.value,
      { webhookData: order, eventID, createdAt: order.updatedAt },
      Math.floor(Date.now() / 1000),
    );
    this.webhooks.send({
      orderKey: order.id,
      status: order.status,
      eventId: `${order.id}:${order.statusHistories.length}`,
      body: JSON.stringify({ data }),
      headers: {},
    });
  }
}

export function createTransakSimulator(options: TransakSimulatorOptions): TransakSimulator {
  return new TransakSimulatorServer(options);
}
