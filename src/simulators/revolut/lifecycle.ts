import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import type { SimWebhook } from './api';
import type { RevolutSimulatorCredentials } from './options';
import {
  allowedActions,
  EVENT_OF,
  type CheckoutAction,
  type RevolutFailReason,
  type RevolutSimOrder,
  type RevolutSimStatus,
} from './orders';
import { revolutWebhookHeaders } from './signing';

interface Step {
  status: RevolutSimStatus;
  failReason?: RevolutFailReason;
}

/** The simulated Revolut Ramp's orders over time: the customer's actions, the status walks they play, one signed webhook per status. */
export class RevolutLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly credentials: RevolutSimulatorCredentials,
    private readonly webhooks: ReadonlyMap<string, SimWebhook>,
  ) {}

  allowedActions(order: RevolutSimOrder): CheckoutAction[] {
    return allowedActions(order, this.parts.walks.isWalking(order));
  }

  /** The customer started the purchase: the order exists, awaiting payment (`ORDER_CREATED`). */
  created(order: RevolutSimOrder): void {
    this.announce(order);
  }

  /** Plays an allowed action; every action stops a `pay` walk under way. */
  act(order: RevolutSimOrder, action: CheckoutAction): void {
    const { walks } = this.parts;
    if (action === 'pay') {
      this.payAsSwitched(order);
      walks.start(order, [{ status: 'PROCESSING' }, { status: 'COMPLETED' }] as Step[], (step) => this.transition(order, step));
      return;
    }
    walks.supersede(order);
    if (action === 'expire') return this.transition(order, { status: 'FAILED', failReason: 'PAYMENT_NOT_RECEIVED' });
    const failReason = order.status === 'PROCESSING' ? 'CRYPTO_WITHDRAWAL_FAILED' : 'PAYMENT_DECLINED';
    this.transition(order, { status: 'FAILED', failReason });
  }

  /** The `paid*` fault switches: what the customer pays instead of the order's terms, reported from now on. */
  private payAsSwitched(order: RevolutSimOrder): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatAmount) order.total = paid.fiatAmount;
    if (paid.fiatCurrency) order.fiatCurrency = paid.fiatCurrency;
    if (paid.walletAddress) order.wallet = paid.walletAddress;
  }

  private transition(order: RevolutSimOrder, step: Step): void {
    if (step.status === 'COMPLETED') order.transactionHash = simulatedTransactionHash();
    order.status = step.status;
    order.failReason = step.failReason;
    order.updatedAt = new Date();
    this.parts.log?.(`revolut order ${order.id} -> ${step.status}${step.failReason ? ` (${step.failReason})` : ''}`);
    this.announce(order);
  }

  /** The event of the order's status, to every webhook subscribed to it, each signed at sending. */
  private announce(order: RevolutSimOrder): void {
    const event = EVENT_OF[order.status];
    const body = JSON.stringify({ order_id: order.id, wallet: order.wallet, event });
    for (const hook of this.webhooks.values()) {
      if (!hook.events.includes(event)) continue;
      this.parts.webhooks.send({
        orderKey: order.id,
        status: event,
        eventId: `${order.id}:${event}:${hook.id}`,
        body,
        headers: revolutWebhookHeaders(this.credentials.webhookSecret, body, Date.now()),
        url: hook.url,
      });
    }
  }
}
