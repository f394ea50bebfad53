import { randomBytes, randomUUID } from 'node:crypto';
import type { SimulatorParts } from '../kit/base';
import { paidTerms, providerOrderMadeAt } from '../kit/faults';
import { simulatedTransactionHash } from '../kit/transaction-hash';
import type { PaybisSimulatorCredentials } from './options';
import {
  allowedActions,
  currentTransaction,
  endedUnpaid,
  failStepsFrom,
  payStepsFrom,
  verificationWebhookBody,
  webhookBody,
  type CheckoutAction,
  type PaybisSimRequest,
  type PaybisSimStatus,
} from './orders';
import { paybisSignature } from './signing';

/** Paybis's invoice numbers: "PB" and digits, then "TX1" for the request's first transaction, "TX2" for its second. */
export const invoiceBase = () =>
  `PB${BigInt(`0x${randomBytes(5).toString('hex')}`)
    .toString()
    .padStart(12, '0')
    .slice(0, 12)}`;

/**
 * The simulated Paybis's transactions over time: the customer's actions, their status walks, one
 * signed webhook per status, and the customer's KYC webhooks the first time they use the widget.
 */
export class PaybisLifecycle {
  /** Customers (partnerUserId) whose KYC Paybis has approved: verified once, not again per request. */
  private readonly verified = new Set<string>();

  constructor(
    private readonly parts: SimulatorParts,
    private readonly credentials: PaybisSimulatorCredentials,
  ) {}

  allowedActions(request: PaybisSimRequest): CheckoutAction[] {
    return allowedActions(request, this.parts.walks.isWalking(request));
  }

  /** Plays an allowed action; every action stops a `pay` walk under way. */
  act(request: PaybisSimRequest, action: CheckoutAction): void {
    this.verify(request);
    if (action === 'pay' || action === 'fail') {
      this.payAsSwitched(request);
      const status = currentTransaction(request)?.status;
      const steps = action === 'pay' ? payStepsFrom(status) : failStepsFrom(status);
      this.parts.walks.start(request, steps, (step) => this.transition(request, step));
      return;
    }
    this.parts.walks.supersede(request);
    this.transition(request, action === 'decline' ? 'payment-error' : 'cancelled');
  }

  /** Paybis's KYC webhooks, `started` then `approved`, before the customer's first transaction. */
  private verify(request: PaybisSimRequest): void {
    if (this.verified.has(request.partnerUserId)) return;
    this.verified.add(request.partnerUserId);
    for (const status of ['started', 'approved'] as const) {
      this.send(request.requestId, `verification:${status}`, JSON.stringify(verificationWebhookBody(request.partnerUserId, status)));
    }
  }

  /** The `paid*` fault switches: what the customer pays instead of the quote's terms, reported from now on. */
  private payAsSwitched(request: PaybisSimRequest): void {
    const paid = paidTerms(this.parts.faults);
    if (paid.fiatAmount) request.fiatAmount = paid.fiatAmount;
    if (paid.fiatCurrency) request.fiat = paid.fiatCurrency;
    if (paid.walletAddress) request.walletAddress = paid.walletAddress;
  }

  /** Moves the current transaction to `status`; starts a new one when there is none or the current one ended unpaid. */
  private transition(request: PaybisSimRequest, status: PaybisSimStatus): void {
    let tx = currentTransaction(request);
    if (!tx || endedUnpaid(tx.status)) {
      const base = request.transactions[0]?.invoice.replace(/TX\d+$/, '') ?? invoiceBase();
      tx = {
        id: randomUUID(),
        invoice: `${base}TX${request.transactions.length + 1}`,
        status,
        hash: null,
        createdAt: providerOrderMadeAt(this.parts.faults),
      };
      request.transactions.push(tx);
    }
    if (status === 'paid') tx.paidAt = new Date();
    if (status === 'completed') tx.hash = simulatedTransactionHash();
    tx.status = status;
    this.parts.log?.(`paybis request ${request.requestId} ${tx.invoice} -> ${status}`);
    this.send(request.requestId, status, JSON.stringify(webhookBody(request, tx)));
  }

  private send(requestId: string, status: string, body: string): void {
    this.parts.webhooks.send({
      orderKey: requestId,
      status,
      eventId: randomUUID(),
      body,
      headers: { 'x-request-signature': paybisSignature(body, this.credentials.webhookSigningKey) },
    });
  }
}
