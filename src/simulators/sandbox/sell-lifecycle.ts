import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import type { SimulatorParts } from '../kit/base';
import { simulatedDepositTransaction } from '../kit/deposit-address';
import { cryptoDecimals, sellPrice, type SellProfile } from '../kit/sell-pricing';
import type { SimulatorTimers } from '../kit/timers';
import { SELL_TERMINAL, type SimSellOrder, type SimSellStatus } from './sell-orders';
import { signSandboxPayload } from './signing';

/** One status a checkout action walks a sell order through, with what happens at it. */
interface SellStep {
  status: SimSellStatus;
  /** At DEPOSIT_CONFIRMING: the crypto amount that arrived (the order's when absent). */
  received?: string;
  /** At PAYOUT_FAILED or REFUNDED: why. */
  reason?: string;
}

/** What a checkout action may say besides its name: `wrong_amount`'s amount sent. */
export interface SellActionInput {
  amount?: string;
}

/** The payout method's failure, a deposit on another network, a deposit too small to pay anything out. */
export const SELL_FAILURE_REASONS = {
  payout: 'payout_rejected',
  wrongNetwork: 'deposit_wrong_network',
  tooSmall: 'deposit_below_fees',
  customer: 'customer_requested',
} as const;

/**
 * Sandbox Pay's sell orders over time: the deposit window, the customer's actions at the checkout
 * (a deposit, a wrong one, a late one, a failed payout, a refund), one signed webhook per status.
 */
export class SandboxSellLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly timers: SimulatorTimers,
    private readonly profile: SellProfile,
    private readonly webhookSecret: string,
  ) {}

  /** An order without a deposit when its window ends expires then (a deposit may still revive it). */
  watchDepositWindow(order: SimSellOrder): void {
    const wait = Math.max(0, Date.parse(order.deposit.expires_at) - Date.now());
    this.timers.later(() => {
      if (order.status !== 'AWAITING_DEPOSIT') return;
      this.parts.walks.supersede(order);
      this.transition(order, { status: 'EXPIRED' });
    }, wait);
  }

  /** Plays an allowed action: its first status at once, each next one a step delay later, unless another action comes first. */
  act(order: SimSellOrder, action: string, input: SellActionInput = {}): void {
    const steps = this.stepsOf(order, action, input);
    this.parts.walks.start(order, steps, (step) => this.transition(order, step));
  }

  private stepsOf(order: SimSellOrder, action: string, input: SellActionInput): SellStep[] {
    const unpaid = order.status === 'AWAITING_DEPOSIT' || order.status === 'EXPIRED';
    const deposit: SellStep[] = unpaid ? [{ status: 'DEPOSIT_CONFIRMING' }] : [];
    const payout: SellStep[] = [{ status: 'PAYOUT_PENDING' }, { status: 'COMPLETED' }];
    switch (action) {
      case 'pay':
        return [...deposit, ...payout];
      case 'late':
        return [...(order.status === 'AWAITING_DEPOSIT' ? [{ status: 'EXPIRED' as const }] : []), ...deposit, ...payout];
      case 'wrong_amount': {
        const received = input.amount ?? this.shortOf(order);
        const paysOut = sellPrice(this.profile, this.methodOf(order), order.crypto_currency, order.fiat_currency, received)?.fiatAmount;
        const arrived: SellStep = { status: 'DEPOSIT_CONFIRMING', received };
        return paysOut ? [arrived, ...payout] : [arrived, { status: 'REFUNDED', reason: SELL_FAILURE_REASONS.tooSmall }];
      }
      case 'wrong_network':
        return [
          { status: 'PAYOUT_FAILED', reason: SELL_FAILURE_REASONS.wrongNetwork },
          { status: 'REFUNDED', reason: SELL_FAILURE_REASONS.wrongNetwork },
        ];
      case 'fail':
        return [...deposit, { status: 'PAYOUT_FAILED', reason: SELL_FAILURE_REASONS.payout }];
      case 'refund':
        return [...deposit, { status: 'REFUNDED', reason: order.failure_reason ?? SELL_FAILURE_REASONS.customer }];
      case 'expire':
        return [{ status: 'EXPIRED' }];
      default:
        return [];
    }
  }

  /** A wrong amount's default: 90 % of the order's. */
  private shortOf(order: SimSellOrder): string {
    return new BigNumber(order.crypto_amount)
      .times('0.9')
      .decimalPlaces(cryptoDecimals(order.crypto_currency), BigNumber.ROUND_DOWN)
      .toFixed();
  }

  private methodOf(order: SimSellOrder) {
    return this.profile.payoutMethods.find((m) => m.code === order.payout_method)!;
  }

  private transition(order: SimSellOrder, step: SellStep): void {
    if (SELL_TERMINAL.includes(order.status)) return;
    switch (step.status) {
      case 'DEPOSIT_CONFIRMING':
        this.depositArrived(order, step.received ?? order.crypto_amount);
        break;
      case 'COMPLETED':
        order.payout_reference = `po_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
        break;
      case 'PAYOUT_FAILED':
        order.failure_reason = step.reason ?? SELL_FAILURE_REASONS.payout;
        break;
      case 'REFUNDED':
        order.failure_reason = step.reason ?? order.failure_reason ?? SELL_FAILURE_REASONS.customer;
        order.refund_tx_hash = simulatedDepositTransaction(order.network);
        break;
    }
    order.status = step.status;
    order.updated_at = new Date().toISOString();
    this.parts.log?.(`sell order ${order.id} -> ${step.status}`);
    this.emitWebhook(order);
  }

  /** The deposit seen on chain: its transaction, and the payout computed again from what arrived where it differs. */
  private depositArrived(order: SimSellOrder, received: string): void {
    order.deposit_tx_hash = simulatedDepositTransaction(order.network);
    order.received_crypto_amount = received;
    if (new BigNumber(received).eq(order.crypto_amount)) return;
    const priced = sellPrice(this.profile, this.methodOf(order), order.crypto_currency, order.fiat_currency, received);
    if (!priced) return;
    order.fiat_amount = priced.fiatAmount ?? '0.00';
    order.processing_fee = priced.processingFee;
    order.network_fee = priced.networkFee;
  }

  private emitWebhook(order: SimSellOrder): void {
    const eventId = randomUUID();
    const body = JSON.stringify({
      event_id: eventId,
      event_type: 'sell_order.status_changed',
      side: 'sell',
      created_at: new Date().toISOString(),
      order,
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
