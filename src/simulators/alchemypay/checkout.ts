import { randomInt } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import { providerOrderMadeAt, type CheckoutActionDraw, type SimulatorFaults } from '../kit/faults';
import { quote } from '../kit/pricing';
import { achError } from './api';
import type { AlchemypayLifecycle } from './lifecycle';
import type { AlchemypaySimulatorOptions } from './options';
import { ALLOWED_ACTIONS, isAction, orderJson, type SimOrder } from './orders';
import { ALCHEMYPAY_PROFILE, assetOf } from './profile';
import { hmacBase64, sameSignature, sortedPairs } from './signing';

/** The buy page's fixed signed path ("Ramp Signature Description"). */
const RAMP_BUY_PATH = '/index/rampPageBuy';

/**
 * The ramp page: a signed URL (`sign` over `timestamp + GET + /index/rampPageBuy? + sorted
 * parameters`) opens the order, which exists at Alchemy Pay from then on as PENDING; the page's
 * buttons play the customer.
 */
export class AlchemypayCheckout {
  readonly router = express.Router();

  constructor(
    private readonly orders: Map<string, SimOrder>,
    private readonly lifecycle: AlchemypayLifecycle,
    private readonly options: Pick<AlchemypaySimulatorOptions, 'credentials' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/ramp', (req, res) => this.page(req, res));
    this.router.post('/ramp', express.json({ limit: '8kb' }), (req, res) => this.action(req, res));
  }

  private session(req: Request, res: Response): SimOrder | undefined {
    const at = req.originalUrl.indexOf('?');
    const params = new URLSearchParams(at < 0 ? '' : req.originalUrl.slice(at + 1));
    const sign = params.get('sign') ?? '';
    params.delete('sign');
    const fields = Object.fromEntries(params);
    const expected = hmacBase64(this.options.credentials.appSecret, `${fields.timestamp ?? ''}GET${RAMP_BUY_PATH}?${sortedPairs(fields)}`);
    if (fields.appId !== this.options.credentials.appId || !sameSignature(sign, expected)) {
      achError(res, '10003', 'Sign verification failed', 400);
      return undefined;
    }
    const session = sortedPairs(fields);
    const existing = [...this.orders.values()].find((o) => o.session === session);
    if (existing) return existing;

    const asset = assetOf(fields.crypto ?? '', fields.network ?? '');
    const fiat = fields.fiat ?? '';
    const amount = fields.fiatAmount ?? '';
    if (!asset || fiat === '' || !/^\d+(\.\d+)?$/.test(amount) || !fields.address) {
      achError(res, '10005', 'crypto, network, fiat, fiatAmount and address are required', 400);
      return undefined;
    }
    const priced = quote(ALCHEMYPAY_PROFILE, {
      fiat,
      crypto: asset.ticker,
      network: asset.network,
      fiatAmount: amount,
      paymentMethod: fields.payWayCode ?? '10001',
    });
    if (!priced.ok) {
      achError(res, '3102', priced.message, 400);
      return undefined;
    }
    const order: SimOrder = {
      orderNo: String(randomInt(1e9, 2 ** 47)) + String(randomInt(1e5, 1e6)),
      merchantOrderNo: fields.merchantOrderNo ?? null,
      session,
      status: 'PENDING',
      crypto: fields.crypto!,
      network: fields.network!,
      address: fields.address,
      fiat,
      amount: new BigNumber(amount).toFixed(8),
      cryptoQuantity: priced.cryptoAmount,
      cryptoPrice: priced.price,
      rampFee: priced.processingFee,
      networkFee: priced.networkFee,
      payWayCode: priced.method.code,
      createTime: providerOrderMadeAt(this.faults).toISOString(),
      payTime: '',
      txHash: '',
      txTime: '',
    };
    this.orders.set(order.orderNo, order);
    this.options.log?.(`alchemypay order ${order.orderNo} placed for ${order.merchantOrderNo ?? '(no merchant order no)'}`);
    return order;
  }

  private page(req: Request, res: Response): void {
    const order = this.session(req, res);
    if (!order) return;
    const network = Object.entries({ ETH: 'ethereum', TRX: 'tron', BSC: 'bsc', SOL: 'solana' }).find(([c]) => c === order.network)?.[1];
    res.type('html').send(
      renderCheckoutPage({
        reference: order.orderNo,
        providerName: 'Alchemy Pay (simulator)',
        status: order.status,
        fiatAmount: order.amount,
        fiatCurrency: order.fiat,
        cryptoAmount: order.cryptoQuantity,
        cryptoCurrency: order.crypto,
        network: network ?? order.network,
        walletAddress: order.address,
        paymentMethod: 'Credit card',
        actions: ALLOWED_ACTIONS[order.status],
      }),
    );
  }

  private action(req: Request, res: Response): void {
    const order = this.session(req, res);
    if (!order) return;
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = ALLOWED_ACTIONS[order.status];
    if (!isAction(action) || !allowed.includes(action)) {
      res.status(409).json({
        error: { code: 'action_not_allowed', message: `${String(action)} is not possible while the order is ${order.status}`, allowed },
      });
      return;
    }
    const played = this.playedAction(action, allowed);
    if (played) this.lifecycle.act(order, played);
    res.json(orderJson(order, this.options.credentials.appId));
  }
}
