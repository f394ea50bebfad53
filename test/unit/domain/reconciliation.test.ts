import { ORDER_STATUSES, type OrderStatus } from '../../../src/domain/order-status';
import { reconcile, type BookedOrder, type BookedTransaction, type ReconciliationInput } from '../../../src/domain/reconciliation';

const HOUR = 3_600_000;
const FROM = Date.UTC(2026, 10, 28);
const TO = FROM + 24 * HOUR;
const NOW = TO + 26 * HOUR;
const WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';

let ids = 0;
const nextId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

function order(overrides: Partial<BookedOrder> = {}): BookedOrder {
  return {
    orderId: nextId(),
    integratorId: 'acme',
    requestedAtMs: FROM + HOUR,
    updatedAtMs: FROM + 2 * HOUR,
    status: 'complete',
    walletAddress: WALLET,
    cryptoCurrency: 2,
    fiatCurrency: 101,
    fiatAmount: '100.00',
    ...overrides,
  };
}

/** The provider's transaction for `o`, agreeing with it unless told otherwise. */
function transactionOf(o: BookedOrder, overrides: Partial<BookedTransaction> = {}): BookedTransaction {
  return {
    providerOrderId: o.providerOrderId ?? `p-${o.orderId}`,
    orderId: o.orderId,
    createdAtMs: o.requestedAtMs + 60_000,
    status: o.status,
    providerStatus: `provider:${o.status}`,
    reported: { walletAddress: o.walletAddress, cryptoCurrency: o.cryptoCurrency, fiatCurrency: o.fiatCurrency, fiatAmount: '100' },
    ...overrides,
  };
}

function run(orders: BookedOrder[], transactions: BookedTransaction[], overrides: Partial<ReconciliationInput> = {}) {
  return reconcile({ fromMs: FROM, toMs: TO, nowMs: NOW, settleMs: HOUR, orders, transactions, ...overrides });
}

describe('a clean day', () => {
  test('every order matched with its transaction, by our id or by the pinned provider id: no mismatch', () => {
    const byId = order();
    const pinned = order({ providerOrderId: 'mp-1' });
    const pinnedTx = transactionOf(pinned);
    delete pinnedTx.orderId;
    const unpaid = order({ status: 'expired' });
    const outcome = run([byId, pinned, unpaid], [transactionOf(byId), pinnedTx]);
    expect(outcome).toEqual({ matched: 2, unsettled: 0, orders: 3, transactions: 2, mismatches: [] });
  });

  test('an amount written at another precision, an EVM wallet in other casing, agree', () => {
    const o = order();
    const t = transactionOf(o, { reported: { walletAddress: WALLET.toLowerCase(), fiatAmount: '100.004' } });
    expect(run([o], [t]).mismatches).toEqual([]);
  });

  test('a transaction that reports no terms has nothing to differ', () => {
    const o = order();
    const t = transactionOf(o);
    delete t.reported;
    expect(run([o], [t]).mismatches).toEqual([]);
  });
});

describe('missing_here: a provider transaction no order here holds', () => {
  test('one without our id, and one naming an order the broker does not have', () => {
    const phantom: BookedTransaction = {
      providerOrderId: 'ph-1',
      createdAtMs: FROM + HOUR,
      status: 'complete',
      providerStatus: 'completed',
    };
    const stranger: BookedTransaction = { ...phantom, providerOrderId: 'ph-2', orderId: nextId() };
    expect(run([], [phantom, stranger]).mismatches).toEqual([
      { kind: 'missing_here', providerOrderId: 'ph-1', status: { provider: 'complete', providerStatus: 'completed' } },
      {
        kind: 'missing_here',
        providerOrderId: 'ph-2',
        orderId: stranger.orderId,
        status: { provider: 'complete', providerStatus: 'completed' },
      },
    ]);
  });

  test("a customer retry naming one of our orders is the order's, not a stranger", () => {
    const o = order();
    const retry = transactionOf(o, { providerOrderId: 'retry', status: 'failed', createdAtMs: o.requestedAtMs + 1000 });
    expect(run([o], [transactionOf(o), retry]).mismatches).toEqual([]);
  });

  test('reported by the window of its own creation only', () => {
    const early: BookedTransaction = { providerOrderId: 'e', createdAtMs: FROM - 1, status: 'complete', providerStatus: 'c' };
    const first: BookedTransaction = { ...early, providerOrderId: 'f', createdAtMs: FROM };
    const last: BookedTransaction = { ...early, providerOrderId: 'l', createdAtMs: TO - 1 };
    const next: BookedTransaction = { ...early, providerOrderId: 'n', createdAtMs: TO };
    const outcome = run([], [early, first, last, next]);
    expect(outcome.mismatches.map((m) => m.providerOrderId)).toEqual(['f', 'l']);
    expect(outcome.transactions).toBe(2);
  });
});

