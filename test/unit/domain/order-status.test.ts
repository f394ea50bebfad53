import {
  allowedNextStatuses,
  canTransition,
  isOrderStatus,
  isSettled,
  isTerminal,
  ORDER_STATUSES,
  type OrderStatus,
} from '../../../src/domain/order-status';

/**
 * The expected transition table, written out from docs/decisions.md ("Order statuses"):
 *  - forward moves only: created -> pending <-> hold -> processing -> an outcome;
 *  - `hold` may return to `pending` or go on to `processing`;
 *  - `failed` may still become `refunded` (and nothing else);
 *  - `expired` may be revived only to `processing` or `complete`; since `expired` can come before
 *    `processing`, a late `expired` after `processing` is a move back and is refused;
 *  - `refunded` means money was returned, so a payment was taken: any open status may become
 *    `refunded` (a lost `processing` event, a payment held for verification and returned), and
 *    `failed` may too; `complete` and `expired` may not;
 *  - `complete` and `refunded` are terminal; no self-transitions.
 * Rows are `from`, columns are `to`, in ORDER_STATUSES order. 1 = allowed, 0 = refused.
 */
const COLUMNS = ['created', 'pending', 'hold', 'processing', 'complete', 'failed', 'expired', 'refunded'] as const;
const EXPECTED: Record<OrderStatus, readonly (0 | 1)[]> = {
  //           created pending hold processing complete failed expired refunded
  created: [0, 1, 1, 1, 1, 1, 1, 1],
  pending: [0, 0, 1, 1, 1, 1, 1, 1],
  hold: [0, 1, 0, 1, 1, 1, 1, 1],
  processing: [0, 0, 0, 0, 1, 1, 0, 1],
  complete: [0, 0, 0, 0, 0, 0, 0, 0],
  failed: [0, 0, 0, 0, 0, 0, 0, 1],
  expired: [0, 0, 0, 1, 1, 0, 0, 0],
  refunded: [0, 0, 0, 0, 0, 0, 0, 0],
};

const PAIRS: [OrderStatus, OrderStatus, boolean][] = ORDER_STATUSES.flatMap((from) =>
  ORDER_STATUSES.map((to): [OrderStatus, OrderStatus, boolean] => [from, to, EXPECTED[from][COLUMNS.indexOf(to)] === 1]),
);

describe('ORDER_STATUSES', () => {
  test('is exactly the eight statuses of the design, in order', () => {
    expect([...ORDER_STATUSES]).toEqual([...COLUMNS]);
  });

  test('the expected table covers all 64 ordered pairs', () => {
    expect(PAIRS).toHaveLength(64);
    expect(PAIRS.filter(([, , allowed]) => allowed)).toHaveLength(25);
  });
});

describe('canTransition', () => {
  test.each(PAIRS)('%s -> %s allowed: %s', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });

  test.each([...ORDER_STATUSES])('no self-transition for %s', (status) => {
    expect(canTransition(status, status)).toBe(false);
  });

  test.each(['processing', 'complete', 'failed', 'expired', 'refunded'] as const)(
    'nothing moves back to created or pending from %s',
    (from) => {
      expect(canTransition(from, 'created')).toBe(false);
      expect(canTransition(from, 'pending')).toBe(false);
    },
  );
});

describe('allowedNextStatuses', () => {
  test.each([...ORDER_STATUSES])('lists exactly the allowed moves from %s', (from) => {
    const expected = COLUMNS.filter((_, i) => EXPECTED[from][i] === 1);
    expect([...allowedNextStatuses(from)].sort()).toEqual([...expected].sort());
  });

  test('agrees with canTransition for every pair', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        expect(allowedNextStatuses(from).includes(to)).toBe(canTransition(from, to));
      }
    }
  });

  test('returns only known statuses, without duplicates', () => {
    for (const from of ORDER_STATUSES) {
      const next = allowedNextStatuses(from);
      expect(new Set(next).size).toBe(next.length);
      for (const to of next) expect(isOrderStatus(to)).toBe(true);
    }
  });
});

describe('isTerminal', () => {
  test.each<[OrderStatus, boolean]>([
    ['created', false],
    ['pending', false],
    ['hold', false],
    ['processing', false],
    ['complete', true],
    ['failed', false],
    ['expired', false],
    ['refunded', true],
  ])('%s -> %s', (status, terminal) => {
    expect(isTerminal(status)).toBe(terminal);
  });
});

describe('isSettled', () => {
  test.each<[OrderStatus, boolean]>([
    ['created', false],
    ['pending', false],
    ['hold', false],
    ['processing', false],
    ['complete', true],
    ['failed', true],
    ['expired', true],
    ['refunded', true],
  ])('%s -> %s', (status, settled) => {
    expect(isSettled(status)).toBe(settled);
  });

  test('every terminal status is settled', () => {
    for (const status of ORDER_STATUSES) {
      if (isTerminal(status)) expect(isSettled(status)).toBe(true);
    }
  });
});

describe('isOrderStatus', () => {
  test.each([...ORDER_STATUSES])('accepts %s', (status) => {
    expect(isOrderStatus(status)).toBe(true);
  });

  test.each<unknown>([
    '',
    'Complete',
    'COMPLETE',
    ' complete',
    'completed',
    'cancelled',
    'waiting',
    0,
    1,
    null,
    undefined,
    {},
    ['complete'],
    true,
  ])('refuses %p', (value) => {
    expect(isOrderStatus(value)).toBe(false);
  });
});
