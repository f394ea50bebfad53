/**
 * ReviewBook, the review workflow's state and rules, with recording effects: reasons raised once per
 * key, operator actions recorded once per request and acknowledging reasons, outcomes settled once,
 * bounds, the memo and NeedsReview published only when they change, and every malformed message
 * (anyone with Temporal access can signal a review) dropped with a warning, never thrown on.
 */
import {
  QUEUE_REASONS,
  REVIEW_ACTIONS_MAX,
  REVIEW_REASONS_MAX,
  REVIEW_TEXT_MAX,
  type ActionOutcome,
  type OperatorAction,
  type ReviewInput,
  type ReviewMemo,
  type ReviewNotice,
} from '../../../src/temporal/review-contract';
import { ReviewBook, type CarriedReview } from '../../../workflows/review-book';

const START = Date.parse('2026-11-25T10:00:00.000Z');
const AT = '2026-11-25T10:00:00.000Z';

const input: ReviewInput = {
  reviewId: '00000000-0000-5000-8000-000000000001',
  subject: { kind: 'order', orderId: '00000000-0000-5000-8000-000000000001', providerCode: 'sandbox', integratorId: 'dev' },
  keepMs: 30 * 86_400_000,
};

type Call = { kind: 'memo' | 'attributes' | 'warn'; value: unknown };

/** The effects the book asked for, in order, and a clock the test moves. */
function recorder() {
  const calls: Call[] = [];
  let now = START;
  return {
    calls,
    setNow: (ms: number) => (now = ms),
    kinds: () => calls.map((c) => c.kind),
    of: (kind: Call['kind']) => calls.filter((c) => c.kind === kind).map((c) => c.value),
    effects: {
      now: () => now,
      upsertMemo: (memo: Record<string, unknown>) => calls.push({ kind: 'memo', value: memo }),
      upsertSearchAttributes: (value: unknown) => calls.push({ kind: 'attributes', value }),
      log: {
        warn: (message: string, attributes?: Record<string, unknown>) => calls.push({ kind: 'warn', value: { message, attributes } }),
      },
    },
  };
}

function reviewBook(carried?: CarriedReview) {
  const effects = recorder();
  const book = new ReviewBook(input, effects.effects, carried);
  return { book, effects };
}

const notice = (overrides: Partial<ReviewNotice> = {}): ReviewNotice => ({
  reason: 'open_too_long',
  key: 'open_too_long',
  detail: 'hold since yesterday',
  raisedAt: AT,
  source: 'order',
  ...overrides,
});

const action = (overrides: Partial<OperatorAction> = {}): OperatorAction => ({
  requestId: 'req-1',
  action: 'acknowledge',
  operatorId: 'op-1',
  at: AT,
  ...overrides,
});

const outcome = (overrides: Partial<ActionOutcome> = {}): ActionOutcome => ({
  requestId: 'req-1',
  outcome: 'done',
  at: AT,
  ...overrides,
});

/** NeedsReview's value in an attributes call. */
const needsReview = (value: unknown) => (value as { key: { name: string }; value: unknown }[]).map((p) => [p.key.name, p.value]);

