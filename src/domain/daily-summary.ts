/**
 * The daily summary for billing (docs/operations.md, "Daily summary for billing"): the orders of a
 * window of request times, per integrator, provider and fiat currency, with what completed and the
 * fees their offers quoted. Pure: the service that reads the records (src/operators/daily-summary.ts)
 * feeds them here a page at a time; nothing here keeps an order.
 *
 * What counts:
 * - Every order is in exactly one row: its integrator, its provider, and the fiat currency the order
 *   now states (`from_currency`: the provider-verified one, which differs from the request's when
 *   the customer paid in another currency; `discrepancies` then says what was ordered).
 * - `orders` counts them all; `completed`, `failed`, `expired`, `refunded` and `open` (created,
 *   pending, hold, processing) count them by their status when read, and add up to `orders`.
 * - `completedVolume` sums the `from_amount` of the completed orders: the fiat amount the provider
 *   says was paid, fees included (an order paid with another amount counts the amount paid).
 * - `quotedFees` sums the `total_fee_amount` of the offers the completed orders were placed against:
 *   what was quoted, not what the provider reported after payment. That fee is in the currency the
 *   order was requested in, so an order paid in another currency adds no fee to its row (it could
 *   only be added converted, at a rate the broker does not have); like an order placed before the
 *   broker kept the quote, it counts in `completedWithoutQuotedFee` instead.
 * - `completedWithDiscrepancies` counts the completed orders whose payment differed from the
 *   request (amount or currency): billing sees how many of the row's figures are the provider's
 *   corrections.
 * - `cryptoDelivered` sums the completed orders' `to_amount` (the provider's crypto amount) per
 *   crypto currency.
 * - Refunded, failed, expired and open orders add nothing to the amounts.
 *
 * Amounts are summed exactly (bigint units, src/domain/fixed-decimal.ts) and written with the
 * currency's precision, or more places when an amount had more; an amount that is not a plain
 * decimal fails the summary (SummaryRecordError) rather than being left out of a total.
 */
import type { CurrencyDictionary } from './currency';
import { addFixed, fixedText, parseFixed, type FixedDecimal } from './fixed-decimal';
import type { Order } from './order';
import type { OrderStatus } from './order-status';

/** What the summary reads of an order's record (src/orders/search.ts, OrderRecord, has it all). */
export interface SummarizedRecord {
  order: Pick<Order, 'id' | 'status' | 'from_currency' | 'from_amount' | 'to_currency' | 'to_amount' | 'discrepancies'>;
  integratorId: string;
  providerCode: string;
  /** The offer the order was placed against; absent for orders placed before the broker kept it. */
  quote?: { total_fee_amount: string };
}

/** The status columns of a row: every order status falls in exactly one. */
export type StatusColumn = 'completed' | 'failed' | 'expired' | 'refunded' | 'open';

export const STATUS_COLUMNS: readonly StatusColumn[] = ['completed', 'failed', 'expired', 'refunded', 'open'];

/** Where each status is counted (a Record: a new status does not compile until it has a column). */
const COLUMN_OF: Readonly<Record<OrderStatus, StatusColumn>> = {
  created: 'open',
  pending: 'open',
  hold: 'open',
  processing: 'open',
  complete: 'completed',
  failed: 'failed',
  expired: 'expired',
  refunded: 'refunded',
};

/** The figures of a row, or of the total of one fiat currency. */
export interface SummaryFigures extends Record<StatusColumn, number> {
  fiatCurrency: number;
  /** Every order of the row (the status columns add up to it). */
  orders: number;
  /** The completed orders' `from_amount`, in the row's fiat currency. */
  completedVolume: string;
  /** The quoted total fees of the completed orders whose quote is in the row's currency. */
  quotedFees: string;
  /** Completed orders whose payment differed from the request (`discrepancies`). */
  completedWithDiscrepancies: number;
  /** Completed orders whose quoted fee is not in `quotedFees`: none was kept, or it is in another currency than the row's. */
  completedWithoutQuotedFee: number;
  /** The completed orders' `to_amount` per crypto currency, by currency id. */
  cryptoDelivered: { currency: number; amount: string }[];
}

