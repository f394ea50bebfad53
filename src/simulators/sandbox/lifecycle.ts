import { randomUUID } from 'node:crypto';
import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { CANCELLABLE, shownOrder, TERMINAL, type SimOrder, type SimStatus } from './orders';
import { signSandboxPayload } from './signing';

/** The sandbox provider's orders over time: the customer's actions, payment then settlement, one signed webhook per status. */
export class SandboxLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly webhookSecret: string,
  ) {}

  /** The customer has reached the payment step. */
  reachedPayment(order: SimOrder): void {
    if (order.status === 'CREATED') this.transition(order, 'AWAITING_PAYMENT');
  }

  /** Plays an allowed action; `pay` is received at once and settles one step delay later, unless another action comes first. */
  act(order: SimOrder, action: string): void {
    const { walks } = this.parts;
    if (action === 'pay') {
      this.payAsSwitched(order);
      this.reachedPayment(order);
      walks.start(order, ['PAYMENT_RECEIVED', 'COMPLETED'] as const, (status) => this.transition(order, status));
      return;
    }
    walks.supersede(order);
    switch (action) {
      case 'hold':
        this.transition(order, 'ON_HOLD');
        break;
      case 'fail':
        order.failure_reason = order.status === 'PAYMENT_RECEIVED' ? 'crypto_delivery_failed' : 'card_declined';
        this.transition(order, 'FAILED');
        break;
      case 'expire':
        this.transition(order, 'EXPIRED');
        break;
      case 'refund':
        this.transition(order, 'REFUNDED');
        break;
    }
  }

  /**
   * The partner's cancel (`POST /v1/orders/{id}/cancel`): an order still unpaid moves to `FAILED`
   * (`cancelled_by_partner`) at once, with its webhook, as the checkout's `fail` does, and no action
   * under way moves it afterwards. False, and nothing changes, for an order paid or ended.
   */
  cancel(order: SimOrder): boolean {
    if (!CANCELLABLE.includes(order.status)) return false;
    this.parts.walks.supersede(order);
    order.failure_reason = 'cancelled_by_partner';
    this.transition(order, 'FAILED');
    return true;
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the order's. */
  private payAsSwitched(order: SimOrder): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatAmount) order.fiat_amount = paid.fiatAmount;
    if (paid.fiatCurrency) order.fiat_currency = paid.fiatCurrency;
    if (paid.walletAddress) order.wallet_address = paid.walletAddress;
  }

  private transition(order: SimOrder, status: SimStatus): void {
    if (TERMINAL.includes(order.status)) return;
    if (status === 'COMPLETED') order.tx_hash = simulatedTransactionHash();
    order.status = status;
    order.updated_at = new Date().toISOString();
    this.parts.log?.(`order ${order.id} -> ${status}`);
    this.emitWebhook(order);
  }

  private emitWebhook(order: SimOrder): void {
    const eventId = randomUUID();
    const body = JSON.stringify({
      event_id: eventId,
      event_type: 'order.status_changed',
      created_at: new Date().toISOString(),
      order: shownOrder(order, this.parts.faults),
    });
    this.parts.webhooks.send({
      orderKey: order.id,
      status: order.status,
      eventId,
      body,
      headers: { 'sandbox-signature': signSandboxPayload(this.webhookSecret, body, Math.floor(Date.now() / 1000)) },
    });
  }
}