describe('raising reasons', () => {
  test('a reason is kept once per key, and publishes the memo and NeedsReview', () => {
    const { book, effects } = reviewBook();
    effects.setNow(START + 1000);
    expect(book.raise(notice())).toBe(true);
    expect(book.reasons).toEqual([notice()]);
    expect(book.open()).toEqual(['open_too_long']);
    expect(book.version).toBe(1);
    expect(book.changedAtMs).toBe(START + 1000);
    expect(effects.kinds()).toEqual(['memo', 'attributes']);
    expect(effects.of('memo')[0]).toEqual({
      review: {
        reviewId: input.reviewId,
        subject: input.subject,
        open: [{ reason: 'open_too_long', detail: 'hold since yesterday', raisedAt: AT }],
      },
    });
    expect(needsReview(effects.of('attributes')[0])).toEqual([['NeedsReview', ['open_too_long']]]);

    // The same key again (a retried activity, a rerun), even told differently: nothing changes.
    effects.calls.length = 0;
    effects.setNow(START + 2000);
    expect(book.raise(notice())).toBe(false);
    expect(book.raise(notice({ reason: 'payment_differs', detail: 'other', source: 'reconciliation' }))).toBe(false);
    expect(book.reasons).toHaveLength(1);
    expect(book.version).toBe(1);
    expect(book.changedAtMs).toBe(START + 1000);
    expect(effects.calls).toEqual([]);
  });

  test('another key of the same reason is another occurrence; open() names each reason once, in QUEUE_REASONS order', () => {
    const { book } = reviewBook();
    book.raise(notice({ reason: 'webhook_not_delivered', key: 'evt_1' }));
    book.raise(notice({ reason: 'webhook_not_delivered', key: 'evt_2' }));
    book.raise(notice({ reason: 'payment_differs', key: 'payment_differs', source: 'reconciliation' }));
    expect(book.reasons.map((r) => r.key)).toEqual(['evt_1', 'evt_2', 'payment_differs']);
    expect(book.open()).toEqual(['payment_differs', 'webhook_not_delivered']);
    expect(book.version).toBe(3);
  });

  test(`reasons beyond REVIEW_REASONS_MAX (${REVIEW_REASONS_MAX}) are refused with a warning`, () => {
    const { book, effects } = reviewBook();
    for (let i = 0; i < REVIEW_REASONS_MAX; i++) expect(book.raise(notice({ key: `k-${i}` }))).toBe(true);
    effects.calls.length = 0;
    expect(book.raise(notice({ key: 'one-too-many' }))).toBe(false);
    expect(book.reasons).toHaveLength(REVIEW_REASONS_MAX);
    expect(book.version).toBe(REVIEW_REASONS_MAX);
    expect(effects.kinds()).toEqual(['warn']);
    // One already known is still a duplicate, not a refusal.
    effects.calls.length = 0;
    expect(book.raise(notice({ key: 'k-0' }))).toBe(false);
    expect(effects.calls).toEqual([]);
  });

  test(`a detail is cut at REVIEW_TEXT_MAX (${REVIEW_TEXT_MAX}) characters; one of exactly that many is kept whole`, () => {
    const { book } = reviewBook();
    book.raise(notice({ key: 'long', detail: 'x'.repeat(REVIEW_TEXT_MAX * 5) }));
    book.raise(notice({ key: 'exact', detail: 'y'.repeat(REVIEW_TEXT_MAX) }));
    book.raise(notice({ key: 'empty', detail: '' }));
    const [long, exact, empty] = book.reasons;
    expect(long!.detail).toHaveLength(REVIEW_TEXT_MAX);
    expect(long!.detail.endsWith('…')).toBe(true);
    expect(exact!.detail).toBe('y'.repeat(REVIEW_TEXT_MAX));
    expect(empty!.detail).toBe('');
  });

  test('only the notice fields are kept: anything else sent along is not', () => {
    const { book } = reviewBook();
    book.raise({ ...notice(), acknowledged: { operatorId: 'forged', at: AT, requestId: 'r' }, extra: 'x'.repeat(10_000) } as never);
    expect(book.reasons).toEqual([notice()]);
    expect(book.open()).toEqual(['open_too_long']);
  });
});

/** Malformed messages: JSON a signal could carry, and a few things only code could (undefined, a cycle). */
const cyclic: Record<string, unknown> = { reason: 'open_too_long' };
cyclic.self = cyclic;
const LONG_ID = 'k'.repeat(301);

