/**
 * A local simulator of MoonPay's buy flow: its public currency, country and quote endpoints
 * (`apiKey` query), its transaction lookups (`Authorization: Api-Key <secret>`), the signed buy
 * widget URL (a page whose buttons play the customer) and `Moonpay-Signature-V2` webhooks.
 */
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { MoonpayApi, moonpayError } from './api';
import { MoonpayCheckout } from './checkout';
import { MoonpayLifecycle } from './lifecycle';
import type { MoonpaySimulatorOptions } from './options';
import type { SimTransaction } from './transactions';

export type { MoonpaySimulatorOptions } from './options';

export class MoonpaySimulator extends SimulatorBase {
  readonly code = 'moonpay';
  readonly transactions = new Map<string, SimTransaction>();

  constructor(options: MoonpaySimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const lifecycle = new MoonpayLifecycle(this.parts, options.credentials.webhookKey);
    // The customer's widget: signed URL, no API faults.
    this.app.use(new MoonpayCheckout(this.transactions, lifecycle, options, this.faults, this.playedAction).router);
    const outage = (res: Response) => moonpayError(res, 503, 'MoonPayApiError', '1_SYS_UNKNOWN', 'Service Unavailable');
    for (const prefix of ['/v3', '/v1']) this.injectFaultsUnder(prefix, outage);
    // Nothing is created until the customer submits the widget: the lookup by our id is the one
    // call the broker's order creation makes (its status polls make it too).
    this.injectCreationFaultsOn('get', '/v1/transactions/ext/:externalTransactionId', outage, (res) =>
      moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', 'This customer cannot be served'),
    );
    this.app.use(new MoonpayApi(this.transactions, options.credentials).router);
    this.app.use((_req: Request, res: Response) => moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Not Found'));
  }

  simulatedOrders(): SimulatedOrder[] {
    return [...this.transactions.values()].map((tx) => ({
      id: tx.id,
      reference: tx.externalTransactionId,
      status: tx.status,
      created_at: tx.createdAt,
    }));
  }
}

export function createMoonpaySimulator(options: MoonpaySimulatorOptions): MoonpaySimulator {
  return new MoonpaySimulator(options);
}