export interface SummaryRow extends SummaryFigures {
  integratorId: string;
  providerCode: string;
}

/** An order record the summary cannot count: an amount that is not a plain decimal, a status it does not know. */
export class SummaryRecordError extends Error {
  constructor(
    readonly orderId: string,
    readonly field: string,
  ) {
    super(`order ${orderId}: its ${field} cannot be counted`);
    this.name = 'SummaryRecordError';
  }
}

const ZERO: FixedDecimal = { units: 0n, scale: 0 };

/** A row while records are added. */
interface Tally {
  integratorId: string;
  providerCode: string;
  fiatCurrency: number;
  orders: number;
  counts: Record<StatusColumn, number>;
  volume: FixedDecimal;
  fees: FixedDecimal;
  withDiscrepancies: number;
  withoutFee: number;
  crypto: Map<number, FixedDecimal>;
}

function emptyTally(integratorId: string, providerCode: string, fiatCurrency: number): Tally {
  return {
    integratorId,
    providerCode,
    fiatCurrency,
    orders: 0,
    counts: { completed: 0, failed: 0, expired: 0, refunded: 0, open: 0 },
    volume: ZERO,
    fees: ZERO,
    withDiscrepancies: 0,
    withoutFee: 0,
    crypto: new Map(),
  };
}

function amount(orderId: string, field: string, text: unknown): FixedDecimal {
  const value = typeof text === 'string' ? parseFixed(text) : undefined;
  if (value === undefined) throw new SummaryRecordError(orderId, field);
  return value;
}

/** The rows' key: ids and codes hold no NUL. */
const keyOf = (integratorId: string, providerCode: string, fiatCurrency: number) =>
  `${integratorId}\u0000${providerCode}\u0000${fiatCurrency}`;

/** `a` before `b`: by code unit, never by locale (the same order on every machine). */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Builds a summary from records added in any order: one row per integrator, provider and fiat
 * currency (only those with an order), and a total per fiat currency. Holds one tally per row,
 * never the records.
 */
export class DailySummaryBuilder {
  private readonly tallies = new Map<string, Tally>();
  private added = 0;

  constructor(private readonly currencies: CurrencyDictionary) {}

  /** How many records were added. */
  get size(): number {
    return this.added;
  }

  /** Counts one order; throws SummaryRecordError (and counts nothing of it) when it cannot be counted whole. */
  add(record: SummarizedRecord): void {
    const { order } = record;
    const column = Object.hasOwn(COLUMN_OF, order.status) ? COLUMN_OF[order.status] : undefined;
    if (column === undefined) throw new SummaryRecordError(order.id, 'status');
    if (!Number.isSafeInteger(order.from_currency)) throw new SummaryRecordError(order.id, 'from_currency');
    // Read everything first: a record that fails leaves the tallies as they were.
    let paid: FixedDecimal | undefined;
    let fee: FixedDecimal | undefined;
    let delivered: FixedDecimal | undefined;
    const discrepancies = order.discrepancies ?? [];
    if (column === 'completed') {
      paid = amount(order.id, 'from_amount', order.from_amount);
      if (!Number.isSafeInteger(order.to_currency)) throw new SummaryRecordError(order.id, 'to_currency');
      delivered = amount(order.id, 'to_amount', order.to_amount);
      // The quote is in the currency the order was requested in: only that currency's row takes it.
      const requestedInRowCurrency = !discrepancies.some((d) => d.field === 'from_currency');
      if (record.quote !== undefined && requestedInRowCurrency)
        fee = amount(order.id, 'quote.total_fee_amount', record.quote.total_fee_amount);
    }

    const key = keyOf(record.integratorId, record.providerCode, order.from_currency);
    let tally = this.tallies.get(key);
    if (!tally) {
      tally = emptyTally(record.integratorId, record.providerCode, order.from_currency);
      this.tallies.set(key, tally);
    }
    this.added++;
    tally.orders++;
    tally.counts[column]++;
    if (column !== 'completed') return;
    tally.volume = addFixed(tally.volume, paid!);
    if (fee === undefined) tally.withoutFee++;
    else tally.fees = addFixed(tally.fees, fee);
    if (discrepancies.length > 0) tally.withDiscrepancies++;
    tally.crypto.set(order.to_currency, addFixed(tally.crypto.get(order.to_currency) ?? ZERO, delivered!));
  }

