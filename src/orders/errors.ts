import type { OrderRejectionType } from '../temporal/shared';

/** The order was not created, for the reason its workflow gave; repeating the same request gives the same answer. */
export class OrderRejectedError extends Error {
  constructor(
    readonly reason: OrderRejectionType,
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

/** The integrator already has as many order searches in flight in this process as it may; it can search again once one ends. */
export class SearchesBusyError extends Error {
  constructor(readonly inFlight: number) {
    super(`${inFlight} order searches of yours are in progress; wait for one to finish before starting another.`);
    this.name = 'SearchesBusyError';
  }
}
