import { randomUUID } from 'node:crypto';
import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { FIAT_PER_USD } from '../kit/market';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import type { BanxaSimulatorCredentials } from './options';
import {
  allowedActions,
  failureStatus,
  payStepsFrom,
  webhookBody,
  type BanxaSimOrder,
  type BanxaSimStatus,
  type CheckoutAction,
} from './orders';
import { banxaAuthorization } from './signing';

/** The simulated Banxa's orders over time: the customer's actions, the status walks they play, one signed webhook per status. */
export class BanxaLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly credentials: BanxaSimulatorCredentials,
    /** The path of the broker's webhook URL: part of each signature. */
    private readonly webhookPath: string,
  ) {}

  allowedActions(order: BanxaSimOrder): CheckoutAction[] {
    return allowedActions(order, this.parts.walks.isWalking(order));
  }

  /** Plays an allowed action; every action stops a `pay` walk under way. */
  act(order: BanxaSimOrder, action: CheckoutAction): void {
    const { walks } = this.parts;
    if (action === 'pay') {
      this.payAsSwitched(order);
      const from = order.status === 'extraVerification' ? (order.heldFrom ?? 'pendingPayment') : order.status;
      walks.start(order, payStepsFrom(from), (status) => this.transition(order, status));
      return;
    }
    walks.supersede(order);
    switch (action) {
      case 'hold':
        order.heldFrom = order.status;
        this.transition(order, 'extraVerification');
        break;
      case 'fail':
        this.transition(order, failureStatus(order));
        break;
      case 'expire':
        this.transition(order, 'expired');
        break;
      case 'refund':
        this.transition(order, 'refunded');
        break;
    }
  }

  /** The `paid*` fault switches: what the customer pays instead of the order's terms, reported from now on. */
  private payAsSwitched(order: BanxaSimOrder): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatAmount) order.fiatAmount = paid.fiatAmount;
    if (paid.fiatCurrency) order.fiat = paid.fiatCurrency;
    if (paid.walletAddress) order.walletAddress = paid.walletAddress;
  }

  private transition(order: BanxaSimOrder, status: BanxaSimStatus): void {
    if (status === 'coinTransferred') order.transactionHash = simulatedTransactionHash();
    order.status = status;
    order.updatedAt = new Date();
    this.parts.log?.(`banxa order ${order.id} -> ${status}`);
    const body = JSON.stringify(webhookBody(order, FIAT_PER_USD[order.fiat] ?? '1'));
    this.parts.webhooks.send({
      orderKey: order.id,
      status,
      eventId: randomUUID(),
      body,
      headers: {
        authorization: banxaAuthorization(this.credentials, { method: 'POST', path: this.webhookPath, body }, Date.now()),
      },
    });
  }
}
