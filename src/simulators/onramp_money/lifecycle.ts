import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { webhookHeaders } from './signing';
import type { SimTransaction, Step } from './transactions';
import { webhookData } from './views';

/**
 * The simulated Onramp.money's transactions over time: the steps of the customer's actions, and the
 * one signed webhook Onramp.money sends, when the withdrawal is complete. Every other status is
 * seen by polling merchantHistory only.
 */
export class OnrampMoneyLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly apiSecret: string,
  ) {}

  /** Plays an action's steps, superseding the transaction's walk under way; `pay` first applies the paid terms. */
  act(tx: SimTransaction, action: string, steps: readonly Step[]): void {
    if (action === 'pay') this.payAsSwitched(tx);
    this.parts.walks.start(tx, steps, (step) => this.apply(tx, step));
  }

  /** The `paid*` fault switches: what the customer pays instead of the order's terms, reported from now on. */
  private payAsSwitched(tx: SimTransaction): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatAmount) tx.fiatAmount = paid.fiatAmount;
    if (paid.fiatCurrency) tx.fiatCurrency = paid.fiatCurrency;
    if (paid.walletAddress) tx.walletAddress = paid.walletAddress;
  }

  private apply(tx: SimTransaction, step: Step): void {
    tx.status = step.status;
    tx.updatedAt = new Date();
    if (step.status === 1) tx.referenceId ??= String(Math.floor(100_000_000_000 + Math.random() * 899_999_999_999));
    if (step.status === 13) tx.actualCryptoAmount = tx.expectedCryptoAmount;
    if (step.status === 15) tx.transactionHash = simulatedTransactionHash();
    this.parts.log?.(`onramp_money ${tx.merchantRecognitionId} order ${tx.orderId} -> ${tx.status}`);
    if (step.webhook) this.emit(tx);
  }

  private emit(tx: SimTransaction): void {
    const data = webhookData(tx);
    this.parts.webhooks.send({
      orderKey: tx.merchantRecognitionId,
      status: String(tx.status),
      eventId: `${tx.orderId}:${tx.status}`,
      body: JSON.stringify(data),
      headers: webhookHeaders(this.apiSecret, data),
    });
  }
}
