import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SimulatedBooks } from '../kit/books';
import { listWindow, type ListWindow } from '../kit/listing';
import { countriesResponse, cryptoCurrenciesResponse, fiatCurrenciesResponse, priceQuote, priceSellQuote } from './catalogue';
import type { TransakSimulatorOptions } from './options';
import { isSimStatus, type TransakSimOrder, type TransakSimStatus } from './orders';
import { TRANSAK_PROFILE } from './profile';
import type { PartnerAccessTokens } from './tokens';

/** A widget session the partner opened: the widget's parameters, and the order it opened once the customer confirmed. */
export interface WidgetSession {
  params: Record<string, unknown>;
  createdAtMs: number;
  orderId?: string;
}

const DAY_MS = 86_400_000;
/** The most rows one page of the order list holds here: `limit`'s documented default (Transak documents no maximum). */
const LIST_LIMIT = 100;
/** The window the order list searches when it is given no dates: the last 90 days (documented). */
const DEFAULT_LIST_DAYS = 90;

const REQUIRED_WIDGET_PARAMS = ['fiatCurrency', 'fiatAmount', 'cryptoCurrencyCode', 'network', 'walletAddress', 'paymentMethod'];
/** A sell session's: the crypto amount sold instead of the fiat amount, the payout method as `paymentMethod`. */
const REQUIRED_SELL_WIDGET_PARAMS = ['fiatCurrency', 'cryptoAmount', 'cryptoCurrencyCode', 'network', 'paymentMethod'];
const AMOUNT = /^\d+(\.\d+)?$/;

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

