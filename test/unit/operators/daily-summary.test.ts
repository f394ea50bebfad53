import { currencyDictionary } from '../../../src/domain/currencies';
import { SummaryRecordError } from '../../../src/domain/daily-summary';
import type { OrderStatus } from '../../../src/domain/order-status';
import {
  DailySummaries,
  DayNotSummarizableError,
  SummariesBusyError,
  SummaryTimeoutError,
  SummaryTooLargeError,
  type DailySummariesOptions,
  type DailySummaryLimits,
} from '../../../src/operators/daily-summary';
import { UndecodableRecordError, type OrderRecord, type OrderRecordPage, type OrderSearchPosition } from '../../../src/orders/search';

const DAY = '2026-11-29';
const FROM = Date.UTC(2026, 10, 29);
const TO = FROM + 86_400_000;
const SETTLE = 90_000;
/** Just after the day's summary may be asked for. */
const AFTER = TO + SETTLE;
const RETENTION = 30 * 86_400_000;
const LIMITS: DailySummaryLimits = { maxOrders: 100, maxDurationMs: 60_000, settleMs: SETTLE, pageSize: 2, concurrency: 1 };
const USD = 1;
const BTC = 13;

let ids = 0;

function record(providerCode: string, integratorId: string, status: OrderStatus = 'complete', amount = '10.00'): OrderRecord {
  const id = `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;
  return {
    integratorId,
    providerCode,
    requestHash: 'h',
    sequence: 1,
    requestedAt: new Date(FROM + ids * 1000).toISOString(),
    quote: { total_fee_amount: '1.00' },
    order: {
      id,
      status,
      redirect_url: 'https://example.test/pay',
      from_currency: USD,
      from_amount: amount,
      to_currency: BTC,
      to_amount: '0.0001',
      wallet_address: 'w',
      payment_method: 'card',
      country_code: 'GB',
      external_user_id: 'u',
      external_order_id: id,
      created_at: new Date(FROM + ids * 1000).toISOString(),
      updated_at: new Date(FROM + ids * 1000).toISOString(),
      extras: {},
    },
  };
}

interface Call {
  providerCode: string;
  window: { requestedFromMs?: number; requestedBeforeMs?: number };
  limit: number;
  after?: OrderSearchPosition;
  spanHintMs?: number;
}

/** Each provider's records, served `limit` a page, with a position and a span as OrderSearch gives them. */
function fakeRecords(byProvider: Record<string, OrderRecord[]>, before?: (call: Call) => Promise<void> | void) {
  const calls: Call[] = [];
  return {
    calls,
    async providerRecordsPage(
      providerCode: string,
      window: Call['window'],
      limit: number,
      after: OrderSearchPosition | undefined,
      spanHintMs?: number,
    ): Promise<OrderRecordPage> {
      const call = { providerCode, window, limit, ...(after ? { after } : {}), ...(spanHintMs === undefined ? {} : { spanHintMs }) };
      calls.push(call);
      await before?.(call);
      const all = byProvider[providerCode] ?? [];
      const start = after ? Number(after.id) : 0;
      const records = all.slice(start, start + limit);
      const next = start + limit < all.length ? { requestedAt: records.at(-1)!.requestedAt, id: String(start + limit) } : undefined;
      return { records, ...(next ? { next } : {}), spanMs: 1000 * (start + 1) };
    },
  };
}

function service(records: DailySummariesOptions['records'], overrides: Partial<DailySummariesOptions> = {}) {
  return new DailySummaries({
    records,
    providerCodes: ['moonpay', 'sandbox', 'transak'],
    retentionMs: () => Promise.resolve(RETENTION),
    currencies: currencyDictionary,
    limits: LIMITS,
    now: () => AFTER,
    ...overrides,
  });
}

const never = () => new AbortController().signal;

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('not refused');
}

describe('the walk', () => {
  test("every provider's records of the day, page after page, counted per integrator, provider and fiat currency", async () => {
    const source = fakeRecords({
      sandbox: [record('sandbox', 'a'), record('sandbox', 'b', 'failed'), record('sandbox', 'a', 'complete', '5.50')],
      transak: [record('transak', 'a', 'created')],
    });
    const summary = await service(source).summarize({ date: DAY }, never());
    expect(summary).toMatchObject({
      date: DAY,
      fromMs: FROM,
      toMs: TO,
      generatedAtMs: AFTER,
      providerCodes: ['moonpay', 'sandbox', 'transak'],
    });
    expect(summary.rows.map((r) => [r.integratorId, r.providerCode, r.orders, r.completed, r.completedVolume, r.quotedFees])).toEqual([
      ['a', 'sandbox', 2, 2, '15.50', '2.00'],
      ['a', 'transak', 1, 0, '0.00', '0.00'],
      ['b', 'sandbox', 1, 0, '0.00', '0.00'],
    ]);
    expect(summary.totals).toEqual([
      expect.objectContaining({ fiatCurrency: USD, orders: 4, completed: 2, failed: 1, open: 1, completedVolume: '15.50' }),
    ]);
    // Each provider from its first page; the next page from the position and span the one before gave.
    expect(source.calls).toEqual([
      { providerCode: 'moonpay', window: { requestedFromMs: FROM, requestedBeforeMs: TO }, limit: 2 },
      { providerCode: 'sandbox', window: { requestedFromMs: FROM, requestedBeforeMs: TO }, limit: 2 },
      {
        providerCode: 'sandbox',
        window: { requestedFromMs: FROM, requestedBeforeMs: TO },
        limit: 2,
        after: expect.objectContaining({ id: '2' }),
        spanHintMs: 1000,
      },
      { providerCode: 'transak', window: { requestedFromMs: FROM, requestedBeforeMs: TO }, limit: 2 },
    ]);
  });

  test('one integrator: its rows only, though every record of the providers is read', async () => {
    const source = fakeRecords({ sandbox: [record('sandbox', 'a'), record('sandbox', 'b'), record('sandbox', 'a')] });
    const summary = await service(source).summarize({ date: DAY, integratorId: 'b' }, never());
    expect(summary.rows.map((r) => [r.integratorId, r.orders])).toEqual([['b', 1]]);
    expect(summary.totals[0]!.orders).toBe(1);
  });

  test('one provider: only its records are read, whether or not it is among the known ones', async () => {
    const source = fakeRecords({ sandbox: [record('sandbox', 'a')], retired: [record('retired', 'a')] });
    const summary = await service(source).summarize({ date: DAY, providerCode: 'retired' }, never());
    expect(summary.providerCodes).toEqual(['retired']);
    expect(summary.rows.map((r) => r.providerCode)).toEqual(['retired']);
    expect(source.calls.map((c) => c.providerCode)).toEqual(['retired']);
  });

  test('a day without orders: no rows, no totals', async () => {
    const summary = await service(fakeRecords({})).summarize({ date: DAY }, never());
    expect([summary.rows, summary.totals]).toEqual([[], []]);
  });
});

describe('which days', () => {
  test('a day is summarized once it ended settleMs ago, not a millisecond before', async () => {
    await expect(service(fakeRecords({}), { now: () => AFTER }).summarize({ date: DAY }, never())).resolves.toBeDefined();
    const err = await refusal(service(fakeRecords({}), { now: () => AFTER - 1 }).summarize({ date: DAY }, never()));
    expect(err).toBeInstanceOf(DayNotSummarizableError);
    expect(err).toMatchObject({ reason: 'not_ended', message: expect.stringContaining(new Date(AFTER).toISOString()) });
  });

  test('today, and days to come, are refused before anything is read', async () => {
    const source = fakeRecords({});
    for (const date of ['2026-11-30', '2026-12-25']) {
      expect(await refusal(service(source, { now: () => Date.UTC(2026, 10, 30, 12) }).summarize({ date }, never()))).toMatchObject({
        reason: 'not_ended',
      });
    }
    expect(source.calls).toEqual([]);
  });

  test("a day whose orders the namespace's retention may have deleted is refused: retention from the day's start", async () => {
    const lastMs = FROM + RETENTION - 1;
    await expect(service(fakeRecords({}), { now: () => lastMs }).summarize({ date: DAY }, never())).resolves.toBeDefined();
    const source = fakeRecords({});
    const err = await refusal(service(source, { now: () => lastMs + 1 }).summarize({ date: DAY }, never()));
    expect(err).toMatchObject({ reason: 'past_retention', message: expect.stringContaining('30 day(s)') });
    expect(source.calls).toEqual([]);
  });

  test('a retention of a day leaves no day to summarize whole', async () => {
    const err = await refusal(
      service(fakeRecords({}), { retentionMs: () => Promise.resolve(86_400_000) }).summarize({ date: DAY }, never()),
    );
    expect(err).toMatchObject({ reason: 'past_retention' });
  });

  test('Temporal out of reach for the retention: the error as it came, nothing read', async () => {
    const source = fakeRecords({});
    const down = new Error('unreachable');
    expect(await refusal(service(source, { retentionMs: () => Promise.reject(down) }).summarize({ date: DAY }, never()))).toBe(down);
    expect(source.calls).toEqual([]);
  });

  test.each(['2026-02-30', '29-11-2026', 'yesterday'])('%s is not a date', async (date) => {
    expect(await refusal(service(fakeRecords({})).summarize({ date }, never()))).toMatchObject({ reason: 'not_a_date' });
  });
});

describe('bounds', () => {
  test('more orders than maxOrders (of every integrator, whatever the filter) fail the summary', async () => {
    const many = Array.from({ length: 5 }, () => record('sandbox', 'a'));
    const limits = { ...LIMITS, maxOrders: 4 };
    const err = await refusal(
      service(fakeRecords({ sandbox: many }), { limits }).summarize({ date: DAY, integratorId: 'nobody' }, never()),
    );
    expect(err).toBeInstanceOf(SummaryTooLargeError);
    expect((err as Error).message).toContain('more than 4 orders');
    await expect(service(fakeRecords({ sandbox: many.slice(0, 4) }), { limits }).summarize({ date: DAY }, never())).resolves.toBeDefined();
  });

  test('past maxDurationMs, the summary fails at the next page', async () => {
    const slow = fakeRecords(
      { sandbox: Array.from({ length: 6 }, () => record('sandbox', 'a')) },
      () => new Promise((r) => setTimeout(r, 30)),
    );
    const err = await refusal(service(slow, { limits: { ...LIMITS, maxDurationMs: 50 } }).summarize({ date: DAY }, never()));
    expect(err).toBeInstanceOf(SummaryTimeoutError);
    expect(slow.calls.length).toBeLessThan(4);
  });

  test('the caller gone: the walk stops with its reason', async () => {
    const gone = new AbortController();
    const source = fakeRecords({ sandbox: Array.from({ length: 6 }, () => record('sandbox', 'a')) }, (call) => {
      if (call.after) gone.abort(new Error('client gone'));
    });
    const err = await refusal(service(source).summarize({ date: DAY }, gone.signal));
    expect(err).toMatchObject({ message: 'client gone' });
    expect(source.calls).toHaveLength(3);
  });

  test('one summary at a time here: another is refused while it reads, and the place is given back however it ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const source = fakeRecords({ sandbox: [record('sandbox', 'a')] }, () => held);
    const summaries = service(source);
    const first = summaries.summarize({ date: DAY }, never());
    await new Promise((r) => setImmediate(r));
    expect(await refusal(summaries.summarize({ date: DAY }, never()))).toBeInstanceOf(SummariesBusyError);
    release();
    await first;
    const failing = service(
      fakeRecords({}, () => {
        throw new Error('boom');
      }),
    );
    expect(await refusal(failing.summarize({ date: DAY }, never()))).toMatchObject({ message: 'boom' });
    expect(await refusal(failing.summarize({ date: DAY }, never()))).toMatchObject({ message: 'boom' });
  });
});

describe('strict', () => {
  test('a record that cannot be decoded fails the summary', async () => {
    const source = fakeRecords({}, (call) => {
      if (call.providerCode === 'sandbox') throw new UndecodableRecordError('order-x');
    });
    expect(await refusal(service(source).summarize({ date: DAY }, never()))).toBeInstanceOf(UndecodableRecordError);
  });

  test('a record that cannot be counted fails the summary', async () => {
    const bad = record('sandbox', 'a', 'complete', '1e3');
    const err = await refusal(service(fakeRecords({ sandbox: [record('sandbox', 'a'), bad] })).summarize({ date: DAY }, never()));
    expect(err).toBeInstanceOf(SummaryRecordError);
    expect(err).toMatchObject({ orderId: bad.order.id, field: 'from_amount' });
  });
});
