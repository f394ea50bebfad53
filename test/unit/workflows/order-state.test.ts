import { canTransition, ORDER_STATUSES, type OrderStatus } from '../../../src/domain/order-status';
import type { OrderMemo, OrderWorkflowInput, ProviderEvent } from '../../../src/temporal/order-contract';
import { workflowInput } from '../../helpers/orders';
import { OrderState, PROVIDER_CLOCK_SKEW_MS, SEEN_EVENT_IDS_KEPT, type CreatedProviderOrder } from '../../../workflows/order-state';

const BTC = 13;
const ETH = 14;
const USD = 1;
const EUR = 2;
const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const START = Date.parse('2026-11-25T10:00:00.000Z');
const DAY = 24 * 3_600_000;

const input: OrderWorkflowInput = workflowInput('00000000-0000-5000-8000-000000000001', {
  request: {
    ...workflowInput('x').request,
    external_order_id: 'order-1',
    extras: { note: 'kept', provider_order_id: 'from-the-integrator' },
  },
});

const createdAtProvider: CreatedProviderOrder = {
  orderId: input.orderId,
  providerOrderId: 'sb-1',
  providerStatus: 'CREATED',
  status: 'created',
  redirectUrl: 'http://127.0.0.1/checkout/sb-1',
  cryptoAmount: '0.00099',
};

/** The effects the state asked for, in order, and a clock the test moves. */
function recorder() {
  const calls: { kind: 'memo' | 'attributes' | 'info' | 'warn'; value: unknown }[] = [];
  /** What was told to the order's review (raiseReview), kept apart from `calls`. */
  const reviews: [reason: string, key: string, detail: string][] = [];
  let now = START;
  return {
    calls,
    reviews,
    setNow: (ms: number) => (now = ms),
    kinds: () => calls.map((c) => c.kind),
    attributes: () => calls.filter((c) => c.kind === 'attributes').map((c) => c.value),
    effects: {
      now: () => now,
      upsertMemo: (memo: OrderMemo) => calls.push({ kind: 'memo', value: memo }),
      upsertSearchAttributes: (value: unknown) => calls.push({ kind: 'attributes', value }),
      log: {
        info: (message: string) => calls.push({ kind: 'info', value: message }),
        warn: (message: string) => calls.push({ kind: 'warn', value: message }),
      },
      raiseReview: (reason: string, key: string, detail: string) => reviews.push([reason, key, detail]),
    },
  };
}

function orderState(options: { created?: Partial<CreatedProviderOrder> } = {}) {
  const effects = recorder();
  const state = new OrderState({ input, effects: effects.effects });
  state.created({ ...createdAtProvider, ...options.created });
  effects.calls.length = 0;
  expect(effects.reviews).toEqual([]);
  return { state, effects };
}

const report = (overrides: Partial<ProviderEvent> = {}): ProviderEvent => ({
  providerCode: 'sandbox',
  providerOrderId: 'sb-1',
  providerStatus: 'PAYMENT_RECEIVED',
  status: 'processing',
  ...overrides,
});

/** An order moved to `status` through allowed steps. */
function orderIn(status: OrderStatus) {
  const made = orderState();
  const path: Record<OrderStatus, OrderStatus[]> = {
    created: [],
    pending: ['pending'],
    hold: ['hold'],
    processing: ['processing'],
    complete: ['complete'],
    failed: ['failed'],
    expired: ['expired'],
    refunded: ['refunded'],
  };
  for (const [i, step] of path[status].entries()) made.state.apply(report({ status: step, eventId: `setup-${i}` }));
  expect(made.state.memo!.order.status).toBe(status);
  made.effects.calls.length = 0;
  made.effects.reviews.length = 0;
  return made;
}

