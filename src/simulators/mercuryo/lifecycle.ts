import type { SimulatorParts } from '../kit/base';
import { paidTerms, providerOrderMadeAt } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import { mercuryoId, type SimPurchase, type Step } from './purchase';
import { signCallback } from './signing';
import { callbackBody } from './views';

/** The simulated Mercuryo's purchases over time: the steps of the customer's actions, one signed callback per operation status. */
export class MercuryoLifecycle {
  constructor(
    private readonly parts: SimulatorParts,
    private readonly signKey: string,
  ) {}

  /** A purchase opened in the widget: the callback of its new payment. */
  opened(purchase: SimPurchase): void {
    this.emit(purchase, 'payment');
  }

  /** Plays an action's steps, superseding the purchase's walk under way; `pay` first applies the paid terms. */
  act(purchase: SimPurchase, action: string, steps: readonly Step[]): void {
    if (action === 'pay') this.payAsSwitched(purchase);
    this.parts.walks.start(purchase, steps, (step) => this.apply(purchase, step));
  }

  /** The `paid*` fault switches: what the customer pays instead of the order's terms, reported from now on. */
  private payAsSwitched(purchase: SimPurchase): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatAmount) purchase.fiatAmount = paid.fiatAmount;
    if (paid.fiatCurrency) purchase.fiatCurrency = paid.fiatCurrency;
    if (paid.walletAddress) purchase.address = paid.walletAddress;
  }

  /** One step: the legs' new statuses, one callback each. */
  private apply(purchase: SimPurchase, step: Step): void {
    const now = new Date();
    if (step.payment) {
      purchase.payment = { ...purchase.payment, status: step.payment, updatedAt: now };
      this.emit(purchase, 'payment');
    }
    if (step.withdraw) {
      const withdraw = purchase.withdraw ?? {
        id: mercuryoId(),
        status: step.withdraw,
        createdAt: providerOrderMadeAt(this.parts.faults),
        updatedAt: now,
      };
      purchase.withdraw = {
        ...withdraw,
        status: step.withdraw,
        updatedAt: now,
        ...(step.withdraw === 'completed' ? { hash: simulatedTransactionHash() } : {}),
      };
      this.emit(purchase, 'withdraw');
    }
  }

  private emit(purchase: SimPurchase, leg: 'payment' | 'withdraw'): void {
    const body = JSON.stringify(callbackBody(purchase, leg));
    const operation = leg === 'payment' ? purchase.payment : purchase.withdraw!;
    const type = leg === 'payment' ? purchase.paymentType : 'withdraw';
    this.parts.log?.(`mercuryo ${purchase.merchantTransactionId} ${type} -> ${operation.status}`);
    this.parts.webhooks.send({
      // Purchases opened in the widget always have one; only phantoms (no callbacks) lack it.
      orderKey: purchase.merchantTransactionId ?? purchase.transactionId,
      status: `${type}:${operation.status}`,
      eventId: `${operation.id}:${operation.status}`,
      body,
      headers: { 'x-signature': signCallback(this.signKey, body) },
    });
  }
}