const malformedNotices: [string, unknown][] = [
  ['null', null],
  ['undefined', undefined],
  ['a string', 'open_too_long'],
  ['a number', 42],
  ['an array', [notice()]],
  ['an empty object', {}],
  ['a cycle', cyclic],
  ['an unknown reason', notice({ reason: 'kyc_pending' as never })],
  ['a reason of another type', notice({ reason: 1 as never })],
  ['no reason', { ...notice(), reason: undefined }],
  ['an empty key', notice({ key: '' })],
  ['an over-long key', notice({ key: LONG_ID })],
  ['a key of another type', notice({ key: 7 as never })],
  ['no key', { ...notice(), key: undefined }],
  ['a detail of another type', notice({ detail: { text: 'x' } as never })],
  ['no detail', { ...notice(), detail: undefined }],
  ['an unreadable instant', notice({ raisedAt: 'yesterday' })],
  ['an empty instant', notice({ raisedAt: '' })],
  ['an over-long instant', notice({ raisedAt: `${AT}${' '.repeat(40)}` })],
  ['an instant as a number', notice({ raisedAt: START as never })],
  ['an unknown source', notice({ source: 'api' as never })],
  ['no source', { ...notice(), source: undefined }],
];

const malformedActions: [string, unknown][] = [
  ['null', null],
  ['undefined', undefined],
  ['a string', 'acknowledge'],
  ['an array', [action()]],
  ['an empty object', {}],
  ['an empty request id', action({ requestId: '' })],
  ['an over-long request id', action({ requestId: LONG_ID })],
  ['a request id of another type', action({ requestId: 1 as never })],
  ['an unknown action', action({ action: 'delete_order' as never })],
  ['no action', { ...action(), action: undefined }],
  ['an empty operator id', action({ operatorId: '' })],
  ['an over-long operator id', action({ operatorId: LONG_ID })],
  ['no operator id', { ...action(), operatorId: undefined }],
  ['a note of another type', action({ note: ['x'] as never })],
  ['a null note', action({ note: null as never })],
  ['an unreadable instant', action({ at: 'now' })],
  ['no instant', { ...action(), at: undefined }],
  ['reasons not a list', action({ reasons: 'open_too_long' as never })],
  ['null reasons', action({ reasons: null as never })],
  ['an unknown reason listed', action({ reasons: ['open_too_long', 'everything'] as never })],
  ['a reason of another type listed', action({ reasons: [1] as never })],
];

const malformedOutcomes: [string, unknown][] = [
  ['null', null],
  ['undefined', undefined],
  ['a number', 0],
  ['an empty object', {}],
  ['an empty request id', outcome({ requestId: '' })],
  ['an over-long request id', outcome({ requestId: LONG_ID })],
  ['a request id of another type', outcome({ requestId: {} as never })],
  ['an unknown outcome', outcome({ outcome: 'ok' as never })],
  ['no outcome', { ...outcome(), outcome: undefined }],
  ['a detail of another type', outcome({ detail: 5 as never })],
  ['an unreadable instant', outcome({ at: '2026-13-45T99:99:99Z' })],
  ['no instant', { ...outcome(), at: undefined }],
];

