import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { WEBHOOK_STATUSES, orderJson, plan, type AlchemypaySimAction, type AlchemypaySimStatus, type SimOrder } from './orders';
import { webhookNewSignature } from './signing';

const dateTime = () => new Date().toISOString().replace('T', ' ').slice(0, 19);

/**
 * The simulated Alchemy Pay's orders over time: each action's status sequence, and a signed
 * webhook only for PAY_SUCCESS, PAY_FAIL and FINISHED, as Alchemy Pay documents.
 */
export class AlchemypayLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly appId: string,
    private readonly appSecret: string,
    /** The path of the callback URL, which the webhook signature covers. */
    private readonly callbackPath: string,
  ) {}

  act(order: SimOrder, action: AlchemypaySimAction): void {
    if (action === 'pay') this.payAsSwitched(order);
    this.parts.walks.start(order, plan(action), (status) => this.apply(order, status));
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the order's. */
  private payAsSwitched(order: SimOrder): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatCurrency) order.fiat = paid.fiatCurrency.toUpperCase();
    if (paid.walletAddress) order.address = paid.walletAddress;
    if (paid.fiatAmount) order.amount = new BigNumber(paid.fiatAmount).toFixed(8);
  }

  private apply(order: SimOrder, status: AlchemypaySimStatus): void {
    order.status = status;
    if (status === 'PAY_SUCCESS') order.payTime = dateTime();
    if (status === 'FINISHED') {
      order.txHash = simulatedTransactionHash();
      order.txTime = dateTime();
    }
    this.parts.log?.(`alchemypay order ${order.orderNo} -> ${status}`);
    if (WEBHOOK_STATUSES.has(status)) this.emit(order);
  }

  private emit(order: SimOrder): void {
    const timestamp = String(Date.now());
    const fields: Record<string, string> = orderJson(order, this.appId);
    fields.newSignature = webhookNewSignature(this.appSecret, timestamp, this.callbackPath, fields);
    this.parts.webhooks.send({
      orderKey: order.orderNo,
      status: order.status,
      eventId: randomUUID(),
      body: JSON.stringify(fields),
      headers: { timestamp },
    });
  }
}
