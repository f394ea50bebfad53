/**
 * Reconciliation of the broker's orders with a provider's own books (docs/decisions.md,
 * "Reconciliation"). Pure: the workflow's activities read both sides, this decides what differs.
 *
 * Each side is anchored in the window by its own clock: an order by when the API took its request,
 * a provider transaction by when the provider made it. Both sides are read with a margin around
 * the window (a transaction is made after its order's request, up to the payment window later), so
 * a pair across the window's edge still matches; a mismatch is reported by the window its anchor
 * is in (a matched pair's anchor is the order's), so consecutive windows report each one once.
 */
import { checkReportedTerms, type Discrepancy, type ReportedTerms } from './integrity';
import { isSettled, type OrderStatus } from './order-status';

export const MISMATCH_KINDS = ['missing_here', 'missing_at_provider', 'status_differs', 'terms_differ', 'duplicate_payment'] as const;
/**
 * `missing_here`: the provider has a transaction no order here holds; `missing_at_provider`: an
 * order here that the provider has a record of by the broker's own account (a provider order id,
 * or a status only a provider report moves an order to) is not in its books; `status_differs`: the
 * two sides disagree on how it ended; `terms_differ`: the amount, currency or wallet differ;
 * `duplicate_payment`: a second transaction of the order that took money (the order follows one).
 */
export type MismatchKind = (typeof MISMATCH_KINDS)[number];

/** An order as the broker's records hold it, in the terms reconciliation compares. */
export interface BookedOrder {
  orderId: string;
  integratorId: string;
  /** When the API took the order's request (epoch ms): its anchor. */
  requestedAtMs: number;
  /** When the order last changed (epoch ms). */
  updatedAtMs: number;
  status: OrderStatus;
  /** The provider order the order pinned, if a report named one. */
  providerOrderId?: string;
  walletAddress: string;
  cryptoCurrency: number;
  fiatCurrency: number;
  fiatAmount: string;
}

/** One transaction of the provider's books, in the broker's model. */
export interface BookedTransaction {
  providerOrderId: string;
  /** The broker order id the provider holds with it, if any. */
  orderId?: string;
  /** When the provider made it (epoch ms): its anchor. */
  createdAtMs: number;
  status: OrderStatus;
  providerStatus: string;
  reported?: ReportedTerms;
}

export interface Mismatch {
  kind: MismatchKind;
  /** The broker's order, when there is one. */
  orderId?: string;
  integratorId?: string;
  providerOrderId?: string;
  /** Each side's status (the provider's mapped to the broker's, and in its own words). */
  status?: { here?: OrderStatus; provider?: OrderStatus; providerStatus?: string };
  /** The terms that differ (terms_differ). */
  fields?: Discrepancy[];
}

export interface ReconciliationInput {
  /** The window: `fromMs` included, `toMs` excluded. */
  fromMs: number;
  toMs: number;
  /** When the reconciliation runs (epoch ms). */
  nowMs: number;
  /**
   * An order that changed less than this long ago may still be on its way to what the provider
   * says (a webhook in flight, a poll not yet made): its status is not compared.
   */
  settleMs: number;
  /** The broker's orders of the window and its margin. */
  orders: readonly BookedOrder[];
  /** The provider's transactions of the window and its margin. */
  transactions: readonly BookedTransaction[];
}

export interface ReconciliationOutcome {
  /** Orders of the window matched with a transaction. */
  matched: number;
  /**
   * Matched orders whose status was not compared: they changed inside the settle window. Running
   * the window again later compares them (no later window does: they belong to this one).
   */
  unsettled: number;
  /** Orders of the window (anchored in it). */
  orders: number;
  /** Transactions of the window (anchored in it). */
  transactions: number;
  mismatches: Mismatch[];
}

/**
 * Statuses an order reaches only through a provider report: an order in one of them had a
 * provider order, so the provider's books must hold it. `created`, `pending` and `expired` can all
 * come without one (a customer who never opened the widget), and `failed` from a refused creation.
 */
