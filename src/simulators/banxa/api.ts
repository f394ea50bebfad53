import { randomBytes } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { PhantomRequest, SimulatedBooks } from '../kit/books';
import { providerOrderMadeAt, type SimulatorFaults } from '../kit/faults';
import { listWindow } from '../kit/listing';
import { methodLimits, quote, type QuoteResult } from '../kit/pricing';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import type { BanxaSimulatorOptions } from './options';
import { isBanxaSimStatus, listedOrderView, orderView, type BanxaSimOrder } from './orders';
import { BANXA_CONTRACTS, BANXA_PROFILE, COUNTRY_NAMES } from './profile';

const DECIMAL = /^\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DEFAULT_PAGE_SIZE = 100;
/** The simulator's own bound on `limit` (Banxa documents none for this list; its legacy list's is 200). */
const MAX_PAGE_SIZE = 100;
const WHOLE = /^\d{1,9}$/;

/** A sell order as the order list shows it. */
export interface ListedSellOrder {
  id: string;
  createdAt: Date;
  status: string;
  externalCustomerId: string;
  view: object;
}

/** Banxa's error body: an application code and a message. */
export function refuse(res: Response, httpStatus: number, code: number, message: string): void {
  res.status(httpStatus).json({ code, message });
}

/** The kit's pricing refusals as Banxa's application codes. */
function refusePricing(res: Response, result: Extract<QuoteResult, { ok: false }>): void {
  if (result.code === 'unsupported_asset') return refuse(res, 422, 5034, `Coin restriction: ${result.message}`);
  if (result.code === 'unsupported_payment_method') return refuse(res, 422, 4007, 'The selected payment is not available');
  refuse(res, 422, 4002, `Validation error: ${result.message}`);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A whole-number query parameter of at least `min`: `fallback` when absent, undefined when it is not one. */
function whole(value: unknown, fallback: number, min: number): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !WHOLE.test(value)) return undefined;
  const n = Number(value);
  return n >= min ? n : undefined;
}

/** Banxa's partner API under /v2: catalogue, quotes, server-side buy orders and order lookups. */
export class BanxaApi {
  readonly router = express.Router();
  private readonly profile = BANXA_PROFILE;
  private reference = 17_000_000;

  constructor(
    private readonly orders: Map<string, BanxaSimOrder>,
    private readonly options: Pick<BanxaSimulatorOptions, 'publicUrl' | 'credentials' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly books: SimulatedBooks,
    /** Sell orders as the list shows them too (Banxa's one order list holds both sides). */
    private readonly sellListed: () => ListedSellOrder[] = () => [],
  ) {
    const router = this.router;
    router.get('/v2/crypto/buy', (_req, res) => this.cryptoList(res));
    router.get('/v2/fiats/buy', (_req, res) => this.fiatList(res));
    router.get('/v2/countries', (_req, res) => this.countryList(res));
    router.get('/v2/countries/:country/states', (req, res) => this.stateList(req, res));
    router.get('/v2/quotes/buy', (req, res) => this.quote(req, res));
    router.post('/v2/buy', (req, res) => this.createOrder(req, res));
    router.get('/v2/orders', (req, res) => this.listOrders(req, res));
    router.get('/v2/orders/:id', (req, res) => this.getOrder(req, res));
  }

