import { addAt, countersAt, decayFactor, foldAt, valueAt, type DecayedCounter, type LevelCounters } from '../../../src/ranking/decay';

const HOUR = 3_600_000;
const HALF_LIFE = 168 * HOUR;
const T0 = Date.UTC(2026, 0, 1);

/** A deterministic generator (mulberry32), so shuffles are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

describe('decayFactor', () => {
  it('halves at each half-life', () => {
    expect(decayFactor(0, HALF_LIFE)).toBe(1);
    expect(decayFactor(HALF_LIFE, HALF_LIFE)).toBe(0.5);
    expect(decayFactor(2 * HALF_LIFE, HALF_LIFE)).toBe(0.25);
    expect(decayFactor(10 * HALF_LIFE, HALF_LIFE)).toBeCloseTo(1 / 1024, 15);
    expect(decayFactor(HALF_LIFE / 2, HALF_LIFE)).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it('never grows a value: a clock behind the counter reads it as stored', () => {
    expect(decayFactor(-HALF_LIFE, HALF_LIFE)).toBe(1);
  });
});

describe('valueAt', () => {
  const counter: DecayedCounter = { value: 8, atMs: T0 };

  it('is the stored value at its moment and halves at each half-life after', () => {
    expect(valueAt(counter, T0, HALF_LIFE)).toBe(8);
    expect(valueAt(counter, T0 + HALF_LIFE, HALF_LIFE)).toBe(4);
    expect(valueAt(counter, T0 + 3 * HALF_LIFE, HALF_LIFE)).toBe(1);
  });

  it('is 0 for no counter, and the stored value before its moment', () => {
    expect(valueAt(undefined, T0, HALF_LIFE)).toBe(0);
    expect(valueAt(counter, T0 - HOUR, HALF_LIFE)).toBe(8);
  });
});

describe('addAt', () => {
  it('starts a counter at the weight and its moment', () => {
    expect(addAt(undefined, 1, T0, HALF_LIFE)).toEqual({ value: 1, atMs: T0 });
  });

  it('decays the value to a later moment before adding', () => {
    expect(addAt({ value: 4, atMs: T0 }, 1, T0 + HALF_LIFE, HALF_LIFE)).toEqual({ value: 3, atMs: T0 + HALF_LIFE });
    expect(addAt({ value: 4, atMs: T0 }, 1, T0, HALF_LIFE)).toEqual({ value: 5, atMs: T0 });
  });

  it('adds a late weight decayed to the counter moment, which stays', () => {
    expect(addAt({ value: 4, atMs: T0 + HALF_LIFE }, 2, T0, HALF_LIFE)).toEqual({ value: 5, atMs: T0 + HALF_LIFE });
  });

  it('gives the same value folded in any order as in order', () => {
    const random = seeded(7);
    const events = Array.from({ length: 200 }, () => ({ t: T0 + Math.floor(random() * 60 * 24 * HOUR), w: 1 + Math.floor(random() * 3) }));
    const inOrder = [...events]
      .sort((a, b) => a.t - b.t)
      .reduce<DecayedCounter | undefined>((c, e) => addAt(c, e.w, e.t, HALF_LIFE), undefined);
    const now = T0 + 70 * 24 * HOUR;
    const expected = events.reduce((sum, e) => sum + e.w * 2 ** (-(now - e.t) / HALF_LIFE), 0);
    expect(valueAt(inOrder, now, HALF_LIFE)).toBeCloseTo(expected, 9);
    for (let round = 0; round < 20; round++) {
      const any = shuffled(events, random).reduce<DecayedCounter | undefined>((c, e) => addAt(c, e.w, e.t, HALF_LIFE), undefined);
      expect(any!.atMs).toBe(inOrder!.atMs);
      expect(valueAt(any, now, HALF_LIFE) / expected).toBeCloseTo(1, 12);
    }
  });
});

describe('foldAt and countersAt', () => {
  const weights = { attempts: 1, completed: 1, refused: 0, completeMsSum: 60_000, timed: 1 };

  it('folds each counter as addAt does, sharing one moment', () => {
    const start = foldAt(undefined, weights, T0, HALF_LIFE);
    expect(start).toEqual({ atMs: T0, ...weights });
    const later = foldAt(start, { ...weights, completed: 0, completeMsSum: 0, timed: 0, refused: 1 }, T0 + HALF_LIFE, HALF_LIFE);
    expect(later).toEqual({ atMs: T0 + HALF_LIFE, attempts: 1.5, completed: 0.5, refused: 1, completeMsSum: 30_000, timed: 0.5 });
    const late = foldAt(later, weights, T0, HALF_LIFE);
    expect(late).toEqual({ atMs: T0 + HALF_LIFE, attempts: 2, completed: 1, refused: 1, completeMsSum: 60_000, timed: 1 });
  });

  it('folded in any order equals folded in order', () => {
    const random = seeded(11);
    const events = Array.from({ length: 100 }, () => ({
      t: T0 + Math.floor(random() * 30 * 24 * HOUR),
      w: {
        attempts: 1,
        completed: random() < 0.8 ? 1 : 0,
        refused: random() < 0.1 ? 1 : 0,
        completeMsSum: Math.floor(random() * 600_000),
        timed: 1,
      },
    }));
    const fold = (list: typeof events) => list.reduce<LevelCounters | undefined>((c, e) => foldAt(c, e.w, e.t, HALF_LIFE), undefined)!;
    const inOrder = fold([...events].sort((a, b) => a.t - b.t));
    for (let round = 0; round < 10; round++) {
      const any = fold(shuffled(events, random));
      expect(any.atMs).toBe(inOrder.atMs);
      for (const name of ['attempts', 'completed', 'refused', 'completeMsSum', 'timed'] as const) {
        if (inOrder[name] === 0) expect(any[name]).toBe(0);
        else expect(any[name] / inOrder[name]).toBeCloseTo(1, 12);
      }
    }
  });

  it('reads the counters at a later moment decayed, and at an earlier one as stored', () => {
    const counters: LevelCounters = { atMs: T0, attempts: 8, completed: 6, refused: 2, completeMsSum: 800, timed: 4 };
    expect(countersAt(counters, T0 + HALF_LIFE, HALF_LIFE)).toEqual({
      atMs: T0 + HALF_LIFE,
      attempts: 4,
      completed: 3,
      refused: 1,
      completeMsSum: 400,
      timed: 2,
    });
    expect(countersAt(counters, T0 - HOUR, HALF_LIFE)).toBe(counters);
  });
});
