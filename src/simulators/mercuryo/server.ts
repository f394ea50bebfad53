/**
 * A local simulator of Mercuryo's Widget Partner API v1.6 and of its redirect widget: public
 * catalogue, limit and rate endpoints (`widget_id`), the transaction lookup (`Sdk-Partner-Token`),
 * the signed widget URL (v2 signature), and `X-Signature` callbacks for every operation status.
 */
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { apiError, MercuryoApi } from './api';
import { MercuryoCheckout } from './checkout';
import { MercuryoLifecycle } from './lifecycle';
import type { MercuryoSimulatorOptions } from './options';
import type { SimPurchase } from './purchase';

export type { MercuryoSimulatorOptions } from './options';

export class MercuryoSimulator extends SimulatorBase {
  readonly code = 'mercuryo';
  /** Purchases by merchant_transaction_id (the broker's order id). */
  readonly purchases = new Map<string, SimPurchase>();

  constructor(options: MercuryoSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const lifecycle = new MercuryoLifecycle(this.parts, options.credentials.signKey);
    // The widget is the customer's page: no fault injection there.
    this.app.use(new MercuryoCheckout(this.purchases, lifecycle, options, this.faults, this.playedAction).router);
    this.injectFaultsUnder('/v1.6', (res) => apiError(res, 503, 'Service temporarily unavailable'));
    this.app.use(new MercuryoApi(this.purchases, options.credentials).router);
    this.app.use((_req: Request, res: Response) => apiError(res, 404, 'Not found'));
  }

  /** Each purchase once, by Mercuryo's transaction id; its reference is the merchant_transaction_id the widget URL gave. */
  simulatedOrders(): SimulatedOrder[] {
    return [...this.purchases.values()].map((p) => ({
      id: p.transactionId,
      reference: p.merchantTransactionId,
      status: p.withdraw ? `withdraw:${p.withdraw.status}` : `${p.paymentType}:${p.payment.status}`,
      created_at: p.payment.createdAt.toISOString(),
    }));
  }
}

export function createMercuryoSimulator(options: MercuryoSimulatorOptions): MercuryoSimulator {
  return new MercuryoSimulator(options);
}