const PROVIDER_REPORTED: ReadonlySet<OrderStatus> = new Set(['hold', 'processing', 'complete', 'refunded']);

/** Statuses where money moved or is moving (an order's transaction of these comes first). */
const MONEY_MOVED: ReadonlySet<OrderStatus> = new Set(['processing', 'complete', 'refunded']);

/** Whether an anchor is in the window (`fromMs` included, `toMs` excluded). */
export const inWindow = (at: number, window: { fromMs: number; toMs: number }) => at >= window.fromMs && at < window.toMs;

/**
 * How far a transaction got: money moved counts most, then a final status. Of one order's
 * transactions, or of one transaction listed twice, the furthest along stands.
 */
export const progressOf = (status: OrderStatus) => (MONEY_MOVED.has(status) ? 2 : 0) + (isSettled(status) ? 1 : 0);

/** Statuses of an order nobody paid for: a provider order made at creation may hold nothing its books list. */
const NEVER_PAID: ReadonlySet<OrderStatus> = new Set(['created', 'expired']);

/**
 * Whether the provider's books must hold the order: a status only a provider report gives, or a
 * pinned provider order that went further than its creation (a provider that makes its order at
 * creation, Paybis's request, lists only the transactions the customer then started).
 */
function expectedAtProvider(order: BookedOrder): boolean {
  return PROVIDER_REPORTED.has(order.status) || (order.providerOrderId !== undefined && !NEVER_PAID.has(order.status));
}

/** Ends where no money moved, whichever side says which: `failed` and `expired` agree. */
const UNPAID_ENDS: ReadonlySet<OrderStatus> = new Set(['failed', 'expired']);
/** Statuses in which ours says the provider is holding or moving the customer's money. */
const MONEY_HELD: ReadonlySet<OrderStatus> = new Set(['hold', 'processing']);

/**
 * Whether the two statuses disagree in a way worth a person's look (once the order has settled):
 * the provider's is final and differs from ours (`failed` and `expired`, both unpaid, agree); ours
 * says the money arrived or went back and the provider's books do not; the provider is moving money
 * ours does not know of (a lost report); or ours says money is held or moving while the provider
 * has not received any. A provider still waiting for a payment ours has given up on (`expired`) is
 * not one: a late payment revives the order through its own checked path.
 */
function statusesDiffer(here: OrderStatus, provider: OrderStatus): boolean {
  if (here === provider || (UNPAID_ENDS.has(here) && UNPAID_ENDS.has(provider))) return false;
  if (isSettled(provider) || here === 'complete' || here === 'refunded' || provider === 'processing') return true;
  return MONEY_HELD.has(here) && (provider === 'created' || provider === 'pending');
}

/** The transactions by provider order id, and those naming each order. */
function indexTransactions(transactions: readonly BookedTransaction[]) {
  const byOrder = new Map<string, BookedTransaction[]>();
  const byProviderId = new Map<string, BookedTransaction>();
  for (const t of transactions) {
    byProviderId.set(t.providerOrderId, t);
    if (t.orderId !== undefined) byOrder.set(t.orderId, [...(byOrder.get(t.orderId) ?? []), t]);
  }
  return { byOrder, byProviderId };
}

/**
 * Each order's transaction: the provider order it pinned, else the furthest-along of those naming
 * it that no other order pinned. One transaction stands for one order.
 */
function matchOrders(orders: readonly BookedOrder[], transactions: ReturnType<typeof indexTransactions>) {
  const matchedBy = new Map<string, BookedTransaction | undefined>();
  const pinnedIds = new Set<string>();
  for (const order of orders) {
    if (order.providerOrderId === undefined) continue;
    const pinned = transactions.byProviderId.get(order.providerOrderId);
    matchedBy.set(order.orderId, pinned);
    if (pinned) pinnedIds.add(pinned.providerOrderId);
  }
  for (const order of orders) {
    if (order.providerOrderId !== undefined) continue;
    const free = (transactions.byOrder.get(order.orderId) ?? []).filter((t) => !pinnedIds.has(t.providerOrderId));
    matchedBy.set(order.orderId, mostAdvanced(free));
  }
  return { matchedBy, pinnedIds };
}