describe('missing_at_provider: an order here the provider does not list', () => {
  test.each(ORDER_STATUSES.map((s) => [s]))('status %s without a provider order id', (status) => {
    const expected = ['hold', 'processing', 'complete', 'refunded'].includes(status);
    const o = order({ status });
    expect(run([o], []).mismatches).toEqual(
      expected ? [{ kind: 'missing_at_provider', orderId: o.orderId, integratorId: 'acme', status: { here: status } }] : [],
    );
  });

  test.each(ORDER_STATUSES.map((s) => [s]))('status %s with a pinned provider order', (status) => {
    const o = order({ status, providerOrderId: 'gone' });
    const expected = !['created', 'expired'].includes(status);
    expect(run([o], []).mismatches).toEqual(
      expected
        ? [{ kind: 'missing_at_provider', orderId: o.orderId, integratorId: 'acme', providerOrderId: 'gone', status: { here: status } }]
        : [],
    );
  });

  test('a transaction naming the order under another id does not stand for the pinned one', () => {
    const o = order({ status: 'pending', providerOrderId: 'gone' });
    const other = transactionOf(o, { providerOrderId: 'another', status: 'pending' });
    expect(run([o], [other]).mismatches).toEqual([
      { kind: 'missing_at_provider', orderId: o.orderId, integratorId: 'acme', providerOrderId: 'gone', status: { here: 'pending' } },
    ]);
  });

  test('orders anchored outside the window are not reported by it, though read for matching', () => {
    const before = order({ requestedAtMs: FROM - 1 });
    const after = order({ requestedAtMs: TO });
    const edge = order({ requestedAtMs: FROM });
    const outcome = run([before, after, edge], []);
    expect(outcome.mismatches.map((m) => m.orderId)).toEqual([edge.orderId]);
    expect(outcome.orders).toBe(1);
  });
});

describe('a pair across the window edge', () => {
  test("an order of the window whose transaction came after it: matched, the transaction's window reports nothing", () => {
    const o = order({ requestedAtMs: TO - 1 });
    const t = transactionOf(o, { createdAtMs: TO + HOUR });
    expect(run([o], [t])).toMatchObject({ matched: 1, mismatches: [] });
    expect(run([o], [t], { fromMs: TO, toMs: TO + 24 * HOUR, nowMs: NOW + 24 * HOUR })).toMatchObject({ matched: 0, mismatches: [] });
  });

  test("a drifted pair across the edge is reported by the order's window only", () => {
    const o = order({ requestedAtMs: TO - 1 });
    const t = transactionOf(o, { createdAtMs: TO + HOUR, status: 'refunded' });
    expect(run([o], [t]).mismatches.map((m) => m.kind)).toEqual(['status_differs']);
    expect(run([o], [t], { fromMs: TO, toMs: TO + 24 * HOUR, nowMs: NOW + 24 * HOUR }).mismatches).toEqual([]);
  });
});

describe('status_differs', () => {
  const differs = (here: OrderStatus, provider: OrderStatus) => {
    const o = order({ status: here, providerOrderId: 'p' });
    return run([o], [transactionOf(o, { status: provider })]).mismatches.some((m) => m.kind === 'status_differs');
  };

  test('a final provider status other than ours', () => {
    expect(differs('complete', 'refunded')).toBe(true);
    expect(differs('failed', 'complete')).toBe(true);
    expect(differs('processing', 'complete')).toBe(true);
    expect(differs('pending', 'failed')).toBe(true);
    expect(differs('expired', 'complete')).toBe(true);
  });

  test('money arrived here while the provider is still at it, or the provider moves money ours does not know of', () => {
    expect(differs('complete', 'processing')).toBe(true);
    expect(differs('refunded', 'pending')).toBe(true);
    expect(differs('expired', 'processing')).toBe(true);
    expect(differs('pending', 'processing')).toBe(true);
  });

  test('ours holds or moves money the provider has not received', () => {
    expect(differs('processing', 'pending')).toBe(true);
    expect(differs('hold', 'created')).toBe(true);
  });

  test('not: the same status, both unpaid ends, or a provider still waiting for a payment ours gave up on', () => {
    for (const status of ORDER_STATUSES) expect(differs(status, status)).toBe(false);
    expect(differs('failed', 'expired')).toBe(false);
    expect(differs('expired', 'failed')).toBe(false);
    expect(differs('expired', 'pending')).toBe(false);
    expect(differs('pending', 'hold')).toBe(false);
    expect(differs('processing', 'hold')).toBe(false);
  });

  test('both sides, in the report', () => {
    const o = order({ status: 'complete' });
    expect(run([o], [transactionOf(o, { status: 'refunded', providerStatus: 'refunded_to_card' })]).mismatches).toEqual([
      {
        kind: 'status_differs',
        orderId: o.orderId,
        integratorId: 'acme',
        providerOrderId: `p-${o.orderId}`,
        status: { here: 'complete', provider: 'refunded', providerStatus: 'refunded_to_card' },
      },
    ]);
  });

  test('an order that changed inside the settle window is not compared yet, and counted', () => {
    const o = order({ status: 'processing', updatedAtMs: NOW - HOUR + 1 });
    expect(run([o], [transactionOf(o, { status: 'complete' })])).toMatchObject({ mismatches: [], unsettled: 1 });
    expect(run([o], [transactionOf(o, { status: 'complete' })], { nowMs: NOW + 1 })).toMatchObject({ unsettled: 0 });
    expect(run([o], [transactionOf(o, { status: 'complete' })], { nowMs: NOW + 1 }).mismatches).toHaveLength(1);
  });

  test('a change time that cannot be read does not keep the status from being compared', () => {
    const o = order({ status: 'processing', updatedAtMs: NaN });
    expect(run([o], [transactionOf(o, { status: 'complete' })]).mismatches.map((m) => m.kind)).toEqual(['status_differs']);
  });
});

