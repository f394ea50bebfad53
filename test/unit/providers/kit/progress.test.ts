import { ORDER_STATUSES } from '../../../../src/domain/order-status';
import { furthestTransaction, progressOf, PROGRESS, type Progress } from '../../../../src/providers/kit/progress';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';

/** Every sequence of `length` progress values. */
function sequences(length: number): Progress[][] {
  if (length === 0) return [[]];
  return sequences(length - 1).flatMap((rest) => PROGRESS.map((p) => [...rest, p]));
}

/** Every sequence of up to four transactions, oldest first: 781 of them. */
const ALL = [0, 1, 2, 3, 4].flatMap(sequences);

const indexOfChoice = (txs: Progress[], liveTies: 'oldest' | 'newest') => {
  const indexed = txs.map((progress, index) => ({ progress, index }));
  const chosen = furthestTransaction(indexed, (t) => t.progress, liveTies);
  return chosen?.index;
};

describe('furthestTransaction', () => {
  test('no transaction: none', () => {
    expect(furthestTransaction([], () => 'complete', 'newest')).toBeUndefined();
  });

  test.each(['oldest', 'newest'] as const)('every sequence of up to four (live ties: %s): the furthest, ties as documented', (liveTies) => {
    for (const txs of ALL.filter((s) => s.length > 0)) {
      const index = indexOfChoice(txs, liveTies)!;
      const chosen = txs[index]!;
      // Nothing got further than the chosen one.
      expect(txs.every((p) => PROGRESS.indexOf(p) <= PROGRESS.indexOf(chosen))).toBe(true);
      // Among as far: the newest, or for live ones with `oldest`, the oldest.
      const equals = txs.flatMap((p, i) => (p === chosen ? [i] : []));
      const live = chosen === 'unpaid' || chosen === 'paid';
      expect(index).toBe(live && liveTies === 'oldest' ? equals[0] : equals.at(-1));
    }
  });

  test('the order of progress: complete, paid, ended after payment, unpaid, ended unpaid', () => {
    expect(PROGRESS).toEqual(['ended_unpaid', 'unpaid', 'ended_paid', 'paid', 'complete']);
    // An abandoned or merely started transaction added later never displaces one that took money.
    expect(indexOfChoice(['complete', 'unpaid', 'ended_unpaid'], 'newest')).toBe(0);
    expect(indexOfChoice(['paid', 'unpaid'], 'newest')).toBe(0);
    expect(indexOfChoice(['ended_paid', 'unpaid', 'unpaid'], 'oldest')).toBe(0);
    // A second attempt that got further than an abandoned first one speaks for the order.
    expect(indexOfChoice(['ended_unpaid', 'unpaid'], 'newest')).toBe(1);
    expect(indexOfChoice(['unpaid', 'unpaid', 'ended_unpaid'], 'oldest')).toBe(0);
    expect(indexOfChoice(['unpaid', 'unpaid', 'ended_unpaid'], 'newest')).toBe(1);
    expect(indexOfChoice(['complete', 'complete'], 'oldest')).toBe(1);
  });
});

describe('furthestTransaction with a status the provider does not document', () => {
  type Tx = { progress?: Progress; index: number };
  const progressOrUnknown = (t: Tx): Progress => {
    if (t.progress === undefined) throw new UnknownProviderStatusError('somebody', 'odd');
    return t.progress;
  };
  const choose = (txs: (Progress | undefined)[], liveTies: 'oldest' | 'newest') =>
    furthestTransaction(
      txs.map((progress, index) => ({ progress, index })),
      progressOrUnknown,
      liveTies,
    )?.index;

  test.each(['oldest', 'newest'] as const)(
    'every sequence of up to four with one unknown inserted anywhere (live ties: %s): passed over only beside a paid or complete one',
    (liveTies) => {
      for (const txs of ALL) {
        for (let at = 0; at <= txs.length; at++) {
          const withUnknown: (Progress | undefined)[] = [...txs.slice(0, at), undefined, ...txs.slice(at)];
          const reachedPaid = txs.some((p) => p === 'paid' || p === 'complete');
          if (!reachedPaid) {
            expect(() => choose(withUnknown, liveTies)).toThrow(UnknownProviderStatusError);
            continue;
          }
          // The same choice as without the unknown one (its index shifted past it).
          const without = indexOfChoice(txs, liveTies)!;
          expect(choose(withUnknown, liveTies)).toBe(without >= at ? without + 1 : without);
        }
      }
    },
  );

  test('another error is not taken for an unknown status', () => {
    expect(() =>
      furthestTransaction(
        [1],
        () => {
          throw new TypeError('a bug');
        },
        'newest',
      ),
    ).toThrow(TypeError);
  });
});

describe('progressOf', () => {
  test('every broker status: an unpaid end is reported `expired`, so `failed` ended after payment', () => {
    const table = Object.fromEntries(ORDER_STATUSES.map((s) => [s, progressOf(s)]));
    expect(table).toEqual({
      created: 'unpaid',
      pending: 'unpaid',
      hold: 'paid',
      processing: 'paid',
      complete: 'complete',
      failed: 'ended_paid',
      expired: 'ended_unpaid',
      refunded: 'ended_paid',
    });
  });
});
