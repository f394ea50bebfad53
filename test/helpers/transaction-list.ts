/**
 * The checks every provider's transaction list (ProviderAdapter.transactions) passes against its
 * simulator, over real HTTP: the orders it holds listed in the broker's terms, the window kept,
 * every page walked, and each books switch (dropped, drifted status, drifted amount, phantom) shown.
 */
import type { OrderStatus } from '../../src/domain/order-status';
import type { ProviderAdapter, ProviderTransaction, TransactionWindow } from '../../src/providers/types';
import type { ProviderHarness } from './provider-harness';

/** Every transaction of the window, walking the list's pages as the reconciliation does. */
export async function listAll(adapter: ProviderAdapter, window: TransactionWindow): Promise<ProviderTransaction[]> {
  const listing = adapter.transactions;
  if (!listing) throw new Error(`${adapter.info.code} lists no transactions`);
  const all: ProviderTransaction[] = [];
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages > 1_000) throw new Error('the list never ends');
    const page = await listing.list(window, cursor);
    all.push(...page.transactions);
    cursor = page.cursor;
    if (cursor === undefined) return all;
  }
}

async function simulatorPost(harness: ProviderHarness, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${harness.urls.publicUrl}/_simulator${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** Sets the books switches of the order made for `reference` (`{}` clears them). */
export const setBooks = (harness: ProviderHarness, reference: string, switches: Record<string, unknown>) =>
  simulatorPost(harness, `/books/${reference}`, switches);

/** Adds a transaction only the provider's books hold; its provider id. */
export async function addPhantom(harness: ProviderHarness, phantom: { reference?: string; status?: string } = {}): Promise<string> {
  return String((await simulatorPost(harness, '/books', { phantom })).id);
}

export interface TransactionListSuite {
  harness: () => ProviderHarness;
  /**
   * Places an order at the provider and pays it to the end; resolves with the broker's order id and
   * the fiat amount it was for (the amount the provider reports, in its currency's precision).
   */
  paidOrder: () => Promise<{ orderId: string; fiatAmount: string }>;
  /** A provider status the books can drift to, and the broker status it maps to. */
  driftedStatus: { provider: string; broker: OrderStatus };
  /** The broker status the simulator's phantom purchase is listed with. */
  phantomStatus: OrderStatus;
  /** How many transactions one page holds at most (the suite lists more than that). */
  pageLimit: number;
}

const window = (fromMs: number, toMs = Date.now() + 60_000): TransactionWindow => ({ fromMs, toMs });

/** The suite, inside the caller's `describe`. */
export function transactionListSuite(suite: TransactionListSuite): void {
  test('lists each order it holds: our id, its own id, the mapped status and the reported terms', async () => {
    const from = Date.now() - 1_000;
    const { orderId, fiatAmount } = await suite.paidOrder();
    const listed = (await listAll(suite.harness().adapter, window(from))).filter((t) => t.orderId === orderId);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ orderId, status: 'complete' });
    expect(Number(listed[0]!.reported?.fiatAmount)).toBe(Number(fiatAmount));
    expect(listed[0]!.providerOrderId).not.toBe('');
    expect(Date.parse(listed[0]!.createdAt)).toBeGreaterThanOrEqual(from);
  });

  test('keeps to the window: nothing made before `from` or from `to` on', async () => {
    const { orderId } = await suite.paidOrder();
    const all = await listAll(suite.harness().adapter, window(Date.now() - 86_400_000));
    const made = all.find((t) => t.orderId === orderId)!;
    const at = Date.parse(made.createdAt);
    expect((await listAll(suite.harness().adapter, window(at + 1))).some((t) => t.orderId === orderId)).toBe(false);
    expect((await listAll(suite.harness().adapter, window(at - 60_000, at))).some((t) => t.orderId === orderId)).toBe(false);
    expect((await listAll(suite.harness().adapter, window(at, at + 1))).map((t) => t.orderId)).toContain(orderId);
  });

  test('shows what the books switches change: a dropped order, a drifted status and amount, a phantom', async () => {
    const from = Date.now() - 1_000;
    const dropped = await suite.paidOrder();
    const drifted = await suite.paidOrder();
    const resized = await suite.paidOrder();
    await setBooks(suite.harness(), dropped.orderId, { dropped: true });
    await setBooks(suite.harness(), drifted.orderId, { status: suite.driftedStatus.provider });
    await setBooks(suite.harness(), resized.orderId, { fiatAmount: '1234.56' });
    const phantomId = await addPhantom(suite.harness());

    const listed = await listAll(suite.harness().adapter, window(from));
    const of = (orderId: string) => listed.filter((t) => t.orderId === orderId);
    expect(of(dropped.orderId)).toHaveLength(0);
    expect(of(drifted.orderId)).toEqual([expect.objectContaining({ status: suite.driftedStatus.broker })]);
    expect(of(resized.orderId)).toHaveLength(1);
    expect(Number(of(resized.orderId)[0]!.reported?.fiatAmount)).toBe(1234.56);
    const phantom = listed.filter((t) => t.providerOrderId === phantomId);
    expect(phantom).toEqual([expect.objectContaining({ status: suite.phantomStatus })]);
    expect(phantom[0]!.orderId).toBeUndefined();

    // Cleared, the books list the order again as it is.
    await setBooks(suite.harness(), dropped.orderId, {});
    expect((await listAll(suite.harness().adapter, window(from))).filter((t) => t.orderId === dropped.orderId)).toHaveLength(1);
  });

  test('walks every page: more transactions than a page holds, each of them', async () => {
    const from = Date.now() - 1_000;
    const made = new Set<string>();
    for (let i = 0; i < suite.pageLimit + 3; i++) made.add(await addPhantom(suite.harness()));
    const listed = (await listAll(suite.harness().adapter, window(from))).map((t) => t.providerOrderId);
    const phantoms = listed.filter((id) => made.has(id));
    expect(new Set(phantoms).size).toBe(made.size);
    // A list may read a few rows again at a page's edge (Transak's overlap); the walk keeps each id once.
    expect(phantoms.length).toBeLessThanOrEqual(made.size + 10);
  });
}
