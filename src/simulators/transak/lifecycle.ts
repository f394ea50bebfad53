import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import BigNumber from 'bignumber.js';
import { cryptoDecimals, sellPrice } from '../kit/sell-pricing';
import {
  EVENT_IDS,
  sellStepsOf,
  stepsOf,
  type CheckoutAction,
  type SellCheckoutAction,
  type TransakSimOrder,
  type TransakSimStatus,
} from './orders';
import { TRANSAK_SELL_PROFILE } from './sell-profile';
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

  /**
   * Plays an allowed sell action's statuses. `wrong_amount` first has another amount arrive (nine
   * tenths of the order's): Transak reconciles what it received, so the order's crypto amount, payout
   * and fee follow it in every later webhook and answer.
   */
  actSell(order: TransakSimOrder, action: SellCheckoutAction): void {
    if (action === 'wrong_amount') this.receiveOtherAmount(order);
    this.parts.walks.start(order, sellStepsOf(action, order.status), (status) => this.sellTransition(order, status));
  }

  private receiveOtherAmount(order: TransakSimOrder): void {
    const method = TRANSAK_SELL_PROFILE.payoutMethods.find((m) => m.code === order.paymentOptionId);
    const received = new BigNumber(order.cryptoAmount)
      .times('0.9')
      .decimalPlaces(cryptoDecimals(order.cryptoCurrency), BigNumber.ROUND_DOWN);
    const priced = method && sellPrice(TRANSAK_SELL_PROFILE, method, order.cryptoCurrency, order.fiatCurrency, received.toFixed());
    if (!priced?.fiatAmount) return;
    order.cryptoAmount = received.toNumber();
    order.fiatAmount = Number(priced.fiatAmount);
    order.totalFeeInFiat = new BigNumber(priced.processingFee).plus(priced.networkFee).toNumber();
    this.parts.log?.(`transak: sell order ${order.id} received ${received.toFixed()} ${order.cryptoCurrency}`);
  }

  private sellTransition(order: TransakSimOrder, status: TransakSimStatus): void {
    const now = new Date().toISOString();
    order.status = status;
    order.updatedAt = now;
    if (status === 'PENDING_DELIVERY_FROM_TRANSAK' || status === 'ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK') order.paymentMarkedAt ??= now;
    if (status === 'COMPLETED') {
      order.amountPaid = order.fiatAmount;
      order.fiatAmountPaid = order.fiatAmount;
      order.completedAt = now;
    }
    this.parts.log?.(`transak: sell order ${order.id} -> ${status}`);
    this.record(order);
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