describe('malformed messages are dropped with a warning, never thrown on (a throw would fail the workflow task on every replay)', () => {
  test.each(malformedNotices)('a notice: %s', (_name, sent) => {
    const { book, effects } = reviewBook();
    expect(() => book.raise(sent as never)).not.toThrow();
    expect(book.raise(sent as never)).toBe(false);
    expect(book.reasons).toEqual([]);
    expect(book.version).toBe(0);
    expect(effects.kinds()).toEqual(['warn', 'warn']);
    expect(effects.of('warn')[0]).toMatchObject({ message: 'review notice malformed', attributes: { review: input.reviewId } });
  });

  test.each(malformedActions)('an action: %s', (_name, sent) => {
    const { book, effects } = reviewBook();
    book.raise(notice());
    effects.calls.length = 0;
    expect(() => book.act(sent as never)).not.toThrow();
    expect(book.act(sent as never)).toBe(false);
    expect(book.actions).toEqual([]);
    // Nothing acknowledged by it.
    expect(book.open()).toEqual(['open_too_long']);
    expect(book.reasons[0]!.acknowledged).toBeUndefined();
    expect(book.version).toBe(1);
    expect(effects.kinds()).toEqual(['warn', 'warn']);
    expect(effects.of('warn')[0]).toMatchObject({ message: 'operator action malformed' });
  });

  test.each(malformedOutcomes)('an outcome: %s', (_name, sent) => {
    const { book, effects } = reviewBook();
    book.act(action({ action: 'poll' }));
    effects.calls.length = 0;
    expect(() => book.settle(sent as never)).not.toThrow();
    expect(book.settle(sent as never)).toBe(false);
    expect(book.actions[0]!.outcome).toBeUndefined();
    expect(book.version).toBe(1);
    expect(effects.kinds()).toEqual(['warn', 'warn']);
    expect(effects.of('warn')[0]).toMatchObject({ message: 'action outcome malformed' });
  });

  test('the warning shows at most 200 characters of what was sent', () => {
    const { book, effects } = reviewBook();
    book.raise(notice({ reason: 'x'.repeat(100_000) as never }));
    const { attributes } = effects.of('warn')[0] as { attributes: { message: string } };
    expect(attributes.message.length).toBeLessThanOrEqual(200);
  });
});