/** Compares the two sides of a window; every mismatch once, anchored as the module says. */
export function reconcile(input: ReconciliationInput): ReconciliationOutcome {
  const indexed = indexTransactions(input.transactions);
  const { matchedBy, pinnedIds } = matchOrders(input.orders, indexed);
  const claimed = new Set<string>();
  const mismatches: Mismatch[] = [];
  let matched = 0;
  let orders = 0;
  let unsettled = 0;

  for (const order of input.orders) {
    const transaction = matchedBy.get(order.orderId);
    const naming = indexed.byOrder.get(order.orderId) ?? [];
    // Every transaction naming the order belongs to it (a customer's retries in the widget): none is a stranger.
    for (const t of naming) claimed.add(t.providerOrderId);
    if (transaction) claimed.add(transaction.providerOrderId);
    if (!inWindow(order.requestedAtMs, input)) continue;
    orders++;
    const base = { orderId: order.orderId, integratorId: order.integratorId };

    // Another transaction of the order that took money: the order follows one purchase only. (One
    // another order pinned is that order's: it shows there, and this order shows missing.)
    for (const other of naming) {
      if (other === transaction || !MONEY_MOVED.has(other.status) || pinnedIds.has(other.providerOrderId)) continue;
      mismatches.push({
        kind: 'duplicate_payment',
        ...base,
        providerOrderId: other.providerOrderId,
        status: { here: order.status, provider: other.status, providerStatus: other.providerStatus },
      });
    }

    if (!transaction) {
      if (expectedAtProvider(order)) {
        mismatches.push({
          kind: 'missing_at_provider',
          ...base,
          ...(order.providerOrderId === undefined ? {} : { providerOrderId: order.providerOrderId }),
          status: { here: order.status },
        });
      }
      continue;
    }
    matched++;
    const pair = { ...base, providerOrderId: transaction.providerOrderId };
    // A change time that cannot be read is no reason to never compare.
    const settled = Number.isNaN(order.updatedAtMs) || input.nowMs - order.updatedAtMs >= input.settleMs;
    if (!settled && order.status !== transaction.status) unsettled++;
    if (settled && statusesDiffer(order.status, transaction.status)) {
      mismatches.push({
        kind: 'status_differs',
        ...pair,
        status: { here: order.status, provider: transaction.status, providerStatus: transaction.providerStatus },
      });
    }
    const verdict = checkReportedTerms(
      {
        walletAddress: order.walletAddress,
        cryptoCurrency: order.cryptoCurrency,
        fiatCurrency: order.fiatCurrency,
        fiatAmount: order.fiatAmount,
      },
      transaction.reported,
    );
    const fields = [...verdict.refused, ...verdict.differences];
    if (fields.length > 0) mismatches.push({ kind: 'terms_differ', ...pair, fields });
  }

  let transactions = 0;
  for (const t of input.transactions) {
    if (!inWindow(t.createdAtMs, input)) continue;
    transactions++;
    if (claimed.has(t.providerOrderId)) continue;
    mismatches.push({
      kind: 'missing_here',
      providerOrderId: t.providerOrderId,
      ...(t.orderId === undefined ? {} : { orderId: t.orderId }),
      status: { provider: t.status, providerStatus: t.providerStatus },
    });
  }
  return { matched, unsettled, orders, transactions, mismatches };
}

/** Of one order's transactions, the one furthest along: money moved first, then final, then the latest. */
function mostAdvanced(transactions: readonly BookedTransaction[]): BookedTransaction | undefined {
  return [...transactions].sort((a, b) => progressOf(b.status) - progressOf(a.status) || b.createdAtMs - a.createdAtMs)[0];
}
