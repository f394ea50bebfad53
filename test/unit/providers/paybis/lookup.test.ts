import { lookupWindowStart } from '../../../../src/providers/paybis';
import { requestTransaction } from '../../../../src/providers/paybis/lookup';
import type { PaybisTransaction } from '../../../../src/providers/paybis/schemas';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';

/** A listed transaction, unpaid as the list says it (`paidAt: null`) unless given a payment time. */
const tx = (id: string, status: string, createdAt: string, paidAt: string | null = null): PaybisTransaction => ({
  id,
  status,
  request: { id: 'req-1' },
  createdAt,
  paidAt,
});

describe('requestTransaction', () => {
  test('a cancelled first attempt, then a paid one: the paid one, whichever the list names first', () => {
    const cancelled = tx('t1', 'cancelled', '2025-01-01T10:00:00Z');
    const paid = tx('t2', 'completed', '2025-01-01T10:20:00Z');
    expect(requestTransaction([cancelled, paid])?.id).toBe('t2');
    expect(requestTransaction([paid, cancelled])?.id).toBe('t2');
  });

  test('a live transaction is preferred to a newer one that ended unpaid', () => {
    const started = tx('t1', 'started', '2025-01-01T10:00:00Z');
    const declined = tx('t2', 'payment_error', '2025-01-01T10:05:00Z');
    expect(requestTransaction([started, declined])?.id).toBe('t1');
  });

  test('a transaction started later in the same request never displaces one that took money', () => {
    const started = tx('t9', 'started', '2025-01-01T11:00:00Z');
    for (const status of ['completed', 'paid', 'payment-authorized', 'confirming', 'rejected']) {
      expect(requestTransaction([tx('t1', status, '2025-01-01T10:00:00Z', '2025-01-01T10:01:00Z'), started])?.id).toBe('t1');
    }
    // Complete beats paid, paid beats rejected, whichever is newer.
    expect(requestTransaction([tx('t1', 'completed', '2025-01-01T10:00:00Z'), tx('t2', 'paid', '2025-01-01T10:30:00Z')])?.id).toBe('t1');
    expect(
      requestTransaction([tx('t1', 'paid', '2025-01-01T10:00:00Z'), tx('t2', 'rejected', '2025-01-01T10:30:00Z', '2025-01-01T10:31:00Z')])
        ?.id,
    ).toBe('t1');
  });

  test('a rejected transaction the list shows no payment for is an unpaid end: a live or paid attempt wins', () => {
    const rejected = tx('t1', 'rejected', '2025-01-01T10:00:00Z');
    expect(requestTransaction([rejected, tx('t2', 'started', '2025-01-01T10:10:00Z')])?.id).toBe('t2');
    expect(requestTransaction([rejected, tx('t2', 'completed', '2025-01-01T10:10:00Z')])?.id).toBe('t2');
    // Beside another unpaid end, the newer one.
    expect(requestTransaction([rejected, tx('t2', 'cancelled', '2025-01-01T10:10:00Z')])?.id).toBe('t2');
    // The crypto sent (a hash) shows the payment too.
    expect(requestTransaction([{ ...rejected, hash: '0xabc' }, tx('t2', 'started', '2025-01-01T10:10:00Z')])?.id).toBe('t1');
    // A list without paidAt says nothing of the payment: the rejection counts as after it.
    const { paidAt: _unsaid, ...withoutPaidAt } = rejected;
    expect(requestTransaction([withoutPaidAt, tx('t2', 'started', '2025-01-01T10:10:00Z')])?.id).toBe('t1');
  });

  test('as far as each other: the newest; equal times: the later in the list; none: undefined', () => {
    expect(requestTransaction([tx('t1', 'cancelled', '2025-01-01T10:00:00Z'), tx('t2', 'payment-error', '2025-01-01T09:00:00Z')])?.id).toBe(
      't1',
    );
    expect(requestTransaction([tx('t1', 'started', '2025-01-01T10:00:00Z'), tx('t2', 'created', '2025-01-01T10:10:00Z')])?.id).toBe('t2');
    expect(requestTransaction([tx('t1', 'completed', 'x'), tx('t2', 'completed', 'x')])?.id).toBe('t2');
    expect(requestTransaction([])).toBeUndefined();
  });

  test('a status Paybis does not document fails the lookup unless another transaction was paid', () => {
    // Beside a started or abandoned attempt, the unknown one might have gone furthest: not ranked.
    expect(() => requestTransaction([tx('t1', 'started', '2025-01-01T10:00:00Z'), tx('t2', 'brand-new', 'x')])).toThrow(
      UnknownProviderStatusError,
    );
    expect(() => requestTransaction([tx('t1', 'cancelled', '2025-01-01T10:00:00Z'), tx('t2', 'brand-new', 'x')])).toThrow(
      UnknownProviderStatusError,
    );
    // Beside a completed one, an odd status of another attempt does not hide the payment.
    expect(requestTransaction([tx('t1', 'completed', '2025-01-01T10:00:00Z'), tx('t2', 'brand-new', 'x')])?.id).toBe('t1');
  });
});

describe('lookupWindowStart', () => {
  const now = Date.parse('2025-01-10T00:00:00Z');

  test("from the order's creation, less the ten minutes of provider clock skew the order allows", () => {
    expect(new Date(lookupWindowStart(now, { orderCreatedAt: '2025-01-09T12:00:00.000Z' })).toISOString()).toBe('2025-01-09T11:50:00.000Z');
  });

  test('without a creation time (an order of an older release), or an unreadable one: the last 7 days', () => {
    expect(new Date(lookupWindowStart(now)).toISOString()).toBe('2025-01-03T00:00:00.000Z');
    expect(new Date(lookupWindowStart(now, {})).toISOString()).toBe('2025-01-03T00:00:00.000Z');
    expect(new Date(lookupWindowStart(now, { orderCreatedAt: 'yesterday' })).toISOString()).toBe('2025-01-03T00:00:00.000Z');
  });
});
