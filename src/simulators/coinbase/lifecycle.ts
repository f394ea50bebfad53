import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { hook0Signature } from './signing';
import { plan, transactionJson, type CoinbaseSimAction, type SimTransaction, type Step } from './transactions';

const EVENT_TYPES = {
  ONRAMP_TRANSACTION_STATUS_CREATED: 'onramp.transaction.created',
  ONRAMP_TRANSACTION_STATUS_IN_PROGRESS: 'onramp.transaction.updated',
  ONRAMP_TRANSACTION_STATUS_SUCCESS: 'onramp.transaction.success',
  ONRAMP_TRANSACTION_STATUS_FAILED: 'onramp.transaction.failed',
} as const;

/** The simulated Coinbase's transactions over time: the status sequences of the customer's actions, one signed webhook per change. */
export class CoinbaseLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly webhookSecret: string,
  ) {}

  /** A transaction opened in the Onramp page: `onramp.transaction.created`. */
  created(tx: SimTransaction): void {
    this.emit(tx);
  }

  act(tx: SimTransaction, action: CoinbaseSimAction): void {
    if (action === 'pay') this.payAsSwitched(tx);
    this.parts.walks.start(tx, plan(action, tx.status), (step) => this.apply(tx, step));
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the transaction's; the fees stay as priced. */
  private payAsSwitched(tx: SimTransaction): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatCurrency) tx.fiat = paid.fiatCurrency.toUpperCase();
    if (paid.walletAddress) tx.walletAddress = paid.walletAddress;
    if (paid.fiatAmount) {
      tx.paymentTotal = paid.fiatAmount;
      tx.paymentSubtotal = new BigNumber(paid.fiatAmount).minus(tx.coinbaseFee).minus(tx.networkFee).toFixed();
    }
  }

  private apply(tx: SimTransaction, step: Step): void {
    tx.status = step.status;
    tx.failureReason = step.failureReason ?? 'FAILURE_REASON_UNSPECIFIED';
    if (step.status === 'ONRAMP_TRANSACTION_STATUS_SUCCESS') {
      tx.txHash = simulatedTransactionHash();
      tx.completedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    }
    this.parts.log?.(`coinbase transaction ${tx.transactionId} -> ${tx.status}`);
    this.emit(tx);
  }

  private emit(tx: SimTransaction): void {
    const body = JSON.stringify({ eventType: EVENT_TYPES[tx.status], ...transactionJson(tx) });
    const headers = { 'content-type': 'application/json', 'x-hook0-id': randomUUID() };
    this.parts.webhooks.send({
      orderKey: tx.transactionId,
      status: tx.status,
      eventId: headers['x-hook0-id'],
      body,
      headers: { ...headers, 'X-Hook0-Signature': hook0Signature(this.webhookSecret, body, Math.floor(Date.now() / 1000), headers) },
    });
  }
}
