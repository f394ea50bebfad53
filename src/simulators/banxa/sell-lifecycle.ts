import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import type { SimulatorParts } from '../kit/base';
import { FIAT_PER_USD } from '../kit/market';
import { simulatedDepositTransaction } from '../kit/deposit-address';
import { cryptoDecimals, sellPrice } from '../kit/sell-pricing';
import type { BanxaSimulatorCredentials } from './options';
import type { BanxaSimStatus } from './orders';
import { sellActionsOf, sellStepsOf, sellWebhookBody, type BanxaSellAction, type BanxaSimSellOrder } from './sell-orders';
import { BANXA_SELL_NETWORKS, BANXA_SELL_PROFILE } from './sell-profile';
import { banxaAuthorization } from './signing';

/** The simulated Banxa's sell orders over time: the customer's actions, their walks, one signed webhook per status. */
export class BanxaSellLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly credentials: BanxaSimulatorCredentials,
    private readonly webhookPath: string,
  ) {}

  /** What the customer may do now; nothing while a walk is under way. */
  allowedActions(order: BanxaSimSellOrder): BanxaSellAction[] {
    return this.parts.walks.isWalking(order) ? [] : sellActionsOf(order.status);
  }

  /**
   * Plays an allowed action. `wrong_amount` has nine tenths of the order's crypto arrive: Banxa pays
   * out for what it received, so the order's crypto amount, payout and fee follow it from then on.
   */
  act(order: BanxaSimSellOrder, action: BanxaSellAction): void {
    this.parts.walks.start(order, sellStepsOf(action, order.status), (status) => {
      if (status === 'paymentReceived') this.receive(order, action === 'wrong_amount');
      this.transition(order, status);
    });
  }

  /**
   * The partner confirmed the customer's transaction of an order waiting for it: Banxa sees it
   * arrive and pays out. Any other time the confirmation changes nothing here.
   */
  confirmed(order: BanxaSimSellOrder): void {
    if (order.status !== 'waitingPayment' || this.parts.walks.isWalking(order)) return;
    this.act(order, 'pay');
  }

  private receive(order: BanxaSimSellOrder, short: boolean): void {
    order.transactionHash ??= simulatedDepositTransaction(BANXA_SELL_NETWORKS[order.blockchain] ?? '');
    if (!short) return;
    const method = BANXA_SELL_PROFILE.payoutMethods.find((m) => m.code === order.paymentMethodId);
    const received = new BigNumber(order.cryptoAmount).times('0.9').decimalPlaces(cryptoDecimals(order.coin), BigNumber.ROUND_DOWN);
    const priced = method && sellPrice(BANXA_SELL_PROFILE, method, order.coin, order.fiat, received.toFixed());
    if (!priced?.fiatAmount) return;
    order.cryptoAmount = received.toFixed();
    order.fiatAmount = priced.fiatAmount;
    order.processingFee = priced.processingFee;
    order.networkFee = priced.networkFee;
  }

  private transition(order: BanxaSimSellOrder, status: BanxaSimStatus): void {
    order.status = status;
    order.updatedAt = new Date();
    this.parts.log?.(`banxa sell order ${order.id} -> ${status}`);
    const body = JSON.stringify(sellWebhookBody(order, FIAT_PER_USD[order.fiat] ?? '1'));
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
