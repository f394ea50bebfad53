/**
 * Mercuryo's transaction list (`GET /sdk-partner/transactions` by dates) in the reconciliation's
 * terms: one ProviderTransaction per purchase, saying what the status lookup says of it.
 *
 * Mercuryo documents the list by transactions, not by operations: "You get the last 50 transaction
 * as a response by default", `limit` "max: 50", `offset` to see earlier ones (api-migration-docs,
 * Widget_API_Mercuryo_v1.6.md, 4.2), and each item of `data` holds one purchase's linked operations
 * keyed by type (buy + withdraw in one item in the live answers kept in public client code, `total`
 * counting items). Paged that way, a purchase never straddles two pages.
 * The adapter does not rely on it: should Mercuryo list a purchase's operations as separate items
 * (the one-operation items of its own example allow that reading), they may fall on two pages, and
 * listing each page's part would list the purchase twice, each time wrongly (a refund, a cancelled
 * payment after a failed withdraw, shows in neither part). So:
 *
 * - the operations of a page are grouped into purchases as the status lookup groups them (by the
 *   order id they name, else by Mercuryo's transaction id), and each purchase is read by the very
 *   function the lookup uses (fromPurchase);
 * - a purchase is listed from the page holding its payment leg, which makes it (its creation time,
 *   its id). The list is newest first and the withdraw leg is made after the payment, so a purchase
 *   cut in two shows its withdraw leg first: a group with a withdraw leg and no payment leg on a full
 *   page is carried in the cursor to the next page, where the payment leg joins it. Nothing is asked
 *   twice and no call is added; in the documented shape nothing is ever carried and the cursor is the
 *   next offset alone. Carried operations whose payment leg never comes belong to a purchase made
 *   before the window's first day: they are dropped with the last page.
 *
 * Reading ahead (a lookup per purchase that may be cut) was not chosen: it cannot tell a cut purchase
 * from an abandoned payment (both show a payment leg alone) and would cost a call for each of them.
 * Listing each part and leaving the reconciliation to keep the most advanced was not either: no part
 * of a refunded purchase says `refunded`.
 */
import { z } from 'zod';
import { inWindow, listedTransaction, offsetOf } from '../kit/listed';
import { UnknownProviderStatusError } from '../kit/status-map';
import type { ProviderTransaction, ProviderTransactionPage, TransactionWindow } from '../types';
import type { MercuryoCurrencyIds } from './reported';
import { MercuryoOperationSchema, type MercuryoTransactions } from './schemas';
import { legOf } from './status-map';
import { fromPurchase, operationsOf, type TypedOperation } from './transformers';

/** Where the next page of a walk starts, and the operations of purchases cut by the page before it. */
export interface MercuryoListCursor {
  offset: number;
  carried: TypedOperation[];
}

const CarriedSchema = z.array(MercuryoOperationSchema.extend({ type: z.string() }));
const CURSOR = /^(\d{1,9})(?:\.([A-Za-z0-9_-]{1,400000}))?$/;

/** The cursor a page answered (listedPage): the next offset, then the carried operations in base64url JSON. */
export function listCursorText(cursor: MercuryoListCursor): string {
  if (cursor.carried.length === 0) return String(cursor.offset);
  return `${cursor.offset}.${Buffer.from(JSON.stringify(cursor.carried)).toString('base64url')}`;
}

/** The cursor of a walk's page: the first page for none; a cursor that is not one is refused. */
export function listCursorOf(cursor: string | undefined): MercuryoListCursor {
  if (cursor === undefined) return { offset: 0, carried: [] };
  const match = CURSOR.exec(cursor);
  const carried = match?.[2] === undefined ? [] : carriedOf(match[2]);
  if (!match || !carried) throw new RangeError(`not a list cursor: ${cursor.slice(0, 40)}`);
  return { offset: offsetOf(match[1]), carried };
}

function carriedOf(text: string): TypedOperation[] | undefined {
  try {
    const parsed = CarriedSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which purchase an operation is part of, as the status lookup groups them: the order id it names
 * (the lookup asks by `merchant_transaction_id` and reads every operation naming it as one purchase),
 * else Mercuryo's `transaction_id`, which linked operations share, else the operation alone.
 */
export function purchaseKeyOf(operation: TypedOperation): string {
  if (operation.merchant_transaction_id) return `order:${operation.merchant_transaction_id}`;
  if (operation.transaction_id) return `transaction:${operation.transaction_id}`;
  return `operation:${operation.type}:${operation.id}`;
}

/** The operations grouped by purchase, in the order each purchase first appears; an operation listed twice counts once. */
export function groupPurchases(operations: readonly TypedOperation[]): TypedOperation[][] {
  const groups = new Map<string, TypedOperation[]>();
  const seen = new Set<string>();
  for (const operation of operations) {
    const id = `${operation.type}:${operation.id}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const key = purchaseKeyOf(operation);
    groups.set(key, [...(groups.get(key) ?? []), operation]);
  }
  return [...groups.values()];
}

const isPayment = (operation: TypedOperation) => legOf(operation.type) === 'payment';

/**
 * One page of the list in the broker's terms: the purchases whose payment leg the page (with what the
 * cursor carried) holds, made inside the window; the cursor of the next page when this one was full
 * (a short page is the last). A purchase that cannot be read (no id or creation time, or only statuses
 * Mercuryo does not document) is counted as unreadable. Off-ramp operations (sell, deposit) make no
 * purchase and are left out.
 */
export function listedPage(
  items: MercuryoTransactions['data'],
  window: TransactionWindow,
  cursor: MercuryoListCursor,
  limit: number,
  ids: MercuryoCurrencyIds,
): ProviderTransactionPage {
  const full = items.length >= limit;
  const transactions: ProviderTransaction[] = [];
  const carried: TypedOperation[] = [];
  let unreadable = 0;
  for (const purchase of groupPurchases([...cursor.carried, ...operationsOf(items)])) {
    if (!purchase.some(isPayment)) {
      // A withdraw leg whose payment leg is further on: it joins it there (see above).
      if (full && purchase.some((o) => o.type === 'withdraw')) carried.push(...purchase);
      continue;
    }
    const listed = listedPurchase(purchase, ids);
    if (!listed) unreadable++;
    else if (inWindow(listed, window)) transactions.push(listed);
  }
  if (!full) return { transactions, unreadable };
  return { transactions, cursor: listCursorText({ offset: cursor.offset + items.length, carried }), unreadable };
}

function listedPurchase(operations: readonly TypedOperation[], ids: MercuryoCurrencyIds): ProviderTransaction | undefined {
  try {
    const snapshot = fromPurchase(operations, ids);
    return snapshot && listedTransaction(snapshot);
  } catch (err) {
    if (err instanceof UnknownProviderStatusError) return undefined;
    throw err;
  }
}
