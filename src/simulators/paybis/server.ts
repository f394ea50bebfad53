/**
 * A local simulator of Paybis's Widget API, mounted at `/paybis` (which plays
 * https://widget-api.paybis.com): public catalogue, quotes, server-side requests with the partner's
 * RSA-PSS signature checked, the transaction list (the status lookup's and the reconciliation's: it
 * shows the books switches), a widget page whose buttons drive a transaction through Paybis's
 * statuses, and transaction status webhooks signed with Paybis's RSA key.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import express, { type Request, type Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { PhantomRequest } from '../kit/books';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { PaybisApi, refuse } from './api';
import { PaybisCheckout } from './checkout';
import { invoiceBase, PaybisLifecycle } from './lifecycle';
import type { PaybisSimulatorOptions } from './options';
import { currentTransaction, simStatusOf, type PaybisSimRequest } from './orders';

export type { PaybisSimulatorOptions } from './options';

export class PaybisSimulator extends SimulatorBase {
  readonly code = 'paybis';
  readonly requests = new Map<string, PaybisSimRequest>();

  constructor(options: PaybisSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const lifecycle = new PaybisLifecycle(this.parts, options.credentials);
    const api = new PaybisApi(this.requests, options, this.faults, this.books);
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
    this.books.makePhantomsWith((request) => this.phantom(request));
    this.app.use((_req: Request, res: Response) => refuse(res, 404, 'NOT_FOUND', 'Not found'));
  }

  /**
   * A card purchase of 0.001 BTC for 100.00 EUR that only Paybis's books hold: a request no quote or
   * widget made, with one transaction, `completed` (or `status`, in the webhook's or the list's
   * words), and no webhook. Its `partnerTransactionId` is the `reference` given, else none (no order
   * of the broker's). Its id is the request id, the provider order id the adapter lists it under.
   */
  private phantom(request: PhantomRequest): { id: string } | undefined {
    const status = simStatusOf(request.status ?? 'completed');
    if (!status) return undefined;
    const now = new Date();
    const paid = status === 'paid' || status === 'completed' || status === 'rejected';
    const requestId = randomUUID();
    this.requests.set(requestId, {
      requestId,
      partnerUserId: `phantom-${randomUUID()}`,
      partnerTransactionId: request.reference ?? null,
      quote: {
        id: randomUUID(),
        fiat: 'EUR',
        code: 'BTC',
        fiatAmount: '100.00',
        cryptoAmount: '0.001',
        paymentMethodId: 'credit-card',
        paymentMethodName: 'Credit/debit card',
        expiresAt: now,
      },
      walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      fiatAmount: '100.00',
      fiat: 'EUR',
      createdAt: now,
      transactions: [
        {
          id: randomUUID(),
          invoice: `${invoiceBase()}TX1`,
          status,
          hash: status === 'completed' ? simulatedTransactionHash() : null,
          createdAt: now,
          paidAt: paid ? now : null,
        },
      ],
    });
    return { id: requestId };
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
