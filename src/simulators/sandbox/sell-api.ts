import { randomUUID } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { simulatedDepositAddress } from '../kit/deposit-address';
import { providerOrderMadeAt, type SimulatorFaults } from '../kit/faults';
import { cryptoLimits, payoutLimits, sellQuote, type SellProfile } from '../kit/sell-pricing';
import { sandboxError as error } from './orders';
import type { SandboxSellLifecycle } from './sell-lifecycle';
import type { SimSellOrder } from './sell-orders';

/** Between the order's creation and the end of its deposit window, unless the simulator is told otherwise. */
export const DEFAULT_DEPOSIT_WINDOW_MS = 30 * 60_000;

const DECIMAL = /^\d{1,30}(\.\d{1,30})?$/;

export interface SandboxSellApiOptions {
  /** The simulator's own public base URL, for checkout links. */
  publicUrl: string;
  depositWindowMs: number;
  log?: (message: string) => void;
}

/**
 * Sandbox Pay's sell (off-ramp) API under /v1/sell, behind the same API key as its buy API: what it
 * buys where and pays out how, quotes of crypto in and fiat out, orders that answer a deposit
 * instruction of their own, and order lookups (docs/providers.md, "Sell (off-ramp)").
 */
export class SandboxSellApi {
  readonly router = express.Router();
  readonly orders = new Map<string, SimSellOrder>();
  private readonly byPartnerId = new Map<string, string>();

  constructor(
    private readonly profile: SellProfile,
    private readonly options: SandboxSellApiOptions,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly lifecycle: Pick<SandboxSellLifecycle, 'watchDepositWindow'>,
  ) {
    const router = this.router;
    router.get('/v1/sell/currencies', (_req, res) => this.getCurrencies(res));
    router.get('/v1/sell/countries', (_req, res) => this.getCountries(res));
    router.get('/v1/sell/payout-methods', (_req, res) => this.getPayoutMethods(res));
    router.get('/v1/sell/quotes', (req, res) => this.getQuote(req, res));
    router.post('/v1/sell/orders', express.json({ limit: '64kb' }), (req, res) => this.createOrder(req, res));
    router.get('/v1/sell/orders', (req, res) => this.findOrder(req, res));
    router.get('/v1/sell/orders/:id', (req, res) => this.getOrder(req, res));
  }