describe('creation', () => {
  test('publishes the created order: memo, OrderStatus, and the first webhook in the outbox', () => {
    const effects = recorder();
    const state = new OrderState({ input, effects: effects.effects });
    state.created(createdAtProvider);
    expect(state.memo).toMatchObject({
      order: {
        id: input.orderId,
        status: 'created',
        redirect_url: createdAtProvider.redirectUrl,
        to_amount: '0.00099',
        created_at: '2026-11-25T10:00:00.000Z',
        extras: { note: 'kept', provider_order_id: 'sb-1', provider_status: 'CREATED' },
      },
      sequence: 1,
      providerOrderId: 'sb-1',
    });
    expect(effects.kinds()).toEqual(['memo', 'attributes']);
    expect(state.outbox.map((n) => [n.webhookId, n.sequence])).toEqual([[`evt_${input.orderId}_1`, 1]]);
  });

  test('the integrator cannot write the broker-owned extras', () => {
    const { state } = orderState({ created: { providerOrderId: undefined } });
    expect(state.memo!.order.extras).toEqual({ note: 'kept', provider_status: 'CREATED' });
    expect(state.memo!.providerOrderId).toBeUndefined();
  });
});

describe('status transitions', () => {
  const pairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const));
  test.each(pairs)('%s -> %s moves only when the transition table allows it', (from, to) => {
    const { state, effects } = orderIn(from);
    const sequence = state.memo!.sequence;
    const moved = state.apply(report({ status: to, eventId: 'e-move', transactionHash: '0xabc', failureReason: 'card_declined' }));
    const allowed = from !== to && canTransition(from, to);
    expect(moved).toBe(allowed);
    expect(state.memo!.order.status).toBe(allowed ? to : from);
    expect(state.memo!.sequence).toBe(allowed ? sequence + 1 : sequence);
    if (allowed) {
      expect(effects.kinds()).toEqual(['memo', 'attributes']);
      expect(state.memo!.order.extras).toMatchObject({ provider_status: 'PAYMENT_RECEIVED', transaction_hash: '0xabc' });
      expect(state.memo!.order.failure_reason).toBe(to === 'failed' ? 'card_declined' : undefined);
      expect(state.outbox.at(-1)?.sequence).toBe(sequence + 1);
    } else {
      expect(effects.kinds().filter((k) => k === 'memo' || k === 'attributes')).toEqual([]);
    }
  });

  test('failed and expired start the settled grace; a duplicate event id is dropped', () => {
    const { state, effects } = orderIn('created');
    effects.setNow(START + 1000);
    expect(state.apply(report({ status: 'failed', eventId: 'e1' }))).toBe(true);
    expect(state.settledAtMs).toBe(START + 1000);
    expect(state.memo!.order.failure_reason).toBe('failed_at_provider');
    expect(state.apply(report({ status: 'refunded', eventId: 'e1' }))).toBe(false);
    expect(state.apply(report({ status: 'refunded', eventId: 'e2' }))).toBe(true);
  });

  test('the settled grace ends the order only while it is failed or expired, when revived orders are followed', () => {
    const GRACE = 7 * DAY;
    const { state, effects } = orderIn('created');
    let asked = 0;
    const followsRevived = (answer: boolean) => () => {
      asked += 1;
      return answer;
    };
    expect(state.graceEnd(GRACE, followsRevived(true))).toBe(Infinity);
    effects.setNow(START + DAY);
    state.apply(report({ status: 'expired', eventId: 'e-expired' }));
    expect(state.graceEnd(GRACE, followsRevived(true))).toBe(START + DAY + GRACE);
    // Only a revived order asks (the workflow's patch records a marker where it is first asked).
    expect(asked).toBe(0);

    effects.setNow(START + 7 * DAY);
    state.apply(report({ status: 'processing', eventId: 'e-paid' }));
    expect(state.graceEnd(GRACE, followsRevived(true))).toBe(Infinity);
    // Without the patch (a history from before it), the grace that began at the expiry still ends it.
    expect(state.graceEnd(GRACE, followsRevived(false))).toBe(START + DAY + GRACE);
    expect(asked).toBe(2);

    effects.setNow(START + 9 * DAY);
    state.apply(report({ status: 'failed', eventId: 'e-failed' }));
    expect(state.graceEnd(GRACE, followsRevived(true))).toBe(START + 9 * DAY + GRACE);
    expect(state.resumeState(0).settledAtMs).toBe(START + 9 * DAY);
    expect(asked).toBe(2);
  });

  test('the order takes the provider crypto amount when it reports one', () => {
    const { state } = orderIn('created');
    state.apply(report({ status: 'complete', cryptoAmount: '0.00098' }));
    expect(state.memo!.order.to_amount).toBe('0.00098');
  });
});

