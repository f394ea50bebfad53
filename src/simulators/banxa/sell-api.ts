/**
 * The simulated Banxa's sell (off-ramp) API under /v2 (Hosted Checkout "Create Sell Order", "Get a
 * Quote", "Confirm a sell order"): the sell catalogue, sell quotes (crypto in, net payout), server-side
 * sell orders, sell orders in the order lookup, and the partner's deposit confirmation.
 */
import { randomBytes } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { simulatedDepositAddress } from '../kit/deposit-address';
import { providerOrderMadeAt, type SimulatorFaults } from '../kit/faults';
import { payoutLimits, sellQuote, type SellQuoteResult } from '../kit/sell-pricing';
import { refuse } from './api';
import type { BanxaSimulatorOptions } from './options';
import type { BanxaSellLifecycle } from './sell-lifecycle';
import { sellOrderView, type BanxaSimSellOrder } from './sell-orders';
import { BANXA_SELL_NETWORKS, BANXA_SELL_PROFILE } from './sell-profile';

const DECIMAL = /^\d+(\.\d+)?$/;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The kit's sell pricing refusals as Banxa's application codes (sell-specific codes are not documented). */
function refuseSellPricing(res: Response, result: Extract<SellQuoteResult, { ok: false }>): void {
  if (result.code === 'unsupported_asset') return refuse(res, 422, 5034, `Coin restriction: ${result.message}`);
  if (result.code === 'unsupported_payout_method') return refuse(res, 422, 4007, 'The selected payment is not available');
  refuse(res, 422, 4002, `Validation error: ${result.message}`);
}

export class BanxaSellApi {
  readonly router = express.Router();
  private readonly profile = BANXA_SELL_PROFILE;
  private reference = 27_000_000;

  constructor(
    private readonly orders: Map<string, BanxaSimSellOrder>,
    private readonly options: Pick<BanxaSimulatorOptions, 'publicUrl' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly lifecycle: Pick<BanxaSellLifecycle, 'confirmed'>,
  ) {
    const router = this.router;
    router.get('/v2/crypto/sell', (_req, res) => this.cryptoList(res));
    router.get('/v2/fiats/sell', (_req, res) => this.fiatList(res));
    router.get('/v2/payment-methods/sell', (_req, res) => this.methodList(res));
    router.get('/v2/quotes/sell', (req, res) => this.quote(req, res));
    router.post('/v2/sell', (req, res) => this.createOrder(req, res));
    router.post('/v2/orders/:id/confirm', (req, res) => this.confirm(req, res));
    router.get('/v2/orders/:id', (req, res, next) => this.getOrder(req, res, next));
  }

  /** A sell order by Banxa's id or by the partner's `externalOrderId` (the confirm call takes either). */
  find(id: string): BanxaSimSellOrder | undefined {
    return this.orders.get(id) ?? [...this.orders.values()].find((o) => o.externalOrderId === id);
  }

  private cryptoList(res: Response): void {
    const coins = new Map<string, { id: string; blockchains: { id: string; address: null; unsupportedCountries: [] }[] }>();
    for (const asset of this.profile.assets) {
      const [coin = '', blockchain = ''] = asset.split('/');
      const entry = coins.get(coin) ?? { id: coin, blockchains: [] };
      entry.blockchains.push({ id: blockchain, address: null, unsupportedCountries: [] });
      coins.set(coin, entry);
    }
    res.json([...coins.values()]);
  }

  private fiatList(res: Response): void {
    res.json(
      this.profile.fiat.map((fiat) => ({
        id: fiat,
        supportedPaymentMethods: this.profile.payoutMethods
          .filter((m) => !m.fiat || m.fiat.includes(fiat))
          .map((m) => {
            const { min, max } = payoutLimits(m, fiat);
            return { id: m.code, name: m.name, minimum: min.toFixed(), maximum: max.toFixed() };
          }),
      })),
    );
  }

  private methodList(res: Response): void {
    res.json(this.profile.payoutMethods.map((m) => ({ id: m.code, name: m.name, supportedFiats: m.fiat ?? this.profile.fiat })));
  }

  private price(q: Record<string, unknown>, cryptoAmount: string): SellQuoteResult {
    return sellQuote(this.profile, {
      crypto: String(q.crypto),
      network: String(q.blockchain),
      cryptoAmount,
      fiat: String(q.fiat),
      payoutMethod: String(q.paymentMethodId),
    });
  }