describe('operator actions', () => {
  test('an action is recorded once per request id; a repeat, even of another action, changes nothing', () => {
    const { book, effects } = reviewBook();
    effects.setNow(START + 5000);
    expect(book.act(action({ action: 'poll', note: 'checking' }))).toBe(true);
    expect(book.actions).toEqual([{ requestId: 'req-1', action: 'poll', operatorId: 'op-1', at: AT, note: 'checking' }]);
    expect(book.changedAtMs).toBe(START + 5000);
    expect(book.version).toBe(1);
    effects.setNow(START + 6000);
    expect(book.act(action({ action: 'cancel', operatorId: 'op-2' }))).toBe(false);
    expect(book.actions).toHaveLength(1);
    expect(book.version).toBe(1);
    expect(book.changedAtMs).toBe(START + 5000);
  });

  test('poll, cancel and resend acknowledge nothing', () => {
    const { book } = reviewBook();
    book.raise(notice());
    book.act(action({ requestId: 'a', action: 'poll' }));
    book.act(action({ requestId: 'b', action: 'cancel' }));
    book.act(action({ requestId: 'c', action: 'resend_webhook', reasons: ['open_too_long'] }));
    expect(book.open()).toEqual(['open_too_long']);
    expect(book.reasons[0]!.acknowledged).toBeUndefined();
  });

  test('an acknowledgement naming no reasons closes every open one', () => {
    const { book } = reviewBook();
    book.raise(notice());
    book.raise(notice({ reason: 'payment_differs', key: 'payment_differs' }));
    expect(book.act(action({ note: 'looked at it' }))).toBe(true);
    const acknowledged = { operatorId: 'op-1', at: AT, requestId: 'req-1', note: 'looked at it' };
    expect(book.reasons.map((r) => r.acknowledged)).toEqual([acknowledged, acknowledged]);
    expect(book.open()).toEqual([]);
  });

  test('an acknowledgement naming reasons closes only those, and the first acknowledgement of a reason stays', () => {
    const { book } = reviewBook();
    book.raise(notice());
    book.raise(notice({ reason: 'webhook_not_delivered', key: 'evt_1' }));
    book.raise(notice({ reason: 'webhook_not_delivered', key: 'evt_2' }));
    expect(book.act(action({ reasons: ['webhook_not_delivered', 'webhook_not_delivered'] }))).toBe(true);
    // The reasons listed are kept once on the audit entry; no note, none recorded.
    expect(book.actions[0]!.reasons).toEqual(['webhook_not_delivered']);
    expect(book.reasons.map((r) => r.acknowledged?.requestId)).toEqual([undefined, 'req-1', 'req-1']);
    expect(book.reasons[1]!.acknowledged).toEqual({ operatorId: 'op-1', at: AT, requestId: 'req-1' });
    expect(book.open()).toEqual(['open_too_long']);

    book.act(action({ requestId: 'req-2', operatorId: 'op-2' }));
    expect(book.reasons.map((r) => r.acknowledged?.requestId)).toEqual(['req-2', 'req-1', 'req-1']);
    expect(book.open()).toEqual([]);
  });

  test('an acknowledgement naming keys closes those occurrences only: one raised after the operator read the review stays open', () => {
    const { book } = reviewBook();
    book.raise(notice({ reason: 'payment_differs', key: 'payment_differs:from_amount=100.01' }));
    // Raised between the operator's read and the acknowledgement's arrival.
    book.raise(notice({ reason: 'payment_differs', key: 'payment_differs:from_amount=1000.00' }));
    expect(book.act(action({ reasons: ['payment_differs'], keys: ['payment_differs:from_amount=100.01'] }))).toBe(true);
    expect(book.reasons.map((r) => r.acknowledged?.requestId)).toEqual(['req-1', undefined]);
    expect(book.open()).toEqual(['payment_differs']);
    // Keys not a list of short texts: the action is dropped.
    for (const keys of ['k', [1], ['x'.repeat(301)], Array.from({ length: REVIEW_REASONS_MAX + 1 }, (_, i) => `k${i}`)]) {
      expect(book.act(action({ requestId: `bad-${String(keys).length}`, keys: keys as string[] }))).toBe(false);
    }
  });

  test('an acknowledgement of an empty list closes nothing, and one before any reason closes nothing raised later', () => {
    const { book } = reviewBook();
    book.act(action({ requestId: 'early' }));
    book.raise(notice());
    expect(book.act(action({ requestId: 'none', reasons: [] }))).toBe(true);
    expect(book.open()).toEqual(['open_too_long']);
  });

  test('a reason raised again (another key) after its acknowledgement is open again', () => {
    const { book, effects } = reviewBook();
    book.raise(notice({ reason: 'webhook_not_delivered', key: 'evt_1' }));
    book.act(action());
    expect(book.open()).toEqual([]);
    effects.calls.length = 0;
    expect(book.raise(notice({ reason: 'webhook_not_delivered', key: 'evt_2' }))).toBe(true);
    expect(book.open()).toEqual(['webhook_not_delivered']);
    expect(needsReview(effects.of('attributes')[0])).toEqual([['NeedsReview', ['webhook_not_delivered']]]);
    // Its first occurrence stays acknowledged.
    expect(book.reasons[0]!.acknowledged?.requestId).toBe('req-1');
  });

  test('a note is cut at REVIEW_TEXT_MAX characters', () => {
    const { book } = reviewBook();
    book.raise(notice());
    book.act(action({ note: 'n'.repeat(REVIEW_TEXT_MAX + 1) }));
    expect(book.actions[0]!.note).toHaveLength(REVIEW_TEXT_MAX);
    expect(book.reasons[0]!.acknowledged!.note).toBe(book.actions[0]!.note);
  });

  test(`actions beyond REVIEW_ACTIONS_MAX (${REVIEW_ACTIONS_MAX}) are refused with a warning, and acknowledge nothing`, () => {
    const { book, effects } = reviewBook();
    for (let i = 0; i < REVIEW_ACTIONS_MAX; i++) expect(book.act(action({ requestId: `r-${i}`, action: 'poll' }))).toBe(true);
    book.raise(notice());
    effects.calls.length = 0;
    expect(book.act(action({ requestId: 'one-too-many' }))).toBe(false);
    expect(book.actions).toHaveLength(REVIEW_ACTIONS_MAX);
    expect(book.open()).toEqual(['open_too_long']);
    expect(effects.kinds()).toEqual(['warn']);
  });
});

