import { requestTransaction } from '../../../../src/providers/paybis/lookup';
import type { PaybisTransaction } from '../../../../src/providers/paybis/schemas';

const tx = (id: string, status: string, createdAt: string): PaybisTransaction => ({
  id,
  status,
  request: { id: 'req-1' },
  createdAt,
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

  test('only unpaid ends: the newest; equal times: the later in the list; none: undefined', () => {
    expect(requestTransaction([tx('t1', 'cancelled', '2025-01-01T10:00:00Z'), tx('t2', 'payment-error', '2025-01-01T09:00:00Z')])?.id).toBe(
      't1',
    );
    expect(requestTransaction([tx('t1', 'completed', 'x'), tx('t2', 'rejected', 'x')])?.id).toBe('t2');
    expect(requestTransaction([])).toBeUndefined();
  });
});
