/**
 * A local simulator of Alchemy Pay's on-ramp: the Open API v4 (crypto list, fiat and payment
 * method queries, quotes, order query) behind `appid`/`timestamp`/`sign` headers, the signed ramp
 * page (whose buttons play the customer) and webhooks signed with `newSignature`.
 */
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { AlchemypayApi, achError } from './api';
import { AlchemypayCheckout } from './checkout';
import { AlchemypayLifecycle } from './lifecycle';
import type { AlchemypaySimulatorOptions } from './options';
import type { SimOrder } from './orders';

export type { AlchemypaySimulatorOptions } from './options';

export class AlchemypaySimulator extends SimulatorBase {
  readonly code = 'alchemypay';
  readonly orders = new Map<string, SimOrder>();

  constructor(options: AlchemypaySimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const { appId, appSecret } = options.credentials;
    const lifecycle = new AlchemypayLifecycle(this.parts, appId, appSecret, new URL(options.brokerWebhookUrl).pathname);
    this.app.use(new AlchemypayCheckout(this.orders, lifecycle, options, this.faults, this.playedAction).router);
    const outage = (res: Response) => achError(res, '9999', 'Service Unavailable', 503);
    this.injectFaultsUnder('/open', outage);
    // Nothing is created until the customer places the order on the ramp page: the order query is
    // the one call the broker's order creation makes. A refusal comes in the envelope, with HTTP 200.
    this.injectCreationFaultsOn('get', '/open/api/v4/merchant/query/trade', outage, (res) =>
      achError(res, '10009', 'Risk control: this user may not buy'),
    );
    this.app.use(new AlchemypayApi(this.orders, options.credentials).router);
    this.app.use((_req: Request, res: Response) => achError(res, '404', 'Not Found', 404));
  }

  simulatedOrders(): SimulatedOrder[] {
    return [...this.orders.values()].map((o) => ({
      id: o.orderNo,
      reference: o.merchantOrderNo,
      status: o.status,
      created_at: o.createTime,
    }));
  }
}

export function createAlchemypaySimulator(options: AlchemypaySimulatorOptions): AlchemypaySimulator {
  return new AlchemypaySimulator(options);
}