describe('outcomes', () => {
  test('the first outcome of an action is kept; later ones are ignored', () => {
    const { book, effects } = reviewBook();
    book.act(action({ action: 'cancel' }));
    effects.setNow(START + 9000);
    expect(book.settle(outcome({ outcome: 'refused', detail: 'the order is processing' }))).toBe(true);
    expect(book.changedAtMs).toBe(START + 9000);
    expect(book.version).toBe(2);
    effects.setNow(START + 10_000);
    expect(book.settle(outcome({ outcome: 'done', at: '2026-11-25T11:00:00.000Z' }))).toBe(false);
    expect(book.actions[0]!.outcome).toEqual({ requestId: 'req-1', outcome: 'refused', detail: 'the order is processing', at: AT });
    expect(book.version).toBe(2);
    expect(book.changedAtMs).toBe(START + 9000);
  });

  test('an outcome of a request never recorded is ignored, with no warning', () => {
    const { book, effects } = reviewBook();
    book.act(action({ action: 'poll' }));
    effects.calls.length = 0;
    expect(book.settle(outcome({ requestId: 'never-asked' }))).toBe(false);
    expect(book.actions[0]!.outcome).toBeUndefined();
    expect(effects.calls).toEqual([]);
  });

  test('an outcome without a detail has none; a long detail is cut', () => {
    const { book } = reviewBook();
    book.act(action({ requestId: 'a', action: 'poll' }));
    book.act(action({ requestId: 'b', action: 'poll' }));
    book.settle(outcome({ requestId: 'a' }));
    book.settle(outcome({ requestId: 'b', outcome: 'failed', detail: 'd'.repeat(REVIEW_TEXT_MAX * 2) }));
    expect(book.actions[0]!.outcome).toEqual({ requestId: 'a', outcome: 'done', at: AT });
    expect(book.actions[1]!.outcome!.detail).toHaveLength(REVIEW_TEXT_MAX);
  });
});

describe('publishing', () => {
  test('the memo and NeedsReview are upserted only when what they show changes; NeedsReview is removed when nothing is open', () => {
    const { book, effects } = reviewBook();
    book.raise(notice());
    expect(effects.kinds()).toEqual(['memo', 'attributes']);

    // An action that closes nothing, and its outcome: the record changed, what is published did not.
    effects.calls.length = 0;
    book.act(action({ requestId: 'p', action: 'poll' }));
    book.settle(outcome({ requestId: 'p' }));
    book.publish();
    expect(effects.calls).toEqual([]);

    book.raise(notice({ reason: 'report_refused', key: 'report_refused' }));
    expect(effects.kinds()).toEqual(['memo', 'attributes']);
    expect(needsReview(effects.of('attributes')[0])).toEqual([['NeedsReview', ['report_refused', 'open_too_long']]]);

    effects.calls.length = 0;
    book.act(action({ requestId: 'ack-1', reasons: ['open_too_long'] }));
    expect((effects.of('memo')[0] as { review: ReviewMemo }).review.open.map((o) => o.reason)).toEqual(['report_refused']);
    expect(needsReview(effects.of('attributes')[0])).toEqual([['NeedsReview', ['report_refused']]]);

    effects.calls.length = 0;
    book.act(action({ requestId: 'ack-2' }));
    expect(effects.kinds()).toEqual(['memo', 'attributes']);
    expect((effects.of('memo')[0] as { review: ReviewMemo }).review).toEqual({
      reviewId: input.reviewId,
      subject: input.subject,
      open: [],
    });
    expect(needsReview(effects.of('attributes')[0])).toEqual([['NeedsReview', null]]);

    // Acknowledging again, with nothing open: nothing to publish.
    effects.calls.length = 0;
    book.act(action({ requestId: 'ack-3' }));
    expect(effects.calls).toEqual([]);
  });

  test('the first change of a review with nothing open publishes it (a review opened by an action), then nothing more', () => {
    const { book, effects } = reviewBook();
    book.act(action({ action: 'poll' }));
    expect(effects.kinds()).toEqual(['memo', 'attributes']);
    expect(needsReview(effects.of('attributes')[0])).toEqual([['NeedsReview', null]]);
    effects.calls.length = 0;
    book.publish();
    book.act(action({ requestId: 'req-2', action: 'poll' }));
    expect(effects.calls).toEqual([]);
  });
});

