/**
 * A local simulator of Onramp.money's merchant REST API (signed `X-ONRAMP-*` headers: id mappings,
 * limits, country configuration, quotes, merchantHistory, order status) and of its hosted widget
 * (`/main/buy/?appId=...&merchantRecognitionId=...`), with the one webhook Onramp.money sends: when
 * the withdrawal is complete. Every earlier status is seen by polling only. merchantHistory honours
 * the books switches (src/simulators/kit/books.ts); it is also what the status lookups read.
 */
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { PhantomRequest } from '../kit/books';
import { quote } from '../kit/pricing';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { apiError, OnrampMoneyApi } from './api';
import { OnrampMoneyCheckout } from './checkout';
import { OnrampMoneyLifecycle } from './lifecycle';
import type { OnrampMoneySimulatorOptions } from './options';
import { ONRAMP_MONEY_PROFILE } from './profile';
import { isOnrampStatus, nextOrderId, type SimTransaction } from './transactions';

/** Statuses at which the crypto was bought (3, 13 and on), and at which it was sent (4, 5, 15, 16). */
const BOUGHT = new Set([3, 4, 5, 13, 14, 15, 16]);
const SENT = new Set([4, 5, 15, 16]);

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
    this.app.use(new OnrampMoneyApi(this.transactions, options.credentials, this.books).router);
    // A purchase only Onramp.money's books hold (reconciliation tests): in merchantHistory, never announced.
    this.books.makePhantomsWith((request) => this.phantom(request));
    this.app.use((_req: Request, res: Response) => apiError(res, 404, 'Not found'));
  }

  /**
   * A SEPA purchase of EUR 100 of BTC that only Onramp.money's books hold: no widget, no webhook.
   * Completed (16, webhook sent) unless `status` names another onramp status code; under the
   * `reference` given as merchantRecognitionId, else none (`""`, as the documented history shows it).
   */
  private phantom(request: PhantomRequest): { id: string } | undefined {
    const status = Number(request.status ?? '16');
    if (!Number.isInteger(status) || !isOnrampStatus(status)) return undefined;
    const priced = quote(ONRAMP_MONEY_PROFILE, {
      fiat: 'EUR',
      crypto: 'BTC',
      network: 'btc',
      fiatAmount: '100',
      paymentMethod: 'SEPA_BANK_TRANSFER',
    });
    if (!priced.ok) return undefined;
    const now = new Date();
    const tx: SimTransaction = {
      orderId: nextOrderId(),
      merchantRecognitionId: request.reference ?? '',
      widgetTerms: '',
      paymentMethod: 'SEPA_BANK_TRANSFER',
      walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      coinCode: 'btc',
      network: 'btc',
      fiatCurrency: 'EUR',
      fiatAmount: '100',
      expectedPrice: priced.price,
      expectedCryptoAmount: priced.cryptoAmount,
      ...(BOUGHT.has(status) ? { actualCryptoAmount: priced.cryptoAmount } : {}),
      onrampFee: priced.processingFee,
      gasFee: priced.networkFee,
      status,
      ...(SENT.has(status) ? { transactionHash: simulatedTransactionHash() } : {}),
      // The customer's transfer reference is claimed at 1, before the payment and the failures after it (-3, -4).
      ...(status >= 1 || status <= -3 ? { referenceId: String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999)) } : {}),
      webhookTrials: 0,
      createdAt: now,
      updatedAt: now,
    };
    this.transactions.set(String(tx.orderId), tx);
    this.parts.log?.(`onramp_money phantom order ${tx.orderId} (merchantRecognitionId ${tx.merchantRecognitionId || '-'})`);
    return { id: String(tx.orderId) };
  }

  simulatedOrders(): SimulatedOrder[] {
    return [...this.transactions.values()].map((tx) => ({
      id: String(tx.orderId),
      reference: tx.merchantRecognitionId || null,
      status: String(tx.status),
      created_at: tx.createdAt.toISOString(),
    }));
  }
}

export function createOnrampMoneySimulator(options: OnrampMoneySimulatorOptions): OnrampMoneySimulator {
  return new OnrampMoneySimulator(options);
}