  private getCurrencies(res: Response): void {
    res.json({
      fiat: this.profile.fiat.map((code) => ({ code })),
      crypto: this.profile.assets.map((asset) => {
        const [ticker = '', network] = asset.split('/');
        const { min, max } = cryptoLimits(this.profile, ticker);
        return { ticker, network, min_amount: min.toFixed(), max_amount: max.toFixed() };
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

  private getPayoutMethods(res: Response): void {
    res.json({
      payout_methods: this.profile.payoutMethods.map((method) => ({
        code: method.code,
        name: method.name,
        fee_rate: method.feeRate,
        fee_fixed_usd: method.feeFixedUsd,
        limits: Object.fromEntries(
          this.profile.fiat
            .filter((fiat) => !method.fiat || method.fiat.includes(fiat))
            .map((fiat) => {
              const { min, max } = payoutLimits(method, fiat);
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

  /** The answer of `GET /v1/sell/quotes` to a query, apart from authentication and faults. */
  quoteAnswer(q: Record<string, unknown>): { status: number; body: unknown } {
    const missing = ['crypto_currency', 'network', 'crypto_amount', 'fiat_currency', 'payout_method'].filter(
      (k) => typeof q[k] !== 'string' || q[k] === '',
    );
    if (missing.length > 0) return { status: 400, body: error('invalid_request', `missing ${missing.join(', ')}`) };
    const str = (k: string) => q[k] as string;
    if (!DECIMAL.test(str('crypto_amount')))
      return { status: 400, body: error('invalid_request', 'crypto_amount must be a decimal string') };
    const result = sellQuote(this.profile, {
      crypto: str('crypto_currency'),
      network: str('network'),
      cryptoAmount: str('crypto_amount'),
      fiat: str('fiat_currency'),
      payoutMethod: str('payout_method'),
      country: typeof q.country === 'string' ? q.country : undefined,
      state: typeof q.state === 'string' ? q.state : undefined,
    });
    if (!result.ok)
      return { status: result.status, body: error(result.code, result.message, { min_amount: result.min, max_amount: result.max }) };
    return {
      status: 200,
      body: {
        quote_id: randomUUID(),
        crypto_currency: str('crypto_currency'),
        network: str('network'),
        crypto_amount: str('crypto_amount'),
        fiat_currency: str('fiat_currency'),
        fiat_amount: result.fiatAmount,
        price: result.price,
        processing_fee: result.processingFee,
        network_fee: result.networkFee,
        payout_method: result.method.code,
        expires_at: new Date(Date.now() + this.profile.quoteTtlSeconds * 1000).toISOString(),
      },
    };
  }

  /**
   * `POST /v1/sell/orders`: the order, priced as a quote, with a deposit address made for it alone.
   * The same `partner_order_id` again answers the order it already made. Fields it does not document
   * are not read.
   */
  private createOrder(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const required = [
      'partner_order_id',
      'crypto_currency',
      'network',
      'crypto_amount',
      'fiat_currency',
      'payout_method',
      'country',
      'refund_address',
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
    if (!DECIMAL.test(s('crypto_amount'))) {
      res.status(400).json(error('invalid_request', 'crypto_amount must be a decimal string'));
      return;
    }
    const state = typeof body.state === 'string' ? body.state : undefined;
    const priced = sellQuote(this.profile, {
      crypto: s('crypto_currency'),
      network: s('network'),
      cryptoAmount: s('crypto_amount'),
      fiat: s('fiat_currency'),
      payoutMethod: s('payout_method'),
      country: s('country'),
      state,
    });
    if (!priced.ok) {
      res.status(priced.status).json(error(priced.code, priced.message, { min_amount: priced.min, max_amount: priced.max }));
      return;
    }
    const address = simulatedDepositAddress(s('network'));
    if (!address) {
      res.status(422).json(error('unsupported_asset', `no deposit addresses on ${s('network')}`));
      return;
    }
    const id = randomUUID();
    const now = Date.now();
    const order: SimSellOrder = {
      id,
      partner_order_id: s('partner_order_id'),
      side: 'sell',
      status: 'AWAITING_DEPOSIT',
      crypto_currency: s('crypto_currency'),
      network: s('network'),
      crypto_amount: s('crypto_amount'),
      fiat_currency: s('fiat_currency'),
      fiat_amount: priced.fiatAmount,
      processing_fee: priced.processingFee,
      network_fee: priced.networkFee,
      payout_method: priced.method.code,
      country: s('country'),
      ...(state ? { state } : {}),
      refund_address: s('refund_address'),
      deposit: {
        ...address,
        network: s('network'),
        amount: s('crypto_amount'),
        expires_at: new Date(now + this.options.depositWindowMs).toISOString(),
      },
      checkout_url: `${this.options.publicUrl}/sell/checkout/${id}`,
      ...(typeof body.return_url === 'string' ? { return_url: body.return_url } : {}),
      created_at: providerOrderMadeAt(this.faults, now).toISOString(),
      updated_at: new Date(now).toISOString(),
    };
    this.orders.set(id, order);
    this.byPartnerId.set(order.partner_order_id, id);
    this.lifecycle.watchDepositWindow(order);
    this.options.log?.(`sell order ${id} created for partner order ${order.partner_order_id}, deposit to ${order.deposit.address}`);
    res.status(201).json(order);
  }

  private findOrder(req: Request, res: Response): void {
    const partnerId = req.query.partner_order_id;
    const id = typeof partnerId === 'string' ? this.byPartnerId.get(partnerId) : undefined;
    const order = id === undefined ? undefined : this.orders.get(id);
    if (!order) {
      res.status(404).json(error('not_found', 'no sell order with that partner_order_id'));
      return;
    }
    res.json(order);
  }

  private getOrder(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).json(error('not_found', 'no such sell order'));
      return;
    }
    res.json(order);
  }
}
