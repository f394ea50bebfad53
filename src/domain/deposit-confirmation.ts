import type { SellOrder } from './sell-order';

/** Why the integrator's deposit transaction cannot be taken for an order as it stands. */
export interface DepositConfirmationVerdict {
  type: 'deposit_not_awaited' | 'deposit_already_confirmed';
  message: string;
}

/**
 * The one rule for the integrator's deposit confirmation, applied by the order's workflow and,
 * once the workflow has closed, by the API from the order it left: the transaction confirmed (or
 * being confirmed: `inFlight`) is the only one ever taken, and repeating it is taken and changes
 * nothing; otherwise the order must show a deposit and wait for it. Undefined when it can be taken.
 */
export function depositConfirmationRefusal(
  order: Pick<SellOrder, 'status' | 'deposit' | 'deposit_confirmation'> | undefined,
  transactionHash: string,
  inFlight: string | undefined,
): DepositConfirmationVerdict | undefined {
  const taken = order?.deposit_confirmation?.transaction_hash ?? inFlight;
  if (taken !== undefined) {
    return taken === transactionHash
      ? undefined
      : { type: 'deposit_already_confirmed', message: 'another deposit transaction was confirmed for this order' };
  }
  if (!order?.deposit || order.status !== 'waiting_for_deposit') {
    return {
      type: 'deposit_not_awaited',
      message: order?.deposit ? `the order is ${order.status}, not waiting for its deposit` : 'the order shows no deposit address yet',
    };
  }
  return undefined;
}