describe('the record and what is carried', () => {
  test('record() is a copy: changing it changes nothing in the book', () => {
    const { book } = reviewBook();
    book.raise(notice());
    book.act(action({ action: 'poll' }));
    const record = book.record();
    expect(record).toEqual({
      reviewId: input.reviewId,
      subject: input.subject,
      reasons: [notice()],
      actions: [action({ action: 'poll' })],
      open: ['open_too_long'],
    });
    record.reasons[0]!.detail = 'forged';
    record.reasons[0]!.acknowledged = { operatorId: 'x', at: AT, requestId: 'x' };
    record.reasons.push(notice({ key: 'forged' }));
    record.actions[0]!.outcome = outcome();
    record.actions.length = 0;
    record.open.length = 0;
    expect(book.record()).toEqual({
      reviewId: input.reviewId,
      subject: input.subject,
      reasons: [notice()],
      actions: [action({ action: 'poll' })],
      open: ['open_too_long'],
    });
    // The outcome the copy was given is not on the book's entry: the real one still settles.
    expect(book.settle(outcome())).toBe(true);
  });

  test('carry() round-trips (through JSON, as continue-as-new sends it) into a new book that goes on by the same rules', () => {
    const { book, effects } = reviewBook();
    book.raise(notice());
    book.raise(notice({ reason: 'webhook_not_delivered', key: 'evt_1' }));
    book.act(action({ requestId: 'ack', reasons: ['webhook_not_delivered'], note: 'resent by hand' }));
    book.act(action({ requestId: 'poll', action: 'poll' }));
    effects.setNow(START + 60_000);
    book.settle(outcome({ requestId: 'ack' }));

    const carried = JSON.parse(JSON.stringify(book.carry())) as CarriedReview;
    expect(carried.changedAtMs).toBe(START + 60_000);
    const next = reviewBook(carried);
    expect(next.book.record()).toEqual(book.record());
    expect(next.book.changedAtMs).toBe(START + 60_000);
    expect(next.book.open()).toEqual(['open_too_long']);

    // The new run publishes what it carries when asked (its first change would too).
    next.book.publish();
    expect(next.effects.kinds()).toEqual(['memo', 'attributes']);
    expect(needsReview(next.effects.of('attributes')[0])).toEqual([['NeedsReview', ['open_too_long']]]);

    // Keys and request ids carried still dedupe; the unsettled action still settles, once.
    expect(next.book.raise(notice({ reason: 'webhook_not_delivered', key: 'evt_1' }))).toBe(false);
    expect(next.book.act(action({ requestId: 'poll', action: 'cancel' }))).toBe(false);
    expect(next.book.settle(outcome({ requestId: 'ack', outcome: 'failed' }))).toBe(false);
    expect(next.book.settle(outcome({ requestId: 'poll', outcome: 'failed' }))).toBe(true);
    expect(next.book.actions[1]!.outcome?.outcome).toBe('failed');
  });

  test('a book starts changed at its clock, with nothing published', () => {
    const { book, effects } = reviewBook();
    expect(book.changedAtMs).toBe(START);
    expect(book.version).toBe(0);
    expect(book.open()).toEqual([]);
    expect(effects.calls).toEqual([]);
  });

  test('every reason of the contract can be raised', () => {
    const { book } = reviewBook();
    for (const reason of QUEUE_REASONS) expect(book.raise(notice({ reason, key: reason }))).toBe(true);
    expect(book.open()).toEqual([...QUEUE_REASONS]);
  });
});