  /** The rows, by integrator id, provider code and fiat currency id. */
  rows(): SummaryRow[] {
    return [...this.tallies.values()]
      .sort((a, b) => byText(a.integratorId, b.integratorId) || byText(a.providerCode, b.providerCode) || a.fiatCurrency - b.fiatCurrency)
      .map((tally) => ({ integratorId: tally.integratorId, providerCode: tally.providerCode, ...this.figuresOf(tally) }));
  }

  /** Per fiat currency (by id), the rows' figures added up: amounts in different currencies are never added together. */
  totals(): SummaryFigures[] {
    const byFiat = new Map<number, Tally>();
    for (const tally of this.tallies.values()) {
      let total = byFiat.get(tally.fiatCurrency);
      if (!total) {
        total = emptyTally('', '', tally.fiatCurrency);
        byFiat.set(tally.fiatCurrency, total);
      }
      total.orders += tally.orders;
      for (const column of STATUS_COLUMNS) total.counts[column] += tally.counts[column];
      total.volume = addFixed(total.volume, tally.volume);
      total.fees = addFixed(total.fees, tally.fees);
      total.withDiscrepancies += tally.withDiscrepancies;
      total.withoutFee += tally.withoutFee;
      for (const [currency, sum] of tally.crypto) total.crypto.set(currency, addFixed(total.crypto.get(currency) ?? ZERO, sum));
    }
    return [...byFiat.values()].sort((a, b) => a.fiatCurrency - b.fiatCurrency).map((tally) => this.figuresOf(tally));
  }

  private figuresOf(tally: Tally): SummaryFigures {
    return {
      fiatCurrency: tally.fiatCurrency,
      orders: tally.orders,
      ...tally.counts,
      completedVolume: this.text(tally.volume, tally.fiatCurrency),
      quotedFees: this.text(tally.fees, tally.fiatCurrency),
      completedWithDiscrepancies: tally.withDiscrepancies,
      completedWithoutQuotedFee: tally.withoutFee,
      cryptoDelivered: [...tally.crypto.entries()]
        .sort(([a], [b]) => a - b)
        .map(([currency, sum]) => ({ currency, amount: this.text(sum, currency) })),
    };
  }

  /** A sum with its currency's places, or more when an amount had more: exact, never rounded. */
  private text(sum: FixedDecimal, currency: number): string {
    return fixedText(sum, Math.max(sum.scale, this.currencies.get(currency)?.precision ?? 0));
  }
}

/** A calendar date, `YYYY-MM-DD`. */
export const UTC_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The UTC day of `date` (`YYYY-MM-DD`, a real calendar date from 1970 to 9999) as a half-open window
 * of epoch milliseconds: from its 00:00 (included) to the next day's 00:00 (excluded). Undefined for
 * anything else.
 */
export function utcDayWindow(date: string): { fromMs: number; toMs: number } | undefined {
  const match = UTC_DATE_PATTERN.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1970) return undefined;
  const fromMs = Date.UTC(year, month - 1, day);
  // Date.UTC rolls 2026-02-30 over to March: only a date that comes back the same is one.
  if (new Date(fromMs).toISOString().slice(0, 10) !== date) return undefined;
  return { fromMs, toMs: fromMs + 86_400_000 };
}
