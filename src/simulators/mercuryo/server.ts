/**
 * A local simulator of Mercuryo's Widget Partner API v1.6 and of its redirect widget: public
 * catalogue, limit and rate endpoints (`widget_id`), the transaction lookup and the transaction list
 * by dates (`Sdk-Partner-Token`; the books switches show in the list only), the signed widget URL (v2
 * signature), and `X-Signature` callbacks for every operation status; the off-ramp's sell widget,
 * quote and limits (sell-checkout.ts, sell-api.ts), its sales found by the same lookup.
 */
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { PhantomRequest } from '../kit/books';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { apiError, MercuryoApi } from './api';
import { MercuryoCheckout } from './checkout';
import { MercuryoLifecycle } from './lifecycle';
import type { MercuryoSimulatorOptions } from './options';
import { mercuryoId, newPurchase, PAYMENT_STATUSES, type SimPurchase } from './purchase';
import { MercuryoSellApi } from './sell-api';
import { MercuryoSellCheckout } from './sell-checkout';

export type { MercuryoSimulatorOptions } from './options';

export class MercuryoSimulator extends SimulatorBase {
  readonly code = 'mercuryo';
  /** Purchases by merchant_transaction_id (the broker's order id); a phantom made without one by `phantom:<transaction id>`. */
  readonly purchases = new Map<string, SimPurchase>();
  /** The off-ramp: the sell widget (`type=sell`) and its sales (sell-checkout.ts). */
  readonly sell: MercuryoSellCheckout;

  constructor(options: MercuryoSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const lifecycle = new MercuryoLifecycle(this.parts, options.credentials.signKey);
    this.sell = new MercuryoSellCheckout(this.parts, options);
    // The widget is the customer's page: no fault injection there. `type=sell` is the sell widget's.
    this.app.use(this.sell.router);
    this.app.use(new MercuryoCheckout(this.purchases, lifecycle, options, this.faults, this.playedAction).router);
    this.injectFaultsUnder('/v1.6', (res) => apiError(res, 503, 'Service temporarily unavailable'));
    this.app.use(new MercuryoSellApi(options.credentials.widgetId).router);
    this.app.use(new MercuryoApi(this.purchases, options.credentials, this.books, this.sell.sales).router);
    this.books.makePhantomsWith((request) => this.phantom(request));
    this.app.use((_req: Request, res: Response) => apiError(res, 404, 'Not found'));
  }

  /**
   * A card purchase of 0.001 BTC for 100 EUR that only Mercuryo's books hold: no widget, no callback.
   * Paid and delivered (payment `paid`, withdraw `completed`) unless `status` names another payment
   * status; with the `reference` given as its merchant_transaction_id (one no purchase has yet), else none.
   */
  private phantom(request: PhantomRequest): { id: string } | undefined {
    const status = request.status ?? 'paid';
    const reference = request.reference ?? null;
    if (!PAYMENT_STATUSES.includes(status) || (reference !== null && this.purchases.has(reference))) return undefined;
    const purchase = newPurchase({
      merchantTransactionId: reference,
      widgetTerms: '',
      paymentMethod: 'card',
      address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      currency: 'BTC',
      network: 'BITCOIN',
      fiatCurrency: 'EUR',
      fiatAmount: '100',
      cryptoAmount: '0.001',
    });
    purchase.payment.status = status;
    if (status === 'paid') {
      const now = new Date();
      purchase.withdraw = { id: mercuryoId(), status: 'completed', createdAt: now, updatedAt: now, hash: simulatedTransactionHash() };
    }
    this.purchases.set(reference ?? `phantom:${purchase.transactionId}`, purchase);
    return { id: purchase.transactionId };
  }

  /**
   * Each purchase and each sale once, by Mercuryo's transaction id (a sale by its `sell` leg's);
   * the reference is the merchant_transaction_id the widget URL gave. The per-order webhook
   * switches reach both.
   */
  simulatedOrders(): SimulatedOrder[] {
    const purchases = [...this.purchases.values()].map((p) => ({
      id: p.transactionId,
      reference: p.merchantTransactionId,
      status: p.withdraw ? `withdraw:${p.withdraw.status}` : `${p.paymentType}:${p.payment.status}`,
      created_at: p.payment.createdAt.toISOString(),
    }));
    const sales = [...this.sell.sales.values()].map((sale) => ({
      id: sale.sell.id,
      reference: sale.merchantTransactionId,
      status: `sell:${sale.sell.status}`,
      created_at: sale.sell.createdAt.toISOString(),
    }));
    return [...purchases, ...sales];
  }
}

export function createMercuryoSimulator(options: MercuryoSimulatorOptions): MercuryoSimulator {
  return new MercuryoSimulator(options);
}
