import fc from 'fast-check';
import {
  allowedNextSellStatuses,
  AWAITING_DEPOSIT,
  canSellTransition,
  isSellOrderStatus,
  isSellSettled,
  isSellTerminal,
  SELL_ORDER_STATUSES,
  type SellOrderStatus,
} from '../../../src/domain/sell-order-status';

/**
 * The expected transition table, written out from the rules (docs/decisions.md, "Off-ramp"), not
 * copied from the source:
 *  - the happy path is created -> waiting_for_deposit -> deposit_received -> processing -> complete,
 *    and a report may skip steps (a deposit reported late), never go back;
 *  - `expired` (no deposit in the window) is reachable only before the deposit; it may be revived by
 *    a late deposit (to `deposit_received`, `processing` or `complete`) or end `refunded`, never
 *    `failed` and never back to waiting;
 *  - `failed` may still become `refunded`, and nothing else;
 *  - `refunded` (the crypto returned) may follow any open status, `failed` and `expired`, never
 *    `complete`;
 *  - `complete` and `refunded` are terminal; no self-transitions.
 * Rows are `from`, columns are `to`, in SELL_ORDER_STATUSES order. 1 = allowed, 0 = refused.
 */
const COLUMNS = ['created', 'waiting_for_deposit', 'deposit_received', 'processing', 'complete', 'failed', 'expired', 'refunded'] as const;
const EXPECTED: Record<SellOrderStatus, readonly (0 | 1)[]> = {
  //                  created waiting deposit processing complete failed expired refunded
  created: [0, 1, 1, 1, 1, 1, 1, 1],
  waiting_for_deposit: [0, 0, 1, 1, 1, 1, 1, 1],
  deposit_received: [0, 0, 0, 1, 1, 1, 0, 1],
  processing: [0, 0, 0, 0, 1, 1, 0, 1],
  complete: [0, 0, 0, 0, 0, 0, 0, 0],
  failed: [0, 0, 0, 0, 0, 0, 0, 1],
  expired: [0, 0, 1, 1, 1, 0, 0, 1],
  refunded: [0, 0, 0, 0, 0, 0, 0, 0],
};

const PAIRS: [SellOrderStatus, SellOrderStatus, boolean][] = SELL_ORDER_STATUSES.flatMap((from) =>
  SELL_ORDER_STATUSES.map((to): [SellOrderStatus, SellOrderStatus, boolean] => [from, to, EXPECTED[from][COLUMNS.indexOf(to)] === 1]),
);

const HAPPY_PATH: readonly SellOrderStatus[] = ['created', 'waiting_for_deposit', 'deposit_received', 'processing', 'complete'];
const SETTLED: readonly SellOrderStatus[] = ['complete', 'failed', 'expired', 'refunded'];

/** Every status reachable from `from` in one or more allowed moves (not `from` itself unless a cycle leads back). */
function reachable(from: SellOrderStatus): Set<SellOrderStatus> {
  const seen = new Set<SellOrderStatus>();
  const queue = [...allowedNextSellStatuses(from)];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...allowedNextSellStatuses(next));
  }
  return seen;
}

const status = fc.constantFrom(...SELL_ORDER_STATUSES);

describe('SELL_ORDER_STATUSES', () => {
  test('is exactly the eight statuses of the design, in order', () => {
    expect([...SELL_ORDER_STATUSES]).toEqual([...COLUMNS]);
  });

  test('the expected table covers all 64 ordered pairs, 25 of them allowed', () => {
    expect(PAIRS).toHaveLength(64);
    expect(PAIRS.filter(([, , allowed]) => allowed)).toHaveLength(25);
  });
});

describe('canSellTransition', () => {
  test.each(PAIRS)('%s -> %s allowed: %s', (from, to, allowed) => {
    expect(canSellTransition(from, to)).toBe(allowed);
  });

  test.each([...SELL_ORDER_STATUSES])('no self-transition for %s', (s) => {
    expect(canSellTransition(s, s)).toBe(false);
  });

  test.each(SETTLED)('nothing leads from %s back to created or waiting_for_deposit, in any number of moves', (from) => {
    const after = reachable(from);
    expect(after.has('created')).toBe(false);
    expect(after.has('waiting_for_deposit')).toBe(false);
  });

  test('nothing ever moves to created', () => {
    for (const from of SELL_ORDER_STATUSES) expect(canSellTransition(from, 'created')).toBe(false);
  });

  test('only an order not yet past its deposit window may expire', () => {
    const toExpired = SELL_ORDER_STATUSES.filter((from) => canSellTransition(from, 'expired'));
    expect(toExpired).toEqual([...AWAITING_DEPOSIT]);
  });

  test('complete is never refunded, nor refunded completed', () => {
    expect(canSellTransition('complete', 'refunded')).toBe(false);
    expect(canSellTransition('refunded', 'complete')).toBe(false);
  });
});