  /** Every /v2 call carries the partner's API key. */
  readonly authenticate = (req: Request, res: Response, next: NextFunction): void => {
    if (req.header('x-api-key') !== this.options.credentials.apiKey)
      return refuse(res, 401, 40103, 'You are not authorized to access this resource.');
    next();
  };

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
      createdAt: providerOrderMadeAt(this.faults),
      updatedAt: now,
    };
    this.orders.set(order.id, order);
    this.options.log?.(`banxa order ${order.id} created (externalOrderId ${order.externalOrderId ?? '-'})`);
    res.json({ ...orderView(order, this.options.publicUrl), checkoutUrl: `${this.options.publicUrl}/checkout/${order.id}` });
  }

  /**
   * Banxa's order list (Hosted Checkout "Order Lookup"): `start` and `end` (creation dates, both
   * required, both included here), `status`, `externalCustomerId`, `page` (from 1), `limit` (at
   * most 100 here) and `skip`; newest first, with `pageTotal` and `total`. Malformed parameters are
   * a 400 validation error. What the books switches change shows here only: the order's lookups and
   * webhooks stay as they were.
   */
  private listOrders(req: Request, res: Response): void {
    const start = text(req.query.start);
    const end = text(req.query.end);
    const window = start && end && DATE.test(start) && DATE.test(end) ? listWindow(start, end) : undefined;
    if (!window) return refuse(res, 400, 4002, 'Validation error: start and end dates (YYYY-MM-DD, end not before start) required');
    const limit = whole(req.query.limit, DEFAULT_PAGE_SIZE, 1);
    const page = whole(req.query.page, 1, 1);
    const skip = whole(req.query.skip, 0, 0);
    if (limit === undefined || limit > MAX_PAGE_SIZE || page === undefined || skip === undefined) {
      return refuse(res, 400, 4002, `Validation error: page (from 1), limit (1-${MAX_PAGE_SIZE}) and skip must be whole numbers`);
    }
    const status = text(req.query.status);
    const customer = text(req.query.externalCustomerId);
    const matching = [...this.orders.values()]
      .filter(
        (o) =>
          window.holds(o.createdAt.toISOString()) &&
          !this.books.drops(o.externalOrderId) &&
          (!status || this.bookedStatus(o) === status) &&
          (!customer || o.externalCustomerId === customer),
      )
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    const rows = [
      ...matching.map((o) => ({ createdAt: o.createdAt, id: o.id, view: () => this.booked(o) })),
      ...this.sellListed()
        .filter(
          (o) =>
            window.holds(o.createdAt.toISOString()) && (!status || o.status === status) && (!customer || o.externalCustomerId === customer),
        )
        .map((o) => ({ createdAt: o.createdAt, id: o.id, view: () => o.view })),
    ].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    const first = skip + (page - 1) * limit;
    res.json({
      orders: rows.slice(first, first + limit).map((o) => o.view()),
      pageTotal: Math.ceil(Math.max(rows.length - skip, 0) / limit),
      total: rows.length,
    });
  }

  /** The status the books hold for the order: its own, unless switched. */
  private bookedStatus(order: BanxaSimOrder): string {
    return this.books.of(order.externalOrderId)?.status ?? order.status;
  }

  /** The order as the list shows it, with the books switches of its order applied (`fiatAmount` holds the fees). */
  private booked(order: BanxaSimOrder) {
    const switches = this.books.of(order.externalOrderId);
    return {
      ...listedOrderView(order, this.options.publicUrl),
      status: this.bookedStatus(order),
      ...(switches?.fiatAmount ? { fiatAmount: switches.fiatAmount } : {}),
    };
  }

  /**
   * A completed (or `status`) purchase of EUR 100 of bitcoin that only Banxa's books hold, for the
   * given reference or none: no checkout, no webhook.
   */
  phantom(request: PhantomRequest): { id: string } | undefined {
    const status = request.status ?? 'complete';
    if (!isBanxaSimStatus(status)) return undefined;
    const fiatAmount = '100.00';
    const priced = this.price('EUR', 'BTC', 'BTC', fiatAmount, 'debit-credit-card');
    if (!priced.ok) return undefined;
    const now = new Date();
    const order: BanxaSimOrder = {
      id: randomBytes(16).toString('hex'),
      reference: ++this.reference,
      externalOrderId: request.reference ?? null,
      externalCustomerId: `phantom-${randomBytes(4).toString('hex')}`,
      coin: 'BTC',
      blockchain: 'BTC',
      contract: null,
      fiat: 'EUR',
      fiatAmount,
      cryptoAmount: priced.cryptoAmount,
      assetPrice: priced.price,
      paymentMethodId: 'debit-credit-card',
      paymentMethodName: priced.method.name,
      processingFee: priced.processingFee,
      networkFee: priced.networkFee,
      walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      redirectUrl: this.options.publicUrl,
      status,
      transactionHash: status === 'complete' || status === 'coinTransferred' ? simulatedTransactionHash() : null,
      createdAt: now,
      updatedAt: now,
    };
    this.orders.set(order.id, order);
    this.options.log?.(`banxa phantom order ${order.id} (externalOrderId ${order.externalOrderId ?? '-'})`);
    return { id: order.id };
  }

  private getOrder(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) return refuse(res, 404, 1, 'Order not found');
    res.json(orderView(order, this.options.publicUrl));
  }
}