describe('changes timed by report (local first webhook attempts)', () => {
  const stamped = (iso: string, overrides: Partial<ProviderEvent> = {}) => report({ receivedAt: iso, ...overrides });

  test('a stamped provider webhook dates the change and its message, whatever the workflow clock says, and its first attempt may be local', () => {
    const run = (clockMs: number) => {
      const { state, effects } = orderState();
      effects.setNow(clockMs);
      state.apply(stamped('2026-11-25T10:00:05.123Z'), true);
      return state.outbox.at(-1)!;
    };
    // A re-run of the workflow task reads another clock: the message stays the same.
    const first = run(START + 7_000);
    expect(run(START + 60_000)).toEqual(first);
    expect(first).toMatchObject({ sequence: 2, occurredAt: '2026-11-25T10:00:05.123Z', firstAttemptLocal: true });
    expect(first.order.updated_at).toBe('2026-11-25T10:00:05.123Z');
  });

  test('never before the previous change: a stamp from a clock behind takes the previous time', () => {
    const { state } = orderState();
    state.apply(stamped('2026-11-25T10:00:09.000Z', { status: 'pending', providerStatus: 'AWAITING_PAYMENT' }), true);
    state.apply(stamped('2026-11-25T10:00:08.000Z'), true);
    expect(state.memo!.order.updated_at).toBe('2026-11-25T10:00:09.000Z');
    expect(state.outbox.at(-1)).toMatchObject({ sequence: 3, occurredAt: '2026-11-25T10:00:09.000Z', firstAttemptLocal: true });
  });

  test('a change the clock dates after a stamped one from a clock ahead keeps the stamped time', () => {
    const { state, effects } = orderState();
    state.apply(stamped('2026-11-25T10:05:00.000Z', { status: 'pending', providerStatus: 'AWAITING_PAYMENT' }), true);
    effects.setNow(Date.parse('2026-11-25T10:01:00.000Z'));
    state.apply(report());
    expect(state.memo!.order.updated_at).toBe('2026-11-25T10:05:00.000Z');
  });

  test('a stamped report applied after something the clock decided in the same task (not after a wait) keeps an ordinary first attempt', () => {
    const { state } = orderState();
    state.apply(stamped('2026-11-25T10:00:05.123Z'));
    expect(state.memo!.order.updated_at).toBe('2026-11-25T10:00:05.123Z');
    expect(state.outbox.at(-1)!.firstAttemptLocal).toBeUndefined();
  });

  test.each([
    ['a poll (no stamp)', report()],
    ['an unreadable stamp', stamped('yesterday')],
  ])('%s: dated by the workflow clock, first attempt an ordinary activity', (_name, event) => {
    const { state, effects } = orderState();
    effects.setNow(START + 42_000);
    state.apply(event, true);
    expect(state.memo!.order.updated_at).toBe(new Date(START + 42_000).toISOString());
    expect(state.outbox.at(-1)!.firstAttemptLocal).toBeUndefined();
  });

  test("the created order, its create answer and an expiry are the broker's own: never a local first attempt", () => {
    const { state, effects } = orderState({ created: { status: 'pending', providerStatus: 'AWAITING_PAYMENT' } });
    expect(state.outbox.map((n) => n.firstAttemptLocal)).toEqual([undefined, undefined]);
    effects.setNow(START + input.timings.paymentWindowMs);
    state.expireIfUnpaid();
    expect(state.outbox.at(-1)).toMatchObject({ order: { status: 'expired' } });
    expect(state.outbox.at(-1)!.firstAttemptLocal).toBeUndefined();
  });
});