/** Prices the sell of a session's widget parameters. */
export function priceSellWidget(p: Record<string, unknown>) {
  return priceSellQuote({
    fiatCurrency: String(p.fiatCurrency),
    cryptoCurrency: String(p.cryptoCurrencyCode),
    network: String(p.network),
    paymentMethod: String(p.paymentMethod),
    cryptoAmount: String(p.cryptoAmount),
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
    private readonly books: SimulatedBooks,
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
    if (q.isBuyOrSell === 'SELL') return this.sellQuote(q, res);
    const missing = ['fiatCurrency', 'cryptoCurrency', 'network', 'paymentMethod', 'fiatAmount', 'isBuyOrSell'].filter(
      (k) => typeof q[k] !== 'string' || q[k] === '',
    );
    if (missing.length > 0) return badRequest(res, `${missing.join(', ')} is a required argument`);
    if (q.isBuyOrSell !== 'BUY') return badRequest(res, 'isBuyOrSell must be BUY or SELL');
    if (!AMOUNT.test(q.fiatAmount as string)) return badRequest(res, 'fiatAmount must be a number');
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

  /** A SELL quote: by `cryptoAmount` (a sell by fiat amount is not simulated: UNCONFIRMED). */
  private sellQuote(q: Record<string, unknown>, res: Response): void {
    const missing = ['fiatCurrency', 'cryptoCurrency', 'network', 'paymentMethod', 'cryptoAmount'].filter(
      (k) => typeof q[k] !== 'string' || q[k] === '',
    );
    if (missing.length > 0) return badRequest(res, `${missing.join(', ')} is a required argument`);
    if (!AMOUNT.test(q.cryptoAmount as string)) return badRequest(res, 'cryptoAmount must be a number');
    const priced = priceSellQuote({
      fiatCurrency: q.fiatCurrency as string,
      cryptoCurrency: q.cryptoCurrency as string,
      network: q.network as string,
      paymentMethod: q.paymentMethod as string,
      cryptoAmount: q.cryptoAmount as string,
      ...(typeof q.quoteCountryCode === 'string' ? { country: q.quoteCountryCode } : {}),
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
    const sell = p.productsAvailed === 'SELL';
    const missing = (sell ? REQUIRED_SELL_WIDGET_PARAMS : REQUIRED_WIDGET_PARAMS).filter((k) => typeof p[k] !== 'string' || p[k] === '');
    if (missing.length > 0) return badRequest(res, `${missing.join(', ')} is a required argument`);
    if (sell && !AMOUNT.test(p.cryptoAmount as string)) return badRequest(res, 'cryptoAmount must be a number');
    const priced = sell ? priceSellWidget(p) : priceWidget(p);
    if (!priced.ok) return badRequest(res, priced.message);
    const sessionId = randomUUID();
    this.sessions.set(sessionId, { params: p, createdAtMs: Date.now() });
    const query = new URLSearchParams({ apiKey: this.options.credentials.apiKey, sessionId });
    res.json({ data: { widgetUrl: `${this.options.publicUrl}/global?${query.toString()}` } });
  }

  /**
   * `GET /partners/api/v2/orders` (docs.transak.com/api/public/get-orders): `startDate` and
   * `endDate` (YYYY-MM-DD, both included; the last 90 days when absent), `limit` (1-100, default
   * 100) and `skip`, `filter[status]`, `filter[sortOrder]` (`desc`, the default, or `asc`),
   * `filter[productsAvailed]` (a JSON array, `["BUY"]` by default) and `filter[partnerOrderId]`.
   * Transak documents COMPLETED as the default status filter, and so does the list here; a lookup
   * by `partnerOrderId` without a status or dates is served across statuses and dates, as before
   * (UNCONFIRMED, docs/providers/transak.md).
   * What the books switches change shows in the list only: a lookup by `partnerOrderId` is a
   * status answer, and shows the order as it is.
   */
  private listOrders(req: Request, res: Response): void {
    const q = req.query as Record<string, unknown>;
    const partnerOrderId = q['filter[partnerOrderId]'];
    const lookup = typeof partnerOrderId === 'string';
    const asked = listQuery(q, lookup);
    if (typeof asked === 'string') return badRequest(res, asked);
    const status = asked.status ?? (lookup ? undefined : 'COMPLETED');
    const matching = [...this.orders.values()]
      .filter((o) => !lookup || o.partnerOrderId === partnerOrderId)
      .filter((o) => lookup || !this.books.drops(o.partnerOrderId))
      .map((o) => (lookup ? o : this.booked(o)))
      .filter(
        (o) =>
          asked.productsAvailed.includes(o.isBuyOrSell) && asked.window.holds(o.createdAt) && (status === undefined || o.status === status),
      )
      .sort((a, b) => (Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1)) * (asked.sortOrder === 'asc' ? -1 : 1));
    res.json({
      meta: {
        filter: { productsAvailed: asked.productsAvailed, ...(status === undefined ? {} : { status: [status] }) },
        sortOrder: asked.sortOrder,
        startDate: asked.startDate,
        endDate: asked.endDate,
        limit: asked.limit,
        skip: asked.skip,
        totalCount: matching.length,
      },
      data: matching.slice(asked.skip, asked.skip + asked.limit),
    });
  }

  /** The order as the list shows it, with the books switches of its partner order applied. */
  private booked(order: TransakSimOrder): TransakSimOrder {
    const switches = this.books.of(order.partnerOrderId);
    if (!switches) return order;
    return {
      ...order,
      ...(switches.status ? { status: switches.status as TransakSimStatus } : {}),
      // `fiatAmount` is what the customer pays, fees included: the amount the adapter reports.
      ...(switches.fiatAmount ? { fiatAmount: Number(switches.fiatAmount) } : {}),
    };
  }

  private getOrder(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.orderId));
    if (!order) return badRequest(res, 'Order not found');
    res.json({ meta: { orderId: order.id }, data: order });
  }
}

interface ListQuery {
  window: ListWindow;
  startDate?: string;
  endDate?: string;
  limit: number;
  skip: number;
  status?: TransakSimStatus;
  sortOrder: 'asc' | 'desc';
  productsAvailed: string[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (value: unknown): value is string =>
  typeof value === 'string' && DATE.test(value) && new Date(Date.parse(value)).toISOString().slice(0, 10) === value;
const count = (value: unknown, fallback: number): number | undefined =>
  value === undefined ? fallback : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : undefined;

/**
 * The order list's query, or what is wrong with it (a 400's message). Absent dates are the last
 * 90 days (documented), except for a `lookup` by partnerOrderId, which is left open on that side.
 */
function listQuery(q: Record<string, unknown>, lookup: boolean): ListQuery | string {
  const today = new Date().toISOString().slice(0, 10);
  const startDate =
    q.startDate ?? (lookup ? undefined : new Date(Date.parse(today) - DEFAULT_LIST_DAYS * DAY_MS).toISOString().slice(0, 10));
  const endDate = q.endDate ?? (lookup ? undefined : today);
  if ((startDate !== undefined && !isDate(startDate)) || (endDate !== undefined && !isDate(endDate))) {
    return 'startDate and endDate must be dates in YYYY-MM-DD format';
  }
  const window = listWindow(startDate, endDate);
  if (!window) return 'endDate must not be before startDate';
  const limit = count(q.limit, LIST_LIMIT);
  if (limit === undefined || limit < 1 || limit > LIST_LIMIT) return `limit must be an integer from 1 to ${LIST_LIMIT}`;
  const skip = count(q.skip, 0);
  if (skip === undefined) return 'skip must be a non-negative integer';
  const status = q['filter[status]'];
  if (status !== undefined && !isSimStatus(status)) return 'filter[status] is not an order status';
  const sortOrder = q['filter[sortOrder]'] ?? 'desc';
  if (sortOrder !== 'asc' && sortOrder !== 'desc') return 'filter[sortOrder] must be asc or desc';
  const productsAvailed = productsOf(q['filter[productsAvailed]']);
  if (!productsAvailed) return 'filter[productsAvailed] must be a JSON array of BUY and SELL';
  return {
    window,
    ...(startDate === undefined ? {} : { startDate }),
    ...(endDate === undefined ? {} : { endDate }),
    limit,
    skip,
    ...(status === undefined ? {} : { status }),
    sortOrder,
    productsAvailed,
  };
}

/** `filter[productsAvailed]`: a JSON-encoded array of `BUY` and `SELL`, `["BUY"]` when absent. */
function productsOf(value: unknown): string[] | undefined {
  if (value === undefined) return ['BUY'];
  if (typeof value !== 'string' || value.length > 40) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    const valid = Array.isArray(parsed) && parsed.length > 0 && parsed.every((p) => p === 'BUY' || p === 'SELL');
    return valid ? (parsed as string[]) : undefined;
  } catch {
    return undefined;
  }
}
