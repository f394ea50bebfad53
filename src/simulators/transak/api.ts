import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { countriesResponse, cryptoCurrenciesResponse, fiatCurrenciesResponse, priceQuote } from './catalogue';
import type { TransakSimulatorOptions } from './options';
import type { TransakSimOrder } from './orders';
import { TRANSAK_PROFILE } from './profile';
import type { PartnerAccessTokens } from './tokens';

/** A widget session the partner opened: the widget's parameters, and the order it opened once the customer confirmed. */
export interface WidgetSession {
  params: Record<string, unknown>;
  createdAtMs: number;
  orderId?: string;
}

const REQUIRED_WIDGET_PARAMS = ['fiatCurrency', 'fiatAmount', 'cryptoCurrencyCode', 'network', 'walletAddress', 'paymentMethod'];

/** Transak's error body. */
export const transakError = (statusCode: number, name: string, message: string) => ({ error: { statusCode, name, message } });
const unauthorized = (res: Response) => void res.status(401).json(transakError(401, 'Unauthorized', 'Authorization Required'));
const badRequest = (res: Response, message: string) => void res.status(400).json(transakError(400, 'Bad Request', message));

/** Prices the order of a session's widget parameters. */
export function priceWidget(p: Record<string, unknown>) {
  return priceQuote(TRANSAK_PROFILE, {
    fiatCurrency: String(p.fiatCurrency),
    cryptoCurrency: String(p.cryptoCurrencyCode),
    network: String(p.network),
    paymentMethod: String(p.paymentMethod),
    fiatAmount: String(p.fiatAmount),
  });
}

/**
 * Transak's partner API: access tokens (refresh-token, `api-secret`), order lookups and widget
 * sessions (access token), and public lists and quotes (`partnerApiKey`).
 */
export class TransakApi {
  readonly router = express.Router();

  constructor(
    private readonly orders: ReadonlyMap<string, TransakSimOrder>,
    private readonly sessions: Map<string, WidgetSession>,
    private readonly tokens: PartnerAccessTokens,
    private readonly options: Pick<TransakSimulatorOptions, 'publicUrl' | 'credentials' | 'log'>,
  ) {
    const router = this.router;
    const partner = (req: Request, res: Response, next: NextFunction) => this.requireAccessToken(req, res, next);
    router.post('/partners/api/v2/refresh-token', (req, res) => this.refreshToken(req, res));
    router.get('/partners/api/v2/orders', partner, (req, res) => this.listOrders(req, res));
    router.get('/partners/api/v2/order/:orderId', partner, (req, res) => this.getOrder(req, res));
    router.post('/api/v2/auth/session', partner, (req, res) => this.createSession(req, res));
    router.get('/api/v1/pricing/public/quotes', (req, res) => this.quote(req, res));
    router.get('/api/v2/countries', (_req, res) => void res.json(countriesResponse(TRANSAK_PROFILE)));
    router.get('/cryptocoverage/api/v1/public/crypto-currencies', (_req, res) => void res.json(cryptoCurrenciesResponse()));
    router.get('/fiat/public/v1/currencies/fiat-currencies', (_req, res) => void res.json(fiatCurrenciesResponse(TRANSAK_PROFILE)));
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
    void this.tokens.issue(Date.now()).then((data) => {
      this.options.log?.(`transak: access token ${this.tokens.issued} issued`);
      res.json({ data });
    });
  }

  private requireAccessToken(req: Request, res: Response, next: NextFunction): void {
    if (!this.tokens.accepts(req.header('access-token'), Date.now())) return unauthorized(res);
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
    const priced = priceWidget(p);
    if (!priced.ok) return badRequest(res, priced.message);
    const sessionId = randomUUID();
    this.sessions.set(sessionId, { params: p, createdAtMs: Date.now() });
    const query = new URLSearchParams({ apiKey: this.options.credentials.apiKey, sessionId });
    res.json({ data: { widgetUrl: `${this.options.publicUrl}/global?${query.toString()}` } });
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
}