  /** By `cryptoAmount` (a sell quote by fiat amount is not simulated). */
  private quote(req: Request, res: Response): void {
    const q = req.query;
    const missing = ['fiat', 'crypto', 'blockchain', 'paymentMethodId'].filter((k) => text(q[k]) === undefined);
    if (missing.length > 0) return refuse(res, 422, 4002, `Validation error: ${missing.join(', ')} required`);
    const cryptoAmount = text(q.cryptoAmount);
    if (cryptoAmount === undefined || !DECIMAL.test(cryptoAmount)) {
      return refuse(
        res,
        422,
        4002,
        'Validation error: cryptoAmount must be a decimal amount (this simulator quotes sells by crypto amount)',
      );
    }
    const result = this.price(q, cryptoAmount);
    if (!result.ok) return refuseSellPricing(res, result);
    res.json({
      paymentMethodId: result.method.code,
      cryptoAmount,
      fiatAmount: result.fiatAmount,
      processingFee: result.processingFee,
      networkFee: result.networkFee,
    });
  }

  private createOrder(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const missing = ['crypto', 'blockchain', 'fiat', 'walletAddress', 'redirectUrl', 'externalCustomerId'].filter(
      (k) => text(body[k]) === undefined,
    );
    if (missing.length > 0) return refuse(res, 422, 4002, `Validation error: ${missing.join(', ')} required`);
    const cryptoAmount = text(body.cryptoAmount);
    if (cryptoAmount === undefined || !DECIMAL.test(cryptoAmount)) {
      return refuse(res, 422, 4002, 'Validation error: cryptoAmount must be a decimal amount (this simulator sells by crypto amount)');
    }
    const paymentMethodId = text(body.paymentMethodId) ?? this.profile.payoutMethods.find((m) => m.fiat?.includes(String(body.fiat)))?.code;
    const priced = this.price({ ...body, paymentMethodId }, cryptoAmount);
    if (!priced.ok) return refuseSellPricing(res, priced);
    const blockchain = body.blockchain as string;
    const deposit = simulatedDepositAddress(BANXA_SELL_NETWORKS[blockchain] ?? '');
    if (!deposit) return refuse(res, 422, 5034, `Coin restriction: no deposits on ${blockchain}`);

    const now = new Date();
    const order: BanxaSimSellOrder = {
      id: randomBytes(16).toString('hex'),
      reference: ++this.reference,
      externalOrderId: text(body.externalOrderId) ?? null,
      externalCustomerId: body.externalCustomerId as string,
      coin: body.crypto as string,
      blockchain,
      fiat: body.fiat as string,
      fiatAmount: priced.fiatAmount,
      cryptoAmount,
      assetPrice: priced.price,
      paymentMethodId: priced.method.code,
      paymentMethodName: priced.method.name,
      processingFee: priced.processingFee,
      networkFee: priced.networkFee,
      customerWallet: body.walletAddress as string,
      customerWalletTag: text(body.walletAddressTag) ?? null,
      deposit,
      redirectUrl: body.redirectUrl as string,
      metadata: body.metadata ?? null,
      status: 'pendingPayment',
      transactionHash: null,
      createdAt: providerOrderMadeAt(this.faults),
      updatedAt: now,
    };
    this.orders.set(order.id, order);
    this.options.log?.(`banxa sell order ${order.id} created (externalOrderId ${order.externalOrderId ?? '-'})`);
    res.json({ ...sellOrderView(order, this.options.publicUrl), checkoutUrl: `${this.options.publicUrl}/checkout/${order.id}` });
  }

  /**
   * `POST /v2/orders/{orderId}/confirm`: the partner names the deposit transaction; the source must
   * be the wallet given at creation, the target the order's deposit address. 202; an order waiting
   * for its deposit then receives it under that hash and pays out.
   */
  private confirm(req: Request, res: Response): void {
    const order = this.find(String(req.params.id));
    if (!order) return refuse(res, 404, 1, 'Order not found');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const missing = ['transactionHash', 'sourceAddress', 'targetAddress'].filter((k) => text(body[k]) === undefined);
    if (missing.length > 0) return refuse(res, 422, 4002, `Validation error: ${missing.join(', ')} required`);
    if (body.sourceAddress !== order.customerWallet)
      return refuse(res, 422, 4002, 'Validation error: sourceAddress is not the order wallet');
    if (body.targetAddress !== order.deposit.address || (text(body.targetAddressTag) ?? undefined) !== order.deposit.memo) {
      return refuse(res, 422, 4002, 'Validation error: targetAddress is not the order deposit address');
    }
    if (order.status === 'pendingPayment' || order.status === 'extraVerification') {
      return refuse(res, 422, 4002, `Validation error: the order is not waiting for payment (${order.status})`);
    }
    order.transactionHash ??= body.transactionHash as string;
    this.options.log?.(`banxa sell order ${order.id} confirmed with ${String(body.transactionHash)}`);
    this.lifecycle.confirmed(order);
    res.status(202).json({});
  }

  private getOrder(req: Request, res: Response, next: NextFunction): void {
    const order = this.find(String(req.params.id));
    if (!order) return next();
    res.json(sellOrderView(order, this.options.publicUrl));
  }
}