describe('terms_differ', () => {
  test('amount, fiat currency, crypto currency, wallet: each listed with both values', () => {
    const o = order();
    const t = transactionOf(o, {
      reported: { walletAddress: '0x0000000000000000000000000000000000000001', cryptoCurrency: 3, fiatCurrency: 102, fiatAmount: '120.5' },
    });
    const [mismatch] = run([o], [t]).mismatches;
    expect(mismatch).toMatchObject({ kind: 'terms_differ', orderId: o.orderId, providerOrderId: t.providerOrderId });
    expect(mismatch!.fields).toEqual(
      expect.arrayContaining([
        { field: 'wallet_address', ordered: WALLET, reported: '0x0000000000000000000000000000000000000001' },
        { field: 'to_currency', ordered: '2', reported: '3' },
        { field: 'from_currency', ordered: '101', reported: '102' },
        { field: 'from_amount', ordered: '100.00', reported: '120.5' },
      ]),
    );
    expect(mismatch!.fields).toHaveLength(4);
  });

  test('a fiat currency the broker cannot name differs', () => {
    const o = order();
    expect(run([o], [transactionOf(o, { reported: { fiatCurrency: null } })]).mismatches[0]!.fields).toEqual([
      { field: 'from_currency', ordered: '101', reported: 'unknown' },
    ]);
  });

  test('checked whatever the settle window: terms do not move towards each other', () => {
    const o = order({ updatedAtMs: NOW });
    expect(run([o], [transactionOf(o, { reported: { fiatAmount: '99' } })]).mismatches.map((m) => m.kind)).toEqual(['terms_differ']);
  });
});

describe('duplicate_payment', () => {
  test('a second transaction of the order that took money, beside the pinned one', () => {
    const o = order({ providerOrderId: 'p1' });
    const second = transactionOf(o, { providerOrderId: 'p2', status: 'complete', providerStatus: 'completed' });
    expect(run([o], [transactionOf(o), second]).mismatches).toEqual([
      {
        kind: 'duplicate_payment',
        orderId: o.orderId,
        integratorId: 'acme',
        providerOrderId: 'p2',
        status: { here: 'complete', provider: 'complete', providerStatus: 'completed' },
      },
    ]);
  });

  test('without a pin too; an abandoned or failed attempt is no payment', () => {
    const o = order();
    const paid = transactionOf(o, { providerOrderId: 'a', status: 'complete' });
    const refunded = transactionOf(o, { providerOrderId: 'b', status: 'refunded' });
    const abandoned = transactionOf(o, { providerOrderId: 'c', status: 'failed' });
    const open = transactionOf(o, { providerOrderId: 'd', status: 'pending' });
    expect(run([o], [paid, refunded, abandoned, open]).mismatches.map((m) => [m.kind, m.providerOrderId])).toEqual([
      ['duplicate_payment', 'b'],
    ]);
  });

  test('one transaction stands for one order: pinned by one, it is not matched by another that it names', () => {
    const a = order({ providerOrderId: 'shared' });
    const b = order({ status: 'complete' });
    const shared = transactionOf(a, { orderId: b.orderId });
    const outcome = run([a, b], [shared]);
    expect(outcome.matched).toBe(1);
    expect(outcome.mismatches).toEqual([
      { kind: 'missing_at_provider', orderId: b.orderId, integratorId: 'acme', status: { here: 'complete' } },
    ]);
  });
});

describe('matching', () => {
  test('the pinned provider order wins over other transactions naming the order', () => {
    const o = order({ providerOrderId: 'pinned', status: 'complete' });
    const pinned = transactionOf(o);
    const retry = transactionOf(o, { providerOrderId: 'retry', status: 'failed' });
    expect(run([o], [retry, pinned]).mismatches).toEqual([]);
  });

  test('without a pin, the transaction that moved money, then a final one, then the latest', () => {
    const o = order({ status: 'complete' });
    const abandoned = transactionOf(o, { providerOrderId: 'a', status: 'failed', createdAtMs: o.requestedAtMs + 3000 });
    const paid = transactionOf(o, { providerOrderId: 'b', status: 'complete', createdAtMs: o.requestedAtMs + 1000 });
    const open = transactionOf(o, { providerOrderId: 'c', status: 'pending', createdAtMs: o.requestedAtMs + 5000 });
    expect(run([o], [abandoned, open, paid]).mismatches).toEqual([]);
  });

  test('one mismatch can come with another: drifted status and terms of one pair', () => {
    const o = order();
    const t = transactionOf(o, { status: 'refunded', reported: { fiatAmount: '1' } });
    expect(run([o], [t]).mismatches.map((m) => m.kind)).toEqual(['status_differs', 'terms_differ']);
  });
});