describe('reachability', () => {
  test('property: from a status on the happy path, no status earlier on it is reachable', () => {
    fc.assert(
      fc.property(status, (from) => {
        const rank = HAPPY_PATH.indexOf(from);
        const after = reachable(from);
        if (rank >= 0) for (const earlier of HAPPY_PATH.slice(0, rank + 1)) expect(after.has(earlier)).toBe(false);
      }),
    );
  });

  test('property: off the happy path, only expired leads back onto it, and only past the deposit', () => {
    fc.assert(
      fc.property(status, (from) => {
        if (HAPPY_PATH.includes(from)) return;
        const backOnPath = [...reachable(from)].filter((s) => HAPPY_PATH.includes(s));
        expect(backOnPath).toEqual(from === 'expired' ? ['deposit_received', 'processing', 'complete'] : []);
      }),
    );
  });

  test('property: any walk of allowed moves is at most five moves long and ends in a terminal status', () => {
    fc.assert(
      fc.property(status, fc.array(fc.nat(), { maxLength: 20 }), (start, choices) => {
        let current = start;
        let moves = 0;
        for (const choice of choices) {
          const next = allowedNextSellStatuses(current);
          if (next.length === 0) break;
          current = next[choice % next.length]!;
          moves++;
        }
        // The longest walk: created -> waiting_for_deposit -> expired -> deposit_received -> processing -> complete.
        expect(moves).toBeLessThanOrEqual(5);
        if (moves < choices.length) expect(isSellTerminal(current)).toBe(true);
      }),
    );
  });

  test('the graph has no cycle: no status is reachable from itself, the revival of expired included', () => {
    for (const from of SELL_ORDER_STATUSES) expect(reachable(from).has(from)).toBe(false);
  });

  test('a terminal status is reachable from every status but the terminal ones', () => {
    for (const from of SELL_ORDER_STATUSES) {
      const after = reachable(from);
      expect(after.has('complete') || after.has('refunded')).toBe(!isSellTerminal(from));
    }
  });
});

describe('allowedNextSellStatuses', () => {
  test.each([...SELL_ORDER_STATUSES])('lists exactly the allowed moves from %s', (from) => {
    const expected = COLUMNS.filter((_, i) => EXPECTED[from][i] === 1);
    expect([...allowedNextSellStatuses(from)].sort()).toEqual([...expected].sort());
  });

  test('agrees with canSellTransition for every pair', () => {
    for (const from of SELL_ORDER_STATUSES) {
      for (const to of SELL_ORDER_STATUSES) {
        expect(allowedNextSellStatuses(from).includes(to)).toBe(canSellTransition(from, to));
      }
    }
  });

  test('returns only known statuses, without duplicates', () => {
    for (const from of SELL_ORDER_STATUSES) {
      const next = allowedNextSellStatuses(from);
      expect(new Set(next).size).toBe(next.length);
      for (const to of next) expect(isSellOrderStatus(to)).toBe(true);
    }
  });
});

describe('isSellTerminal', () => {
  test.each<[SellOrderStatus, boolean]>([
    ['created', false],
    ['waiting_for_deposit', false],
    ['deposit_received', false],
    ['processing', false],
    ['complete', true],
    ['failed', false],
    ['expired', false],
    ['refunded', true],
  ])('%s -> %s', (s, terminal) => {
    expect(isSellTerminal(s)).toBe(terminal);
  });
});

describe('isSellSettled', () => {
  test.each<[SellOrderStatus, boolean]>([
    ['created', false],
    ['waiting_for_deposit', false],
    ['deposit_received', false],
    ['processing', false],
    ['complete', true],
    ['failed', true],
    ['expired', true],
    ['refunded', true],
  ])('%s -> %s', (s, settled) => {
    expect(isSellSettled(s)).toBe(settled);
  });

  test('every terminal status is settled', () => {
    for (const s of SELL_ORDER_STATUSES) if (isSellTerminal(s)) expect(isSellSettled(s)).toBe(true);
  });

  test('a settled status that is not terminal leads only to refunded or, for expired, to a late deposit', () => {
    for (const s of SELL_ORDER_STATUSES.filter((x) => isSellSettled(x) && !isSellTerminal(x))) {
      const allowed = [...allowedNextSellStatuses(s)].sort();
      expect(allowed).toEqual(s === 'expired' ? ['complete', 'deposit_received', 'processing', 'refunded'] : ['refunded']);
    }
  });
});

describe('AWAITING_DEPOSIT', () => {
  test('is created and waiting_for_deposit: the statuses before the crypto reached the provider', () => {
    expect([...AWAITING_DEPOSIT]).toEqual(['created', 'waiting_for_deposit']);
  });

  test('none of them is settled, and each may still receive the deposit', () => {
    for (const s of AWAITING_DEPOSIT) {
      expect(isSellSettled(s)).toBe(false);
      expect(canSellTransition(s, 'deposit_received')).toBe(true);
    }
  });
});

describe('isSellOrderStatus', () => {
  test.each([...SELL_ORDER_STATUSES])('accepts %s', (s) => {
    expect(isSellOrderStatus(s)).toBe(true);
  });

  test.each<unknown>([
    '',
    'Complete',
    'COMPLETE',
    ' complete',
    'complete ',
    'waiting',
    'pending',
    'hold',
    'waiting-for-deposit',
    'waitingForDeposit',
    'deposit received',
    'cancelled',
    0,
    1,
    null,
    undefined,
    {},
    ['complete'],
    true,
  ])('refuses %p', (value) => {
    expect(isSellOrderStatus(value)).toBe(false);
  });

  test('property: any other string is refused', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(isSellOrderStatus(value)).toBe((SELL_ORDER_STATUSES as readonly string[]).includes(value));
      }),
    );
  });
});
