import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { EVENT_IDS, stepsOf, type CheckoutAction, type TransakSimOrder, type TransakSimStatus } from './orders';
import { signWebhookData } from './signing';
import type { PartnerAccessTokens } from './tokens';

/**
 * The simulated Transak's orders over time: the status sequences of the customer's actions, each
 * status kept in the order's history and sent as a webhook signed with the partner's current access token.
 */
export class TransakLifecycle {
  /** Webhooks are signed asynchronously; this chain keeps them in the order of the transitions. */
  private outbox: Promise<void> = Promise.resolve();

  constructor(
    private readonly parts: SimulatorParts,
    private readonly tokens: PartnerAccessTokens,
  ) {}

  /** An order the customer confirmed in the widget: its first status and webhook. */
  created(order: TransakSimOrder): void {
    this.record(order);
  }

  /** Plays an allowed action's statuses, superseding the order's walk under way; `pay` first applies the paid terms. */
  act(order: TransakSimOrder, action: CheckoutAction): void {
    if (action === 'pay') this.payAsSwitched(order);
    this.parts.walks.start(order, stepsOf(action, order.status), (status) => this.transition(order, status));
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the order's. */
  private payAsSwitched(order: TransakSimOrder): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatAmount) order.fiatAmount = Number(paid.fiatAmount);
    if (paid.fiatCurrency) order.fiatCurrency = paid.fiatCurrency;
    if (paid.walletAddress) order.walletAddress = paid.walletAddress;
  }

  private transition(order: TransakSimOrder, status: TransakSimStatus): void {
    const now = new Date().toISOString();
    order.status = status;
    order.updatedAt = now;
    if (status === 'PENDING_DELIVERY_FROM_TRANSAK' || status === 'PROCESSING') order.amountPaid = order.fiatAmount;
    if (status === 'COMPLETED') {
      order.transactionHash = simulatedTransactionHash();
      order.transactionLink = `https://explorer.invalid/tx/${order.transactionHash}`;
      order.completedAt = now;
    }
    this.parts.log?.(`transak: order ${order.id} -> ${status}`);
    this.record(order);
  }

  /** Adds the status to the order's history and sends its webhook. */
  private record(order: TransakSimOrder): void {
    const eventID = EVENT_IDS[order.status];
    order.statusHistories.push({ status: order.status, createdAt: order.updatedAt, partnerEventId: eventID });
    const snapshot = structuredClone(order);
    this.outbox = this.outbox
      .then(() => this.sendWebhook(snapshot, eventID))
      .catch((err: unknown) => this.parts.log?.(`transak: webhook for ${snapshot.id} not sent: ${(err as Error).message}`));
  }

  private async sendWebhook(order: TransakSimOrder, eventID: string): Promise<void> {
    // Signed with the partner's current access token, as Transak does.
    const token = this.tokens.current;
    if (!token) {
      this.parts.log?.(`transak: webhook for ${order.id} not sent: no access token issued yet`);
      return;
    }
    const data = await signWebhookData(token, { webhookData: order, eventID, createdAt: order.updatedAt }, Math.floor(Date.now() / 1000));
    this.parts.webhooks.send({
      orderKey: order.id,
      status: order.status,
      eventId: `${order.id}:${order.statusHistories.length}`,
      body: JSON.stringify({ data }),
      headers: {},
    });
  }
}
