/**
 * A local simulator of Onramp.money's merchant REST API (signed `X-ONRAMP-*` headers: id mappings,
 * limits, country configuration, quotes, merchantHistory, order status) and of its hosted widget
 * (`/main/buy/?appId=...&merchantRecognitionId=...`), with the one webhook Onramp.money sends: when
 * the withdrawal is complete. Every earlier status is seen by polling only.
 */
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { apiError, OnrampMoneyApi } from './api';
import { OnrampMoneyCheckout } from './checkout';
import { OnrampMoneyLifecycle } from './lifecycle';
import type { OnrampMoneySimulatorOptions } from './options';
import type { SimTransaction } from './transactions';

export type { OnrampMoneySimulatorOptions } from './options';

export class OnrampMoneySimulator extends SimulatorBase {
  readonly code = 'onramp_money';
  /** Transactions by Onramp.money's orderId; one merchantRecognitionId (the broker's order id) may have several. */
  readonly transactions = new Map<string, SimTransaction>();

  constructor(options: OnrampMoneySimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const lifecycle = new OnrampMoneyLifecycle(this.parts, options.credentials.apiSecret);
    // The widget is the customer's page: no fault injection there.
    this.app.use(new OnrampMoneyCheckout(this.transactions, lifecycle, options, this.faults, this.playedAction).router);
    this.injectFaultsUnder('/onramp', (res) => apiError(res, 503, 'currently down for maintenance'));
    this.app.use(new OnrampMoneyApi(this.transactions, options.credentials).router);
    this.app.use((_req: Request, res: Response) => apiError(res, 404, 'Not found'));
  }

  simulatedOrders(): SimulatedOrder[] {
    return [...this.transactions.values()].map((tx) => ({
      id: String(tx.orderId),
      reference: tx.merchantRecognitionId,
      status: String(tx.status),
      created_at: tx.createdAt.toISOString(),
    }));
  }
}

export function createOnrampMoneySimulator(options: OnrampMoneySimulatorOptions): OnrampMoneySimulator {
  return new OnrampMoneySimulator(options);
}
