/**
 * A local simulator of MoonPay's buy flow: its public currency, country and quote endpoints
 * (`apiKey` query), its transaction lookups (`Authorization: Api-Key <secret>`), the signed buy
 * widget URL (a page whose buttons play the customer) and `Moonpay-Signature-V2` webhooks.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import type { PhantomRequest } from '../kit/books';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { DEFAULT_PAYMENT_METHOD, findAsset, MoonpayApi, moonpayError } from './api';
import { MoonpayCheckout } from './checkout';
import { MoonpayLifecycle } from './lifecycle';
import { MoonpaySell } from './sell';
import type { MoonpaySimulatorOptions } from './options';
import { isSimStatus, type SimTransaction } from './transactions';

export type { MoonpaySimulatorOptions } from './options';

export class MoonpaySimulator extends SimulatorBase {
  readonly code = 'moonpay';
  readonly transactions = new Map<string, SimTransaction>();
  readonly sell: MoonpaySell;

  constructor(options: MoonpaySimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const lifecycle = new MoonpayLifecycle(this.parts, options.credentials.webhookKey);
    this.sell = new MoonpaySell(this.parts, options.credentials);
    // The customer's widget: signed URL, no API faults.
    this.app.use(new MoonpayCheckout(this.transactions, lifecycle, options, this.faults, this.playedAction).router);
    const outage = (res: Response) => moonpayError(res, 503, 'MoonPayApiError', '1_SYS_UNKNOWN', 'Service Unavailable');
    for (const prefix of ['/v3', '/v1']) this.injectFaultsUnder(prefix, outage);
    // Nothing is created until the customer submits the widget: the lookup by our id is the one
    // call the broker's order creation makes (its status polls make it too).
    this.injectCreationFaultsOn('get', '/v1/transactions/ext/:externalTransactionId', outage, (res) =>
      moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', 'This customer cannot be served'),
    );
    this.app.use(new MoonpayApi(this.transactions, options.credentials, this.books).router);
    // The off-ramp: sell quote, sell widget and sell transaction lookups (src/simulators/moonpay/sell.ts).
    this.app.use(this.sell.router);
    this.books.makePhantomsWith((request) => this.phantom(request));
    this.app.use((_req: Request, res: Response) => moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Not Found'));
  }

  /** A completed (or `status`) purchase of 0.001 BTC that only MoonPay's books hold: no widget, no webhook. */
  private phantom(request: PhantomRequest): { id: string } | undefined {
    const status = request.status ?? 'completed';
    if (!isSimStatus(status)) return undefined;
    const now = new Date().toISOString();
    const tx: SimTransaction = {
      id: randomUUID(),
      session: `phantom:${randomUUID()}`,
      createdAt: now,
      updatedAt: now,
      status,
      externalTransactionId: request.reference ?? null,
      externalCustomerId: null,
      customerId: randomUUID(),
      walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      asset: findAsset('btc')!,
      fiat: 'EUR',
      totalAmount: '100',
      baseCurrencyAmount: '95.5',
      quoteCurrencyAmount: '0.001',
      feeAmount: '3.99',
      networkFeeAmount: '0.51',
      paymentMethod: DEFAULT_PAYMENT_METHOD,
      widgetRedirectUrl: null,
      cryptoTransactionId: status === 'completed' ? simulatedTransactionHash() : null,
    };
    this.transactions.set(tx.id, tx);
    return { id: tx.id };
  }

  /** Buy and sell transactions alike (the per-order webhook switches reach both). */
  simulatedOrders(): SimulatedOrder[] {
    return [...this.transactions.values(), ...this.sell.transactions.values()].map((tx) => ({
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
