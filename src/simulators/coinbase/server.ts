/**
 * A local simulator of Coinbase Onramp's buy flow: the buy config, options and quote endpoints, the
 * session token, the transaction status API (each call authenticated by a CDP JWT, EdDSA), the
 * one-click-buy page on `/pay` (a page whose buttons play the customer) and `X-Hook0-Signature` webhooks.
 */
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { CoinbaseApi, coinbaseError, type SimSession } from './api';
import { CoinbaseCheckout } from './checkout';
import { CoinbaseLifecycle } from './lifecycle';
import type { CoinbaseSimulatorOptions } from './options';
import type { SimTransaction } from './transactions';

export type { CoinbaseSimulatorOptions } from './options';

export class CoinbaseSimulator extends SimulatorBase {
  readonly code = 'coinbase';
  readonly transactions = new Map<string, SimTransaction>();
  readonly sessions = new Map<string, SimSession>();

  constructor(options: CoinbaseSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const lifecycle = new CoinbaseLifecycle(this.parts, options.credentials.webhookSecret);
    // The customer's page: a session token, no API faults.
    this.app.use(new CoinbaseCheckout(this.transactions, this.sessions, lifecycle, options, this.faults, this.playedAction).router);
    const outage = (res: Response) => coinbaseError(res, 503, 'service_unavailable', 'Service Unavailable');
    this.injectFaultsUnder('/onramp', outage);
    // The session token is the one thing made for an order before the customer's page (the order's lookup comes after).
    this.injectCreationFaultsOn('post', '/onramp/v1/token', outage, (res) =>
      coinbaseError(res, 400, 'invalid_request', 'this user is not eligible for Coinbase Onramp'),
    );
    this.app.use(new CoinbaseApi(this.transactions, this.sessions, options.credentials).router);
    this.app.use((_req: Request, res: Response) => coinbaseError(res, 404, 'not_found', 'Not Found'));
  }

  simulatedOrders(): SimulatedOrder[] {
    return [...this.transactions.values()].map((tx) => ({
      id: tx.transactionId,
      reference: tx.partnerUserRef,
      status: tx.status,
      created_at: tx.createdAt,
    }));
  }
}

export function createCoinbaseSimulator(options: CoinbaseSimulatorOptions): CoinbaseSimulator {
  return new CoinbaseSimulator(options);
}
