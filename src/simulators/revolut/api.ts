import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import { methodLimits, quote } from '../kit/pricing';
import type { RevolutSimulatorOptions } from './options';
import { orderJson, type BuyRequest, type RevolutSimOrder } from './orders';
import { FEE_PERCENTAGES, findCrypto, REVOLUT_CRYPTO, REVOLUT_PROFILE } from './profile';

const DECIMAL = /^\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
export const EVENT_TYPES = ['ORDER_CREATED', 'ORDER_PROCESSING', 'ORDER_COMPLETED', 'ORDER_FAILED'] as const;

/** Revolut's `{message}` error body (400, 404, 503). */
export function refuse(res: Response, status: number, message: string): void {
  res.status(status).json({ message });
}

export interface PricedBuy {
  cryptoAmount: string;
  rampFee: string;
  partnerFee: string;
  networkFee: string;
  exchangeRate: string;
}

/**
 * A buy of `amount` (what the customer pays, fees included) priced by the simulator's market: the
 * partner fee, when asked for, is taken out of the amount beside Revolut's fee and the network fee.
 */
export function priceBuy(
  fiat: string,
  amount: string,
  cryptoId: string,
  payment: string,
  region: string,
  feePercentage?: number,
): PricedBuy | string {
  const crypto = findCrypto(cryptoId);
  if (!crypto) return "Invalid field 'crypto'";
  const priced = quote(REVOLUT_PROFILE, {
    fiat,
    crypto: crypto.currency,
    network: crypto.blockchain,
    fiatAmount: amount,
    paymentMethod: payment,
    country: region,
  });
  if (!priced.ok) return priced.message;
  const partnerFee = new BigNumber(amount)
    .times(feePercentage ?? 0)
    .div(100)
    .decimalPlaces(2, BigNumber.ROUND_UP);
  const cryptoAmount = new BigNumber(priced.cryptoAmount).minus(partnerFee.div(priced.price)).decimalPlaces(8, BigNumber.ROUND_DOWN);
  if (cryptoAmount.lte(0)) return 'amount does not cover the fees';
  return {
    cryptoAmount: cryptoAmount.toFixed(),
    rampFee: priced.processingFee,
    partnerFee: partnerFee.toFixed(2),
    networkFee: priced.networkFee,
    exchangeRate: new BigNumber(1).div(priced.price).decimalPlaces(8).toFixed(),
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A simulated webhook subscription (`Webhook`). */
export interface SimWebhook {
  id: string;
  url: string;
  events: string[];
  signing_secret: string;
}

/**
 * Revolut Ramp's partner API: `/config`, `/quote`, `/buy` and the order lookups under
 * /partners/api/2.0, the webhook endpoints under /partners/api/1.0. Every call needs `X-API-KEY`.
 */
export class RevolutApi {
  readonly partners = express.Router();
  readonly webhookRoutes = express.Router();

  constructor(
    private readonly orders: ReadonlyMap<string, RevolutSimOrder>,
    private readonly buys: Map<string, BuyRequest>,
    private readonly webhooks: Map<string, SimWebhook>,
    private readonly options: Pick<RevolutSimulatorOptions, 'publicUrl' | 'credentials' | 'log'>,
  ) {
    const r = this.partners;
    r.get('/config', (_req, res) => void res.json(this.config()));
    r.get('/quote', (req, res) => this.quote(req, res));
    r.get('/buy', (req, res) => this.buy(req, res));
    r.get('/orders', (req, res) => this.listOrders(req, res));
    r.get('/orders/:id', (req, res) => this.getOrder(req, res));
    const w = this.webhookRoutes;
    w.get('/webhooks', (_req, res) => void res.json([...this.webhooks.values()]));
    w.post('/webhooks', express.json({ limit: '16kb' }), (req, res) => this.createWebhook(req, res));
    w.get('/webhooks/:id', (req, res) => {
      const hook = this.webhooks.get(String(req.params.id));
      if (!hook) return refuse(res, 404, 'Not found');
      res.json(hook);
    });
    w.delete('/webhooks/:id', (req, res) => {
      if (!this.webhooks.delete(String(req.params.id))) return refuse(res, 404, 'Not found');
      res.status(204).end();
    });
  }

  /** Every call carries the partner key; a wrong one is 401 with no body. */
  readonly authenticate = (req: Request, res: Response, next: NextFunction): void => {
    if (req.header('x-api-key') !== this.options.credentials.apiKey) {
      res.status(401).end();
      return;
    }
    next();
  };

  private config() {
    const card = REVOLUT_PROFILE.paymentMethods[0]!;
    return {
      version: '1.0.0',
      countries: [...REVOLUT_PROFILE.countries],
      fiat: REVOLUT_PROFILE.fiat.map((currency) => {
        const { min, max } = methodLimits(card, currency);
        return { currency, min_limit: min.toNumber(), max_limit: max.toNumber() };
      }),
      crypto: REVOLUT_CRYPTO,
      feePercentages: FEE_PERCENTAGES,
      payment_methods: REVOLUT_PROFILE.paymentMethods.map((m) => m.code),
    };
  }

  /** The query of `/quote` and `/buy`, checked; the refusal message, or the fields. */
  private buyFields(q: Record<string, unknown>) {
    for (const field of ['fiat', 'amount', 'crypto', 'payment', 'region']) {
      if (text(q[field]) === undefined) return `Invalid field '${field}'`;
    }
    if (!DECIMAL.test(q.amount as string)) return "Invalid field 'amount'";
    const feeText = text(q.feePercentage);
    const feePercentage = feeText === undefined ? undefined : Number(feeText);
    if (feePercentage !== undefined && !FEE_PERCENTAGES.includes(feePercentage)) return "Invalid field 'feePercentage'";
    const fields = {
      fiat: q.fiat as string,
      amount: q.amount as string,
      crypto: q.crypto as string,
      payment: q.payment as string,
      region: q.region as string,
      feePercentage,
    };
    const priced = priceBuy(fields.fiat, fields.amount, fields.crypto, fields.payment, fields.region, feePercentage);
    return typeof priced === 'string' ? priced : { ...fields, priced };
  }

  private quote(req: Request, res: Response): void {
    const fields = this.buyFields(req.query);
    if (typeof fields === 'string') return refuse(res, 400, fields);
    const { fiat, crypto, priced } = fields;
    const serviceFee = new BigNumber(priced.rampFee).plus(priced.partnerFee);
    res.json({
      service_fee: { amount: serviceFee.toNumber(), currency: fiat },
      network_fee: { amount: Number(priced.networkFee), currency: fiat },
      crypto: { amount: Number(priced.cryptoAmount), currencyId: crypto },
      partner_fee: { amount: Number(priced.partnerFee), currency: fiat },
    });
  }

  /** The redirect URL of a purchase; nothing is created until the customer opens it. */
  private buy(req: Request, res: Response): void {
    const fields = this.buyFields(req.query);
    if (typeof fields === 'string') return refuse(res, 400, fields);
    const wallet = text(req.query.wallet);
    if (wallet === undefined) return refuse(res, 400, "Invalid field 'wallet'");
    const orderId = text(req.query.orderId) ?? randomUUID();
    if (!UUID.test(orderId) && !ULID.test(orderId)) return refuse(res, 400, "Invalid field 'orderId'");
    const partnerRedirectUrl = text(req.query.partnerRedirectUrl);
    const additionalProperties: Record<string, string> = {};
    for (const [key, value] of Object.entries(req.query)) {
      if (key.startsWith('additionalProperties.') && typeof value === 'string') additionalProperties[key.slice(21)] = value;
    }
    this.buys.set(orderId, {
      orderId,
      payment: fields.payment,
      feePercentage: fields.feePercentage,
      partnerRedirectUrl,
      additionalProperties,
    });
    const minor = new BigNumber(fields.amount).times(100).integerValue(BigNumber.ROUND_HALF_UP).toFixed();
    const url = new URL(`${this.options.publicUrl}/widget`);
    const params: Record<string, string> = {
      fiatCurrency: fields.fiat,
      amount: minor,
      cryptoCurrency: fields.crypto,
      walletAddress: wallet,
      countryCode: fields.region,
      partnerId: 'a01798bc-7f0b-14ed-a12b-0e3fac1209ad',
      externalOrderId: orderId,
      disableFiatAmount: 'true',
      disableCryptoCurrency: 'true',
      disableWalletAddress: 'true',
      disableCountryCode: 'true',
      ...(partnerRedirectUrl ? { partnerRedirectUrl } : {}),
    };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    res.json({ ramp_redirect_url: url.toString() });
  }

  /** One order, by our id and its wallet; another wallet finds nothing. */
  private getOrder(req: Request, res: Response): void {
    const wallet = text(req.query.wallet);
    if (wallet === undefined) return refuse(res, 400, "Invalid field 'wallet'");
    const order = this.orders.get(String(req.params.id));
    if (!order || order.wallet !== wallet) return refuse(res, 404, 'Not found');
    res.json(orderJson(order));
  }

  private listOrders(req: Request, res: Response): void {
    const start = text(req.query.start);
    const end = text(req.query.end);
    if (!start || !DATE.test(start)) return refuse(res, 400, "Invalid field 'start'");
    if (!end || !DATE.test(end)) return refuse(res, 400, "Invalid field 'end'");
    const skip = Math.max(0, Number(text(req.query.skip) ?? 0) || 0);
    const limit = Number(text(req.query.limit) ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return refuse(res, 400, "Invalid field 'limit'");
    const matching = [...this.orders.values()]
      .filter((o) => {
        const day = o.createdAt.toISOString().slice(0, 10);
        return day >= start && day <= end;
      })
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    res.json(matching.slice(skip, skip + limit).map(orderJson));
  }

  private createWebhook(req: Request, res: Response): void {
    const body = (req.body ?? {}) as { url?: unknown; events?: unknown };
    if (typeof body.url !== 'string' || !URL.canParse(body.url)) return refuse(res, 400, "Invalid field 'url'");
    const events = Array.isArray(body.events) ? body.events : [];
    if (events.length === 0 || !events.every((e) => typeof e === 'string')) return refuse(res, 400, "Invalid field 'events'");
    // The simulated partner has one signing secret: every webhook it creates signs with it.
    const hook: SimWebhook = { id: randomUUID(), url: body.url, events: events, signing_secret: this.options.credentials.webhookSecret };
    this.webhooks.set(hook.id, hook);
    this.options.log?.(`revolut webhook ${hook.id} created for ${hook.url}`);
    res.json(hook);
  }
}
