/**
 * A local simulator of Paybis's Widget API, mounted at `/paybis` (which plays
 * https://widget-api.paybis.com): public catalogue, quotes, server-side requests with the partner's
 * RSA-PSS signature checked, the transaction list, a widget page whose buttons drive a transaction
 * through Paybis's statuses, and transaction status webhooks signed with Paybis's RSA key.
 */
import type { IncomingMessage } from 'node:http';
import express, { type Request, type Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { PaybisApi, refuse } from './api';
import { PaybisCheckout } from './checkout';
import { PaybisLifecycle } from './lifecycle';
import type { PaybisSimulatorOptions } from './options';
import { currentTransaction, type PaybisSimRequest } from './orders';

export type { PaybisSimulatorOptions } from './options';

export class PaybisSimulator extends SimulatorBase {
  readonly code = 'paybis';
  readonly requests = new Map<string, PaybisSimRequest>();

  constructor(options: PaybisSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const lifecycle = new PaybisLifecycle(this.parts, options.credentials);
    const api = new PaybisApi(this.requests, options, this.faults);
    // The signature covers the exact bytes: keep them beside the parsed body.
    this.app.use(
      express.json({
        limit: '64kb',
        verify: (req: IncomingMessage & { rawBody?: Buffer }, _res, buf) => {
          req.rawBody = buf;
        },
      }),
    );
    this.app.use(new PaybisCheckout(this.requests, lifecycle, this.playedAction).router);
    this.app.use('/v2', api.authenticate);
    const outage = (res: Response) => refuse(res, 503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable');
    this.injectFaultsUnder('/v2', outage);
    // The order's quote (POST /v2/quote) answers as usual: only the request that locks it fails.
    this.injectCreationFaultsOn('post', '/v2/request', outage, (res) => refuse(res, 422, 'REQUEST_REJECTED', 'The request was rejected'));
    this.app.use(api.router);
    this.app.use((_req: Request, res: Response) => refuse(res, 404, 'NOT_FOUND', 'Not found'));
  }

  simulatedOrders(): SimulatedOrder[] {
    return [...this.requests.values()].map((r) => ({
      id: r.requestId,
      reference: r.partnerTransactionId,
      status: currentTransaction(r)?.status ?? 'created',
      created_at: r.createdAt.toISOString(),
    }));
  }
}

export function createPaybisSimulator(options: PaybisSimulatorOptions): PaybisSimulator {
  return new PaybisSimulator(options);
}
