import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { providerOrderMadeAt, type SimulatorFaults } from '../kit/faults';
import { methodLimits, quote } from '../kit/pricing';
import type { SimulatorProfile } from '../kit/profile';
import type { SandboxLifecycle } from './lifecycle';
import type { SandboxSimulatorOptions } from './options';
import { sandboxError as error, shownOrder, type SimOrder } from './orders';

/** The sandbox provider's API under /v1: catalogue, quotes, server-side orders, order lookups and the partner's cancel. */
export class SandboxApi {
  readonly router = express.Router();
  private readonly byPartnerId = new Map<string, string>();

  constructor(
    private readonly orders: Map<string, SimOrder>,
    private readonly profile: SimulatorProfile,
    private readonly options: Pick<SandboxSimulatorOptions, 'apiKey' | 'publicUrl' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs' | 'oversizedField' | 'oversizedLength'>,
    private readonly lifecycle: Pick<SandboxLifecycle, 'cancel'>,
  ) {
    const router = this.router;
    router.get('/v1/currencies', (_req, res) => this.getCurrencies(res));
    router.get('/v1/countries', (_req, res) => this.getCountries(res));
    router.get('/v1/payment-methods', (_req, res) => this.getPaymentMethods(res));
    router.get('/v1/quotes', (req, res) => this.getQuote(req, res));
    router.post('/v1/orders', express.json({ limit: '64kb' }), (req, res) => this.createOrder(req, res));
    router.get('/v1/orders', (req, res) => this.findOrder(req, res));
    router.get('/v1/orders/:id', (req, res) => this.getOrder(req, res));
    router.post('/v1/orders/:id/cancel', (req, res) => this.cancelOrder(req, res));
  }

  /** Whether an `Authorization` header carries this provider's API key. */
  isAuthorized(authorization: string | undefined): boolean {
    return authorization === `Bearer ${this.options.apiKey}`;
  }

  readonly authenticate = (req: Request, res: Response, next: NextFunction): void => {
    if (!this.isAuthorized(req.header('authorization'))) {
      res.status(401).json(error('unauthorized', 'missing or wrong API key'));
      return;
    }
    next();
  };

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
      res.status(200).json(shownOrder(this.orders.get(existingId)!, this.faults));
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
      created_at: providerOrderMadeAt(this.faults).toISOString(),
      updated_at: now,
    };
    this.orders.set(id, order);
    this.byPartnerId.set(order.partner_order_id, id);
    this.options.log?.(`order ${id} created for partner order ${order.partner_order_id}`);
    res.status(201).json(shownOrder(order, this.faults));
  }

  private findOrder(req: Request, res: Response): void {
    const partnerId = req.query.partner_order_id;
    const id = typeof partnerId === 'string' ? this.byPartnerId.get(partnerId) : undefined;
    const order = id === undefined ? undefined : this.orders.get(id);
    if (!order) {
      res.status(404).json(error('not_found', 'no order with that partner_order_id'));
      return;
    }
    res.json(shownOrder(order, this.faults));
  }

  private getOrder(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).json(error('not_found', 'no such order'));
      return;
    }
    res.json(shownOrder(order, this.faults));
  }

  /**
   * `POST /v1/orders/{id}/cancel`, no body: the order, now `FAILED` with `failure_reason`
   * `cancelled_by_partner` (its webhook sent); 409 `not_cancellable` for an order paid or ended, 404
   * `not_found` for an unknown id.
   */
  private cancelOrder(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).json(error('not_found', 'no such order'));
      return;
    }
    if (!this.lifecycle.cancel(order)) {
      res.status(409).json(error('not_cancellable', `an order ${order.status} cannot be cancelled`, { status: order.status }));
      return;
    }
    this.options.log?.(`order ${order.id} cancelled by the partner`);
    res.json(shownOrder(order, this.faults));
  }
}
