import type { BookedOrder } from '../domain/reconciliation';
import type { OrderMemo } from '../temporal/order-contract';

/** An order's record as the broker keeps it (its memo, and when it was requested). */
export type ProviderOrderRecord = Pick<OrderMemo, 'order' | 'integratorId' | 'providerOrderId'> & { requestedAt: string };

/** Where a walk of records stands: the last record read. */
export interface RecordPosition {
  requestedAt: string;
  id: string;
}

/**
 * One provider's order records of every integrator, a page at a time, newest first by request time
 * (src/orders/search.ts, OrderSearch.providerRecordsPage). A record that cannot be decoded fails the page.
 */
export interface ProviderOrderRecords {
  providerRecordsPage(
    providerCode: string,
    window: { requestedFromMs?: number; requestedBeforeMs?: number },
    limit: number,
    after: RecordPosition | undefined,
    spanHintMs?: number,
  ): Promise<{ records: ProviderOrderRecord[]; next?: RecordPosition; spanMs?: number }>;
}

/** Orders a page of the walk reads (a reconciliation reads a provider's day: thousands, not millions, a page at a time). */
const PAGE_SIZE = 500;

/** An order's record in the terms reconciliation compares. */
export function bookedOrder(record: ProviderOrderRecord): BookedOrder {
  const { order } = record;
  return {
    orderId: order.id,
    integratorId: record.integratorId,
    requestedAtMs: Date.parse(record.requestedAt),
    updatedAtMs: Date.parse(order.updated_at),
    status: order.status,
    ...(record.providerOrderId === undefined ? {} : { providerOrderId: record.providerOrderId }),
    walletAddress: order.wallet_address,
    cryptoCurrency: order.to_currency,
    fiatCurrency: order.from_currency,
    fiatAmount: order.from_amount,
  };
}

/**
 * Every order of the provider requested from `fromMs` (included) to `toMs` (excluded), of every
 * integrator, walked newest first through the order search's record pages. `onPage` is told after
 * each page (the activity heartbeats there). A record that cannot be decoded fails the walk: a
 * reconciliation that silently left an order out would report it missing at the provider.
 */
export async function readBrokerOrders(
  search: ProviderOrderRecords,
  providerCode: string,
  fromMs: number,
  toMs: number,
  onPage: (read: number) => void = () => undefined,
): Promise<BookedOrder[]> {
  const orders = new Map<string, BookedOrder>();
  let after: RecordPosition | undefined;
  let spanHintMs: number | undefined;
  do {
    const page = await search.providerRecordsPage(
      providerCode,
      { requestedFromMs: fromMs, requestedBeforeMs: toMs },
      PAGE_SIZE,
      after,
      spanHintMs,
    );
    for (const record of page.records) orders.set(record.order.id, bookedOrder(record));
    after = page.next;
    spanHintMs = page.spanMs;
    onPage(orders.size);
  } while (after);
  return [...orders.values()];
}
