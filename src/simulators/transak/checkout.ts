import { randomUUID } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import { providerOrderMadeAt, type CheckoutActionDraw, type SimulatorFaults } from '../kit/faults';
import { brokerNetwork } from '../../providers/transak/networks';
import { simulatedDepositAddress } from '../kit/deposit-address';
import { priceSellWidget, priceWidget, type WidgetSession } from './api';
import type { TransakLifecycle } from './lifecycle';
import type { TransakSimulatorOptions } from './options';
import { ACTIONS, isCheckoutAction, isSellCheckoutAction, SELL_ACTIONS, type TransakSimOrder } from './orders';
import { TRANSAK_PROFILE } from './profile';
import { SELL_DEPOSIT_WINDOW_MS } from './sell-profile';

const SESSION_TTL_MS = 5 * 60_000;

/** The customer-facing widget (global.transak.com in production): a session's URL opens its order, the page's buttons drive it. */
export class TransakCheckout {
  readonly router = express.Router();

  constructor(
    private readonly orders: Map<string, TransakSimOrder>,
    private readonly sessions: ReadonlyMap<string, WidgetSession>,
    private readonly lifecycle: TransakLifecycle,
    private readonly options: Pick<TransakSimulatorOptions, 'credentials' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/global', (req, res) => this.widgetPage(req, res));
    this.router.post('/global', (req, res) => this.widgetAction(req, res));
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
    const order =
      existing ?? (session.params.productsAvailed === 'SELL' ? this.placeSellOrder(session.params) : this.placeOrder(session.params));
    if (!order) return { status: 400, error: 'This order can no longer be priced' };
    session.orderId = order.id;
    return { order };
  }

  /** The customer confirms the order in the widget: Transak creates it, awaiting payment. */
  private placeOrder(p: Record<string, unknown>): TransakSimOrder | undefined {
    const priced = priceWidget(p);
    if (!priced.ok) return undefined;
    const now = new Date().toISOString();
    const order: TransakSimOrder = {
      id: randomUUID(),
      ...(typeof p.partnerOrderId === 'string' ? { partnerOrderId: p.partnerOrderId } : {}),
      ...(typeof p.partnerCustomerId === 'string' ? { partnerCustomerId: p.partnerCustomerId } : {}),
      walletAddress: String(p.walletAddress),
      createdAt: providerOrderMadeAt(this.faults).toISOString(),
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
    this.lifecycle.created(order);
    return order;
  }

  /**
   * The customer finishes a sell in the widget: Transak creates the order awaiting the crypto, with a
   * deposit address of its own for it (valid for the network) and an hour to send it.
   */
  private placeSellOrder(p: Record<string, unknown>): TransakSimOrder | undefined {
    const priced = priceSellWidget(p);
    const network = brokerNetwork(String(p.cryptoCurrencyCode), String(p.network));
    const deposit = network === undefined ? undefined : simulatedDepositAddress(network);
    if (!priced.ok || !deposit) return undefined;
    const createdAt = providerOrderMadeAt(this.faults);
    const order: TransakSimOrder = {
      id: randomUUID(),
      ...(typeof p.partnerOrderId === 'string' ? { partnerOrderId: p.partnerOrderId } : {}),
      ...(typeof p.partnerCustomerId === 'string' ? { partnerCustomerId: p.partnerCustomerId } : {}),
      walletAddress: typeof p.walletAddress === 'string' ? p.walletAddress : '',
      createdAt: createdAt.toISOString(),
      updatedAt: new Date().toISOString(),
      status: 'AWAITING_PAYMENT_FROM_USER',
      fiatCurrency: String(p.fiatCurrency),
      cryptoCurrency: String(p.cryptoCurrencyCode),
      isBuyOrSell: 'SELL',
      fiatAmount: Number(priced.fiatAmount),
      amountPaid: 0,
      paymentOptionId: String(p.paymentMethod),
      network: String(p.network),
      quoteId: String(priced.body.response.quoteId),
      conversionPrice: priced.conversionPrice,
      cryptoAmount: Number(p.cryptoAmount),
      totalFeeInFiat: Number(priced.totalFee),
      statusHistories: [],
      cryptoPaymentData: { paymentAddress: deposit.address },
      addressAdditionalData: false,
      autoExpiresAt: new Date(createdAt.getTime() + SELL_DEPOSIT_WINDOW_MS).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    };
    this.orders.set(order.id, order);
    this.options.log?.(`transak: sell order ${order.id} created for partner order ${order.partnerOrderId ?? '(none)'}`);
    this.lifecycle.created(order);
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
        // A sell's page shows where to send the crypto.
        walletAddress: order.cryptoPaymentData?.paymentAddress ?? order.walletAddress,
        paymentMethod: order.paymentOptionId,
        actions: order.isBuyOrSell === 'SELL' ? SELL_ACTIONS[order.status] : ACTIONS[order.status],
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
    if (order.isBuyOrSell === 'SELL') return this.sellAction(order, action, res);
    const allowed = ACTIONS[order.status];
    if (!isCheckoutAction(action) || !allowed.includes(action)) {
      res.status(409).json({
        error: { code: 'invalid_action', message: `action ${String(action)} is not possible while the order is ${order.status}`, allowed },
      });
      return;
    }
    const played = this.playedAction(action, allowed);
    if (played) this.lifecycle.act(order, played);
    res.json({ status: order.status, orderId: order.id, partnerOrderId: order.partnerOrderId });
  }

  private sellAction(order: TransakSimOrder, action: unknown, res: Response): void {
    const allowed = SELL_ACTIONS[order.status];
    if (!isSellCheckoutAction(action) || !allowed.includes(action)) {
      res.status(409).json({
        error: { code: 'invalid_action', message: `action ${String(action)} is not possible while the order is ${order.status}`, allowed },
      });
      return;
    }
    const played = this.playedAction(action, allowed);
    if (played) this.lifecycle.actSell(order, played);
    res.json({ status: order.status, orderId: order.id, partnerOrderId: order.partnerOrderId });
  }
}
