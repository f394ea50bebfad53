import { randomUUID, type KeyObject } from 'node:crypto';
import BigNumber from 'bignumber.js';
import type { SimulatorParts } from '../kit/base';
import { paidTerms } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { isFinal, webhookType, type PurchaseRecord, type SimPurchase, type SimRampStatus } from './purchase';
import { signRampBody } from './signing';

/** The simulated Ramp's purchases over time: the status steps of the customer's actions, one signed webhook per status. */
export class RampLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly signingKey: KeyObject,
  ) {}

  /** A purchase created in the widget: its first webhook. */
  created(record: PurchaseRecord): void {
    this.emit(record);
  }

  /** Plays an action's steps, superseding the purchase's walk under way; `pay` first applies the paid terms. */
  act(record: PurchaseRecord, action: string, steps: readonly SimRampStatus[]): void {
    if (action === 'pay') this.payAsSwitched(record.purchase);
    this.parts.walks.start(record, steps, (status) => this.transition(record, status));
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the purchase's. */
  private payAsSwitched(purchase: SimPurchase): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatAmount) purchase.fiatValue = new BigNumber(paid.fiatAmount).toNumber();
    if (paid.fiatCurrency) purchase.fiatCurrency = paid.fiatCurrency;
    if (paid.walletAddress) purchase.receiverAddress = paid.walletAddress;
  }

  private transition(record: PurchaseRecord, status: SimRampStatus): void {
    const { purchase } = record;
    const now = new Date().toISOString();
    purchase.status = status;
    purchase.updatedAt = now;
    if (status === 'RELEASED') purchase.finalTxHash = simulatedTransactionHash();
    if (isFinal(status)) purchase.endTime = now;
    this.parts.log?.(`ramp purchase ${purchase.id} -> ${status}`);
    this.emit(record);
  }

  /** One signed webhook per status change, to the purchase's own webhookStatusUrl (none without one, as at Ramp). */
  private emit(record: PurchaseRecord): void {
    if (!record.webhookStatusUrl) return;
    const body = { type: webhookType(record.purchase.status), purchase: record.purchase };
    this.parts.webhooks.send({
      orderKey: record.purchase.id,
      status: record.purchase.status,
      eventId: randomUUID(),
      body: JSON.stringify(body),
      headers: { 'x-body-signature': signRampBody(body, this.signingKey) },
      url: record.webhookStatusUrl,
    });
  }
}
