/**
 * A local simulator of Coinbase Onramp's buy flow: the buy config, options and quote endpoints, the
 * session token, the transaction status API and the list of all transactions (each call
 * authenticated by a CDP JWT, EdDSA; the list shows what the books switches change), the
 * one-click-buy page on `/pay` (a page whose buttons play the customer) and `X-Hook0-Signature` webhooks.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { PhantomRequest } from '../kit/books';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { CoinbaseApi, coinbaseError, type SimSession } from './api';
import { CoinbaseCheckout } from './checkout';
import { CoinbaseLifecycle } from './lifecycle';
import type { CoinbaseSimulatorOptions } from './options';
import { findAsset } from './profile';
import { isSimStatus, type SimTransaction } from './transactions';

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
    this.app.use(new CoinbaseApi(this.transactions, this.sessions, options.credentials, this.books).router);
    this.books.makePhantomsWith((request) => this.phantom(request));
    this.app.use((_req: Request, res: Response) => coinbaseError(res, 404, 'not_found', 'Not Found'));
  }

  /** A successful (or `status`) purchase of 97.15 USDC on Base that only Coinbase's books hold: no page, no webhook. */
  private phantom(request: PhantomRequest): { id: string } | undefined {
    const status = request.status ?? 'ONRAMP_TRANSACTION_STATUS_SUCCESS';
    if (!isSimStatus(status)) return undefined;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const success = status === 'ONRAMP_TRANSACTION_STATUS_SUCCESS';
    const tx: SimTransaction = {
      transactionId: randomUUID(),
      sessionToken: `phantom:${randomUUID()}`,
      partnerUserRef: request.reference ?? null,
      status,
      failureReason: status === 'ONRAMP_TRANSACTION_STATUS_FAILED' ? 'FAILURE_REASON_BUY_FAILED' : 'FAILURE_REASON_UNSPECIFIED',
      createdAt: now,
      completedAt: success ? now : null,
      country: 'US',
      symbol: 'USDC',
      network: 'base',
      contractAddress: findAsset('USDC')?.networks.find((n) => n.name === 'base')?.contractAddress ?? '',
      walletAddress: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
      fiat: 'USD',
      paymentTotal: '100.00',
      paymentSubtotal: '97.15',
      coinbaseFee: '2.50',
      networkFee: '0.35',
      purchaseAmount: '97.15',
      exchangeRate: '1',
      paymentMethod: 'CARD',
      txHash: success ? simulatedTransactionHash() : '',
      userId: randomBytes(16).toString('hex'),
    };
    this.transactions.set(tx.transactionId, tx);
    return { id: tx.transactionId };
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
