/**
 * A local simulator of Transak: partner access tokens (refresh-token, `api-secret`), public lists
 * and quotes (`partnerApiKey`), widget sessions (`POST /api/v2/auth/session`), order lookup, a
 * widget page whose buttons drive the order, and webhooks `{"data": "<JWT>"}` HS256-signed with the
 * partner's current access token. Paths, field names, statuses and event ids are Transak's.
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { PhantomRequest } from '../kit/books';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import type { SimulatedOrder } from '../kit/simulated-orders';
import type { ProviderSimulator } from '../kit/host';
import { TransakApi, transakError, type WidgetSession } from './api';
import { TransakCheckout } from './checkout';
import { TransakLifecycle } from './lifecycle';
import type { TransakSimulatorOptions } from './options';
import { EVENT_IDS, isSimStatus, type TransakSimOrder } from './orders';
import { PartnerAccessTokens } from './tokens';

export type { TransakSimulatorOptions } from './options';

export interface TransakSimulator extends ProviderSimulator {
  readonly orders: ReadonlyMap<string, TransakSimOrder>;
  /** How many access tokens it has issued (each one invalidates the one before). */
  readonly accessTokensIssued: number;
  /** How many partner calls it refused for a missing, replaced or expired access token. */
  readonly accessTokenRejections: number;
}

class TransakSimulatorServer extends SimulatorBase implements TransakSimulator {
  readonly code = 'transak';
  readonly orders = new Map<string, TransakSimOrder>();
  private readonly tokens: PartnerAccessTokens;

  constructor(options: TransakSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    this.tokens = new PartnerAccessTokens(options.credentials.apiKey, options.accessTokenTtlMs);
    const sessions = new Map<string, WidgetSession>();
    const lifecycle = new TransakLifecycle(this.parts, this.tokens);
    this.app.use(express.json({ limit: '64kb' }));
    // The customer-facing widget: no faults, no API key check.
    this.app.use(new TransakCheckout(this.orders, sessions, lifecycle, options, this.faults, this.playedAction).router);
    const outage = (res: Response) => void res.status(503).json(transakError(503, 'Service Unavailable', 'simulated outage'));
    this.injectFaultsUnder(['/api', '/partners', '/cryptocoverage', '/fiat'], outage);
    // The widget session is made for the order (the order's lookup by our id answers as usual).
    this.injectCreationFaultsOn(
      'post',
      '/api/v2/auth/session',
      outage,
      (res) => void res.status(400).json(transakError(400, 'BadRequestError', 'This user is blocked')),
    );
    this.app.use(new TransakApi(this.orders, sessions, this.tokens, options, this.books).router);
    this.books.makePhantomsWith((request) => this.phantom(request));
    this.app.use((_req: Request, res: Response) => void res.status(404).json(transakError(404, 'Not Found', 'no such route')));
  }

  /**
   * A COMPLETED (or `status`) purchase of 100 EUR of ETH that only Transak's books hold: no widget
   * session, no webhook, and no `partnerOrderId` unless the request gives the reference.
   */
  private phantom(request: PhantomRequest): { id: string } | undefined {
    const status = request.status ?? 'COMPLETED';
    if (!isSimStatus(status)) return undefined;
    const now = new Date().toISOString();
    const hash = status === 'COMPLETED' ? simulatedTransactionHash() : undefined;
    const order: TransakSimOrder = {
      id: randomUUID(),
      ...(request.reference === undefined ? {} : { partnerOrderId: request.reference }),
      walletAddress: '0x12d8885e0F0BFc487d93A9e3DcB5c23cB86EE9ae',
      createdAt: now,
      updatedAt: now,
      status,
      fiatCurrency: 'EUR',
      cryptoCurrency: 'ETH',
      isBuyOrSell: 'BUY',
      fiatAmount: 100,
      amountPaid: status === 'COMPLETED' ? 100 : 0,
      paymentOptionId: 'sepa_bank_transfer',
      network: 'ethereum',
      quoteId: randomUUID(),
      conversionPrice: 0.0003,
      cryptoAmount: 0.02969,
      totalFeeInFiat: 1.03,
      statusHistories: [{ status, createdAt: now, partnerEventId: EVENT_IDS[status] }],
      ...(hash === undefined ? {} : { transactionHash: hash, transactionLink: `https://explorer.invalid/tx/${hash}`, completedAt: now }),
    };
    this.orders.set(order.id, order);
    return { id: order.id };
  }

  simulatedOrders(): SimulatedOrder[] {
    return [...this.orders.values()].map((o) => ({
      id: o.id,
      reference: o.partnerOrderId ?? null,
      status: o.status,
      created_at: o.createdAt,
    }));
  }

  get accessTokensIssued(): number {
    return this.tokens.issued;
  }

  get accessTokenRejections(): number {
    return this.tokens.rejected;
  }
}

export function createTransakSimulator(options: TransakSimulatorOptions): TransakSimulator {
  return new TransakSimulatorServer(options);
}
