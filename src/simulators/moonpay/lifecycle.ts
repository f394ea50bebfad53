import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { MOONPAY_PROFILE } from './profile';
import { moonpayWebhookSignature } from './signing';
import { plan, transactionJson, type MoonpaySimAction, type SimTransaction, type Step } from './transactions';

type WebhookType = 'transaction_created' | 'transaction_updated' | 'transaction_failed';

/** The simulated MoonPay's transactions over time: the status sequences of the customer's actions, one signed webhook per change. */
export class MoonpayLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly webhookKey: string,
  ) {}

  /** A transaction opened in the widget: MoonPay's `transaction_created`. */
  created(tx: SimTransaction): void {
    this.emit(tx, 'transaction_created');
  }

  /** Plays MoonPay's sequence for an allowed action, superseding the transaction's walk under way. */
  act(tx: SimTransaction, action: MoonpaySimAction): void {
    if (action === 'pay') this.payAsSwitched(tx);
    this.parts.walks.start(tx, plan(action, tx.status), (step) => this.apply(tx, step));
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the transaction's; the fees stay as priced. */
  private payAsSwitched(tx: SimTransaction): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatCurrency) tx.fiat = paid.fiatCurrency.toUpperCase();
    if (paid.walletAddress) tx.walletAddress = paid.walletAddress;
    if (paid.fiatAmount) {
      tx.totalAmount = paid.fiatAmount;
      tx.baseCurrencyAmount = new BigNumber(paid.fiatAmount).minus(tx.feeAmount).minus(tx.networkFeeAmount).toFixed();
    }
  }

  private apply(tx: SimTransaction, step: Step): void {
    tx.status = step.status;
    tx.failure = step.failure;
    tx.updatedAt = new Date().toISOString();
    if (step.status === 'completed') tx.cryptoTransactionId = simulatedTransactionHash();
    this.parts.log?.(`moonpay transaction ${tx.id} -> ${tx.status}`);
    this.emit(tx, step.status === 'failed' ? 'transaction_failed' : 'transaction_updated');
  }

  private emit(tx: SimTransaction, type: WebhookType): void {
    const body = JSON.stringify({ type, data: transactionJson(tx, MOONPAY_PROFILE) });
    this.parts.webhooks.send({
      orderKey: tx.id,
      status: tx.status,
      eventId: randomUUID(),
      body,
      headers: {
        'Moonpay-Signature-V2': moonpayWebhookSignature(this.webhookKey, body, Math.floor(Date.now() / 1000)),
      },
    });
  }
}
