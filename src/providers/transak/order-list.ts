import type { TransakStatus } from './status-map';

/**
 * The statuses Transak's order list is walked through, one `filter[status]` after another: its
 * documented default is COMPLETED alone (docs.transak.com/api/public/get-orders), so a list that
 * named none would leave out every order in another status. The order is the lifecycle's, final
 * statuses last: an order that moves on during a walk is then listed twice (under its old status,
 * then its new one) rather than missed. `ORDER_PAYMENT_VERIFYING`, an event id the status map only
 * reads in case it turns up as a status, is not one Transak documents, so it is not asked for.
 */
export const TRANSAK_LISTED_STATUSES = [
  'AWAITING_PAYMENT_FROM_USER',
  'PAYMENT_DONE_MARKED_BY_USER',
  'PROCESSING',
  'PENDING_DELIVERY_FROM_TRANSAK',
  'ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK',
  'COMPLETED',
  'CANCELLED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
] as const satisfies readonly TransakStatus[];

export type TransakListedStatus = (typeof TRANSAK_LISTED_STATUSES)[number];

/** Where a walk of the list stands: the status asked for, and how many of its rows were read. */
export interface TransakListPosition {
  status: TransakListedStatus;
  skip: number;
}

const CURSOR = /^([A-Z_]{1,40}):(\d{1,9})$/;

/** The position a cursor of the list names (`<status>:<skip>`): the first status's first row for none; a cursor that is not one is refused. */
export function listPosition(cursor: string | undefined): TransakListPosition {
  if (cursor === undefined) return { status: TRANSAK_LISTED_STATUSES[0], skip: 0 };
  const match = CURSOR.exec(cursor);
  const status = TRANSAK_LISTED_STATUSES.find((s) => s === match?.[1]);
  if (!match || !status) throw new RangeError(`not a list cursor: ${cursor}`);
  return { status, skip: Number(match[2]) };
}

/**
 * Rows each page of a status reads again from the page before. An order that leaves the status
 * being walked (paid, completed) moves every later row of it up one place: without the overlap,
 * the row at the next page's edge would be skipped and never listed. The walk keeps each id once.
 */
export const TRANSAK_LIST_OVERLAP = 10;

/**
 * The cursor after a page read at `position`: the same status further on when the page was full
 * (`next`, offsetPage's next offset, less TRANSAK_LIST_OVERLAP rows), else the next status from its
 * first row; none after the last.
 */
export function nextListCursor(position: TransakListPosition, next: string | undefined): string | undefined {
  if (next !== undefined) return `${position.status}:${Math.max(position.skip + 1, Number(next) - TRANSAK_LIST_OVERLAP)}`;
  const following = TRANSAK_LISTED_STATUSES[TRANSAK_LISTED_STATUSES.indexOf(position.status) + 1];
  return following === undefined ? undefined : `${following}:0`;
}
