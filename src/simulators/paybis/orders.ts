/** The simulated Paybis's requests and their transactions: the record, the statuses, and how Paybis shows them. */

/** A transaction's status as the transaction status webhook writes it. */
export type PaybisSimStatus = 'started' | 'paid' | 'completed' | 'cancelled' | 'rejected' | 'payment-error';

export type CheckoutAction = 'pay' | 'fail' | 'decline' | 'expire';

const SIM_STATUSES: readonly PaybisSimStatus[] = ['started', 'paid', 'completed', 'cancelled', 'rejected', 'payment-error'];

/** A status in the webhook's words, or in the list's (`payment_error`), as the simulator records it; undefined for another. */
export function simStatusOf(value: string): PaybisSimStatus | undefined {
  const status = value === 'payment_error' ? 'payment-error' : value;
  return SIM_STATUSES.find((s) => s === status);
}

/** A quote as `POST /v2/quote` made it, kept for the request that names it. */
export interface PaybisSimQuote {
  id: string;
  fiat: string;
  code: string;
  fiatAmount: string;
  cryptoAmount: string;
  paymentMethodId: string;
  paymentMethodName: string;
  expiresAt: Date;
}

export interface PaybisSimTransaction {
  id: string;
  invoice: string;
  status: PaybisSimStatus;
  hash: string | null;
  createdAt: Date;
  /** When the payment was taken (the transaction reached `paid`); null before and without one. */
  paidAt?: Date | null;
}

/**
 * A request (`POST /v2/request`) and the transactions started in the widget under it, oldest first:
 * once one ended unpaid (cancelled, declined), the widget starts another under the same request.
 */
export interface PaybisSimRequest {
  requestId: string;
  partnerUserId: string;
  partnerTransactionId: string | null;
  quote: PaybisSimQuote;
  walletAddress: string;
  /** What the customer pays and in which fiat: the quote's, unless the paid-terms switches say otherwise. */
  fiatAmount: string;
  fiat: string;
  createdAt: Date;
  transactions: PaybisSimTransaction[];
}

/** The transaction the widget shows: the newest. */
export const currentTransaction = (request: PaybisSimRequest): PaybisSimTransaction | undefined => request.transactions.at(-1);

/** Cancelled or declined: no money moved, and the widget may start another transaction. */
export const endedUnpaid = (status: PaybisSimStatus | undefined): boolean => status === 'cancelled' || status === 'payment-error';

/** What `pay` walks through from the current transaction's status (none, or one that ended unpaid: a new one). */
export function payStepsFrom(status: PaybisSimStatus | undefined): PaybisSimStatus[] {
  if (status === undefined || endedUnpaid(status)) return ['started', 'paid', 'completed'];
  if (status === 'started') return ['paid', 'completed'];
  return [];
}

/** What `fail` walks through: the payment is taken, then Paybis's compliance rejects the transaction. */
export function failStepsFrom(status: PaybisSimStatus | undefined): PaybisSimStatus[] {
  if (status === undefined || endedUnpaid(status)) return ['started', 'paid', 'rejected'];
  if (status === 'started') return ['paid', 'rejected'];
  if (status === 'paid') return ['rejected'];
  return [];
}

/**
 * What the customer may do now; `walking`: a walk is under way. Before payment: pay, fail (paid,
 * then rejected), decline (the card declined: `payment-error`) or expire (`cancelled`); once paid,
 * only fail. After an unpaid end, only paying again (a second transaction).
 */
export function allowedActions(request: PaybisSimRequest, walking: boolean): CheckoutAction[] {
  switch (currentTransaction(request)?.status) {
    case undefined:
      return ['pay', 'fail', 'decline', 'expire'];
    case 'started':
      return walking ? ['fail', 'decline'] : ['pay', 'fail', 'decline', 'expire'];
    case 'paid':
      return ['fail'];
    case 'cancelled':
    case 'payment-error':
      return ['pay'];
    default:
      return [];
  }
}

/** An entry of `GET /v2/transactions`. */
export function transactionView(request: PaybisSimRequest, tx: PaybisSimTransaction) {
  return {
    id: tx.id,
    invoice: tx.invoice,
    gateway: 'fiat_to_crypto',
    status: tx.status === 'payment-error' ? 'payment_error' : tx.status,
    partnerTransactionId: request.partnerTransactionId,
    request: { id: request.requestId, flow: 'buyCrypto', createdAt: request.createdAt.toISOString() },
    from: { address: null },
    to: { address: request.walletAddress },
    hash: tx.hash,
    paidAt: tx.paidAt?.toISOString() ?? null,
    amounts: {
      spentOriginal: { amount: request.fiatAmount, currency: request.fiat },
      receivedOriginal: { amount: request.quote.cryptoAmount, currency: request.quote.code },
    },
    createdAt: tx.createdAt.toISOString(),
  };
}

/** The KYC webhook: the customer's verification started, or approved (docs.payb.is, Webhooks: Verification Status Update). */
export function verificationWebhookBody(partnerUserId: string, status: 'started' | 'approved') {
  return { event: 'VERIFICATION_STATUS_UPDATED', data: { partnerUserId, status }, timestamp: Math.floor(Date.now() / 1000) };
}

/** The transaction status webhook (Default payload, the fields this simulator fills). */
export function webhookBody(request: PaybisSimRequest, tx: PaybisSimTransaction) {
  return {
    event: 'TRANSACTION_STATUS_CHANGED',
    data: {
      requestId: request.requestId,
      partnerUserId: request.partnerUserId,
      partnerTransactionId: request.partnerTransactionId,
      quote: { quoteId: request.quote.id },
      transaction: { invoice: tx.invoice, status: tx.status, flow: 'buyCrypto' },
      amountFrom: { amount: request.fiatAmount, currency: request.fiat },
      amountTo: { amount: request.quote.cryptoAmount, currency: request.quote.code },
      payment: { method: { id: request.quote.paymentMethodId } },
      payout: { transactionHash: tx.hash, destinationWalletAddress: request.walletAddress },
    },
    timestamp: Math.floor(Date.now() / 1000),
  };
}
