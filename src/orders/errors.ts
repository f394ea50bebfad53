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