describe('refused reports (integrity checks)', () => {
  const refusals: [string, Partial<ProviderEvent>][] = [
    ['another provider', { providerCode: 'moonpay' }],
    ['no provider named', { providerCode: undefined }],
    ['another provider order', { providerOrderId: 'sb-2' }],
    ['a provider order made before the order', { providerOrderCreatedAt: new Date(START - PROVIDER_CLOCK_SKEW_MS - 1).toISOString() }],
    ['another wallet', { reported: { walletAddress: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' } }],
    ['another crypto currency', { reported: { cryptoCurrency: ETH } }],
    ['an unknown crypto currency', { reported: { cryptoCurrency: null } }],
    ['an unknown fiat currency', { reported: { fiatCurrency: null } }],
  ];

  test.each(refusals)('a report about %s never moves the order; the first flags it, later ones only count', (_name, overrides) => {
    const { state, effects } = orderIn('created');
    expect(state.apply(report({ status: 'complete', eventId: 'r1', ...overrides }))).toBe(false);
    expect(state.apply(report({ status: 'complete', eventId: 'r2', ...overrides }))).toBe(false);
    expect(state.memo).toMatchObject({ order: { status: 'created' }, sequence: 1, integrityAlert: 'report_refused', refusedReports: 2 });
    expect(effects.attributes()).toEqual([[{ key: expect.objectContaining({ name: 'IntegrityAlert' }), value: 'report_refused' }]]);
    expect(effects.kinds().filter((k) => k === 'memo')).toHaveLength(1);
    expect(state.outbox).toHaveLength(1);
  });

  test('a refused report does not take its event id: the genuine event with that id still moves the order', () => {
    const { state } = orderIn('created');
    state.apply(report({ status: 'complete', eventId: 'same', providerCode: 'moonpay' }));
    expect(state.apply(report({ status: 'complete', eventId: 'same' }))).toBe(true);
  });

  test('event ids are per provider', () => {
    const { state } = orderIn('created');
    expect(state.seenEventIds).not.toContain('sandbox:x');
    state.apply(report({ status: 'pending', eventId: 'x' }));
    expect(state.seenEventIds).toContain('sandbox:x');
  });

  test('a provider order made within the clock skew, or not dated, is accepted', () => {
    const { state } = orderIn('created');
    expect(
      state.apply(report({ status: 'pending', providerOrderCreatedAt: new Date(START - PROVIDER_CLOCK_SKEW_MS + 1000).toISOString() })),
    ).toBe(true);
    expect(state.apply(report({ status: 'processing' }))).toBe(true);
  });

  test(`only the last ${SEEN_EVENT_IDS_KEPT} event ids are kept`, () => {
    const { state } = orderIn('created');
    for (let i = 0; i <= SEEN_EVENT_IDS_KEPT; i++) state.apply(report({ status: 'created', providerStatus: 'CREATED', eventId: `e${i}` }));
    expect(state.seenEventIds).toHaveLength(SEEN_EVENT_IDS_KEPT);
    expect(state.seenEventIds[0]).toBe('sandbox:e1');
  });
});

describe('pinning', () => {
  test('the first provider order id is pinned; polls ask for it; another is refused', () => {
    const { state } = orderState({ created: { providerOrderId: undefined } });
    expect(state.pollTarget()).toBeUndefined();
    expect(state.apply(report({ status: 'pending', providerOrderId: 'p-1' }))).toBe(true);
    expect(state.memo!.providerOrderId).toBe('p-1');
    expect(state.memo!.order.extras.provider_order_id).toBe('p-1');
    expect(state.pollTarget()).toBe('p-1');
    expect(state.apply(report({ status: 'complete', providerOrderId: 'p-2' }))).toBe(false);
    expect(state.apply(report({ status: 'complete', providerOrderId: undefined }))).toBe(true);
  });

  test('a pin learned without a status change is kept', () => {
    const { state } = orderState({ created: { providerOrderId: undefined } });
    expect(state.apply(report({ status: 'created', providerStatus: 'CREATED', providerOrderId: 'p-1' }))).toBe(false);
    expect(state.memo!.providerOrderId).toBe('p-1');
  });
});

describe('payment differences', () => {
  test('another amount moves the order with the provider figure, listed, and flags it once', () => {
    const { state, effects } = orderIn('created');
    expect(state.apply(report({ status: 'processing', reported: { fiatAmount: '10.00' } }))).toBe(true);
    expect(state.memo!.order).toMatchObject({
      status: 'processing',
      from_amount: '10.00',
      discrepancies: [{ field: 'from_amount', ordered: '100.00', reported: '10.00' }],
    });
    expect(state.memo!.integrityAlert).toBe('payment_differs');
    expect(effects.kinds()).toEqual(['warn', 'attributes', 'memo', 'attributes']);
    expect(state.outbox.at(-1)!.order.discrepancies).toHaveLength(1);
  });

  test('another fiat currency takes its ID', () => {
    const { state } = orderIn('created');
    state.apply(report({ status: 'complete', reported: { fiatCurrency: EUR } }));
    expect(state.memo!.order).toMatchObject({
      from_currency: EUR,
      discrepancies: [{ field: 'from_currency', ordered: '1', reported: '2' }],
    });
  });

  test('a difference without a status change is stored at once, with no webhook', () => {
    const { state, effects } = orderIn('pending');
    expect(state.apply(report({ status: 'pending', providerStatus: 'AWAITING_PAYMENT', reported: { fiatAmount: '99.00' } }))).toBe(false);
    expect(state.memo!.order.from_amount).toBe('99.00');
    expect(effects.kinds()).toEqual(['warn', 'attributes', 'memo']);
    expect(state.outbox.map((n) => n.order.status)).toEqual(['created', 'pending']);
  });

  test('a later report of the ordered amount clears the difference; the alert stays', () => {
    const { state } = orderIn('created');
    state.apply(report({ status: 'processing', reported: { fiatAmount: '10.00' } }));
    state.apply(report({ status: 'complete', reported: { fiatAmount: '100' } }));
    expect(state.memo!.order.from_amount).toBe('100.00');
    expect(state.memo!.order.discrepancies).toBeUndefined();
    expect(state.memo!.integrityAlert).toBe('payment_differs');
  });

  test('terms reported as ordered change nothing but the status', () => {
    const { state, effects } = orderIn('created');
    state.apply(report({ reported: { walletAddress: WALLET.toUpperCase(), cryptoCurrency: BTC, fiatCurrency: USD, fiatAmount: '100' } }));
    expect(state.memo!.order.discrepancies).toBeUndefined();
    expect(effects.kinds()).toEqual(['memo', 'attributes']);
  });
});

describe('expiry', () => {
  test.each(ORDER_STATUSES)('an order %s at the end of its payment window expires only when unpaid', (status) => {
    const { state, effects } = orderIn(status);
    effects.setNow(START + DAY - 1);
    state.expireIfUnpaid();
    expect(state.memo!.order.status).toBe(status);
    effects.setNow(START + DAY);
    state.expireIfUnpaid();
    expect(state.memo!.order.status).toBe(status === 'created' || status === 'pending' ? 'expired' : status);
  });
});

describe('review', () => {
  test.each(ORDER_STATUSES)('an order %s is due for review after 5 days only while hold or processing', (status) => {
    const { state } = orderIn(status);
    const due = state.reviewDue();
    expect(due).toBe(status === 'hold' || status === 'processing' ? START + 5 * DAY : Infinity);
  });

  test('flagged once: memo, ReviewReason and a warning; then no longer due', () => {
    const { state, effects } = orderIn('processing');
    state.flagForReview();
    expect(state.memo).toMatchObject({ reviewReason: 'open_too_long', order: { status: 'processing' } });
    expect(effects.kinds()).toEqual(['warn', 'memo', 'attributes']);
    expect(effects.attributes()).toEqual([[{ key: expect.objectContaining({ name: 'ReviewReason' }), value: 'open_too_long' }]]);
    expect(state.reviewDue()).toBe(Infinity);
  });
});

describe('reconciliation mismatches', () => {
  test.each(ORDER_STATUSES)('an order %s is flagged with the kinds found, its status untouched, no webhook', (status) => {
    const { state, effects } = orderIn(status);
    const outbox = state.outbox.length;
    expect(state.flagMismatch({ kinds: ['status_differs', 'missing_at_provider'], reconciliationId: 'r-1' })).toBe(true);
    expect(state.memo).toMatchObject({ reconciliationMismatch: ['missing_at_provider', 'status_differs'], order: { status } });
    expect(effects.kinds()).toEqual(['warn', 'memo', 'attributes']);
    expect(effects.attributes()).toEqual([
      [{ key: expect.objectContaining({ name: 'ReconciliationMismatch' }), value: ['missing_at_provider', 'status_differs'] }],
    ]);
    expect(state.outbox).toHaveLength(outbox);
  });

  test('kinds join those known; a notice with nothing new changes nothing', () => {
    const { state, effects } = orderIn('complete');
    state.flagMismatch({ kinds: ['terms_differ'], reconciliationId: 'r-1' });
    effects.calls.length = 0;
    expect(state.flagMismatch({ kinds: ['terms_differ'], reconciliationId: 'r-2' })).toBe(false);
    expect(effects.calls).toEqual([]);
    expect(state.flagMismatch({ kinds: ['missing_here', 'terms_differ'], reconciliationId: 'r-3' })).toBe(true);
    expect(state.memo!.reconciliationMismatch).toEqual(['missing_here', 'terms_differ']);
  });

  test('a kind the broker does not know is not written into the order (a forged or garbled notice)', () => {
    const { state, effects } = orderIn('complete');
    expect(state.flagMismatch({ kinds: ['x'.repeat(10_000)] as never, reconciliationId: 'r-1' })).toBe(false);
    expect(effects.calls).toEqual([]);
    expect(state.memo!.reconciliationMismatch).toBeUndefined();
  });

  test.each([null, {}, { kinds: 'status_differs' }, { kinds: [1, null, {}] }, { kinds: [['terms_differ']] }])(
    'a malformed notice (%j) is ignored, never thrown on (a throw would fail the workflow task on every replay)',
    (notice) => {
      const { state, effects } = orderIn('complete');
      expect(state.flagMismatch(notice as never)).toBe(false);
      expect(effects.calls).toEqual([]);
    },
  );
});

test('the resume state carries the memo, seen ids, settled time and outbox into the next run', () => {
  const { state } = orderIn('failed');
  const resume = state.resumeState(60_000);
  expect(resume).toEqual({
    memo: state.memo,
    seenEventIds: state.seenEventIds,
    pollDelayMs: 60_000,
    settledAtMs: START,
    outbox: state.outbox,
  });
  const next = new OrderState({ input, resume, effects: recorder().effects });
  expect(next.apply(report({ status: 'refunded' }))).toBe(true);
  expect(next.outbox.map((n) => n.sequence)).toEqual([1, 2, 3]);
});

test('webhook delivery records keep the newest ones and move to the next run; a resume state without them starts empty', () => {
  const { state } = orderIn('failed');
  for (let attempt = 1; attempt <= 105; attempt++) {
    state.recordDelivery({
      webhook_id: 'evt_x_1',
      sequence: 1,
      attempt,
      attempted_at: new Date(START).toISOString(),
      outcome: 'failed',
      status_code: 500,
    });
  }
  expect(state.deliveries.map((d) => d.attempt)).toEqual(Array.from({ length: 100 }, (_, i) => i + 6));
  const resume = state.resumeState(60_000);
  const next = new OrderState({ input, resume, effects: recorder().effects });
  expect(next.deliveries).toEqual(state.deliveries);
  const { deliveries: _dropped, ...older } = resume;
  expect(new OrderState({ input, resume: older, effects: recorder().effects }).deliveries).toEqual([]);
});

describe("the order's review is told what needs a person", () => {
  test('report_refused: the first refused report only, with why it was refused', () => {
    const { state, effects } = orderIn('created');
    state.apply(report({ status: 'complete', eventId: 'r1', providerCode: 'moonpay' }));
    state.apply(report({ status: 'complete', eventId: 'r2', providerOrderId: 'sb-2' }));
    state.apply(report({ status: 'complete', eventId: 'r3', reported: { cryptoCurrency: ETH } }));
    expect(effects.reviews).toEqual([
      ['report_refused', 'report_refused', 'a provider report was refused: from provider moonpay, not sandbox'],
    ]);
  });

  test('payment_differs: told for each payment reported differently, keyed by what was paid; the same payment again is not told again', () => {
    const { state, effects } = orderIn('created');
    state.apply(report({ status: 'processing', eventId: 'p1', reported: { fiatAmount: '10.00' } }));
    expect(effects.reviews).toEqual([
      [
        'payment_differs',
        'payment_differs:from_amount=10.00',
        'the provider took a different payment: from_amount: ordered 100.00, paid 10.00',
      ],
    ]);
    // The same payment again: nothing new.
    state.apply(report({ status: 'processing', eventId: 'p1b', reported: { fiatAmount: '10.00' } }));
    expect(effects.reviews).toHaveLength(1);
    // A later, different payment (an acknowledged rounding must not hide a tenfold amount) is told.
    state.apply(report({ status: 'processing', eventId: 'p2', reported: { fiatAmount: '1000.00' } }));
    expect(effects.reviews.map(([, key]) => key)).toEqual(['payment_differs:from_amount=10.00', 'payment_differs:from_amount=1000.00']);
    // The payment as ordered again clears the differences: nothing to tell.
    state.apply(report({ status: 'processing', eventId: 'p3', reported: { fiatAmount: '100' } }));
    expect(effects.reviews).toHaveLength(2);
  });

  test('payment_differs after a refused report is still told (another alert, another reason)', () => {
    const { state, effects } = orderIn('created');
    state.apply(report({ status: 'complete', eventId: 'r1', providerCode: 'moonpay' }));
    state.apply(report({ status: 'processing', eventId: 'p1', reported: { fiatAmount: '10.00' } }));
    expect(effects.reviews.map(([reason, key]) => [reason, key])).toEqual([
      ['report_refused', 'report_refused'],
      ['payment_differs', 'payment_differs:from_amount=10.00'],
    ]);
  });

  test('report_refused after a payment that differs is still told, once', () => {
    const { state, effects } = orderIn('created');
    state.apply(report({ status: 'processing', eventId: 'p1', reported: { fiatAmount: '10.00' } }));
    state.apply(report({ status: 'complete', eventId: 'r1', providerCode: 'moonpay' }));
    state.apply(report({ status: 'complete', eventId: 'r2', providerCode: 'moonpay' }));
    expect(effects.reviews.map(([reason]) => reason)).toEqual(['payment_differs', 'report_refused']);
  });

  test('open_too_long: told when the order is flagged, with its status and dates', () => {
    const { state, effects } = orderIn('hold');
    state.flagForReview();
    const { updated_at, created_at } = state.memo!.order;
    expect(effects.reviews).toEqual([['open_too_long', 'open_too_long', `hold since ${updated_at}, created ${created_at}`]]);
  });

  test('webhook_not_delivered: told per webhook given up on, keyed by its webhook id', () => {
    const { state, effects } = orderIn('complete');
    state.webhookNotDelivered('evt_x_2', 2, 'retries used up after 12 attempts: 500');
    state.webhookNotDelivered('evt_x_3', 3, "the endpoint's URL was refused: private address");
    expect(effects.reviews).toEqual([
      ['webhook_not_delivered', 'evt_x_2', 'webhook evt_x_2 (sequence 2) not delivered: retries used up after 12 attempts: 500'],
      ['webhook_not_delivered', 'evt_x_3', "webhook evt_x_3 (sequence 3) not delivered: the endpoint's URL was refused: private address"],
    ]);
  });

  test('ordinary changes tell the review nothing: every transition, a duplicate, an expiry, a mismatch, a delivery record', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const { state, effects } = orderIn(from);
        state.apply(report({ status: to, eventId: 'e-move', transactionHash: '0xabc' }));
        state.apply(report({ status: to, eventId: 'e-move' }));
        expect(effects.reviews).toEqual([]);
      }
    }
    const { state, effects } = orderIn('pending');
    state.apply(
      report({
        status: 'pending',
        providerStatus: 'AWAITING_PAYMENT',
        providerOrderId: 'sb-1',
        providerOrderCreatedAt: new Date(START).toISOString(),
      }),
    );
    effects.setNow(START + DAY);
    state.expireIfUnpaid();
    expect(state.memo!.order.status).toBe('expired');
    state.flagMismatch({ kinds: ['status_differs'], reconciliationId: 'r-1' });
    state.recordDelivery({
      webhook_id: 'evt_x_1',
      sequence: 1,
      attempt: 1,
      attempted_at: new Date(START).toISOString(),
      outcome: 'failed',
      status_code: 500,
    });
    expect(effects.reviews).toEqual([]);
  });
});
