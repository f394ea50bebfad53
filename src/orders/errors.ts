import { isGrpcServiceError, ServiceError } from '@temporalio/client';
import { ValueError } from '@temporalio/common';
import type { OrderRejectionType } from '../temporal/order-contract';
import type { DepositConfirmationRefusal } from '../temporal/sell-order-contract';

/**
 * The order was not created, for the reason its workflow gave, or because its id belonged to an
 * order that has since been deleted (`external_order_id_retired`); repeating the same request gives
 * the same answer.
 */
export class OrderRejectedError extends Error {
  constructor(
    readonly reason: OrderRejectionType | 'external_order_id_retired',
    message: string,
  ) {
    super(message);
    this.name = 'OrderRejectedError';
  }
}

/** The order engine could not answer now; the same request may succeed later, after `retryAfterSeconds` when given. */
export class OrderUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'OrderUnavailableError';
  }
}

/**
 * The order's provider is out of service: its circuit breaker is open (its recent order creations
 * failed), or half-open with every probe place taken. Nothing was started; the same request may
 * succeed after `retryAfterSeconds`, and another provider's offer may succeed now.
 */
export class ProviderOutOfServiceError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'ProviderOutOfServiceError';
  }
}

/**
 * The order engine answered with a payload this API cannot decode: encrypted under a key it does not
 * hold, in clear or in the first encrypted format after ENCRYPTION_ACCEPT_CLEAR_UNTIL, or bound to
 * another workflow (src/temporal/codec.ts). Not the caller's fault, and no retry helps until an
 * operator changes the encryption settings: the API logs it once (src/api/problem.ts), with the workflow's id.
 */
export class OrderUnreadableError extends OrderUnavailableError {
  constructor(
    readonly workflowId: string,
    cause: unknown,
  ) {
    super(
      "This order's stored records cannot be decoded by the broker (an encryption setting its operator must correct); try again later.",
      60,
    );
    this.name = 'OrderUnreadableError';
    this.cause = cause;
  }
}

/** Whether a Temporal call failed decoding a payload (the SDK's ValueError, the codec's refusals among them), at any depth of causes. */
export function isUndecodablePayload(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++) {
    if (e instanceof ValueError) return true;
    e = e.cause;
  }
  return false;
}

/** The integrator already has as many order searches in flight in this process as it may; it can search again once one ends. */
export class SearchesBusyError extends Error {
  constructor(readonly inFlight: number) {
    super(`${inFlight} order searches of yours are in progress; wait for one to finish before starting another.`);
    this.name = 'SearchesBusyError';
  }
}

/** The integrator's searches have spent their share of the visibility store for now (src/orders/search-budget.ts). */
export class SearchBudgetSpentError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Your order searches have used their share of the order store for now; search again in ${retryAfterSeconds} s.`);
    this.name = 'SearchBudgetSpentError';
  }
}

/** No live offer matches the order: its offer expired, or it differs from every offer given (src/orders/offer-match.ts). */
export class NoLiveOfferError extends Error {
  constructor() {
    super('No live offer matches this order (provider, currencies, amount, user, country and payment method). Request new offers.');
    this.name = 'NoLiveOfferError';
  }
}

/**
 * The integrator's deposit transaction was not taken: why (the order's workflow's answer, or
 * `deposit_confirmation_unsupported`: the order's provider has no such call).
 */
export class DepositConfirmationRefusedError extends Error {
  constructor(
    readonly reason: DepositConfirmationRefusal | 'deposit_confirmation_unsupported',
    message: string,
  ) {
    super(message);
    this.name = 'DepositConfirmationRefusedError';
  }
}

/** An export is streaming already: the integrator's own (`mine`), or as many as the process takes. */
export class ExportsBusyError extends Error {
  constructor(readonly mine: boolean) {
    super(
      mine
        ? 'An export of yours is in progress; wait for it to finish before starting another.'
        : 'As many exports as this service takes at once are in progress; try again shortly.',
    );
    this.name = 'ExportsBusyError';
  }
}

/** The export's window holds more orders than one export may: ask for a narrower one. */
export class ExportTooLargeError extends Error {
  constructor(
    readonly counted: number,
    readonly maxRows: number,
  ) {
    super(`The window holds about ${counted} orders, more than the ${maxRows} one export may hold; export a narrower window.`);
    this.name = 'ExportTooLargeError';
  }
}

/** A failed Temporal call that says Temporal could not be reached or could not answer, not what it answered. */
export function isTemporalUnreachable(err: unknown): boolean {
  return isGrpcServiceError(err) || err instanceof ServiceError || (err as Error).name === 'TransportError';
}
