import type { LevelCounters } from '../../../src/ranking/decay';
import {
  estimateCompletion,
  estimateForIntegrator,
  PRIOR_COMPLETION_RATE,
  PRIOR_REFUSED_SHARE,
  returningCustomerEstimate,
  smoothed,
  type LevelLookup,
} from '../../../src/ranking/estimate';

const T0 = Date.UTC(2026, 0, 1);
const HALF_LIFE = 7 * 24 * 3_600_000;
const SETTINGS = { halfLifeMs: HALF_LIFE, priorWeight: 20 };

type Counts = Partial<Omit<LevelCounters, 'atMs'>> & { atMs?: number };

function stats(levels: Record<string, Counts>): LevelLookup {
  const map = new Map<string, LevelCounters>(
    Object.entries(levels).map(([key, c]) => [key, { atMs: T0, attempts: 0, completed: 0, refused: 0, completeMsSum: 0, timed: 0, ...c }]),
  );
  return (key) => map.get(key);
}

const PRIOR_P = (1 - PRIOR_REFUSED_SHARE) * PRIOR_COMPLETION_RATE;

describe('smoothed', () => {
  it('is the parent rate with no samples', () => {
    expect(smoothed(0, 0, 0.7, 20)).toBe(0.7);
    expect(smoothed(0, 0, 0.7, 0)).toBe(0.7);
  });

  it('moves toward the observed rate as samples grow', () => {
    expect(smoothed(1, 1, 0.5, 20)).toBeCloseTo(11 / 21, 15);
    expect(smoothed(20, 20, 0.5, 20)).toBe(0.75);
    expect(smoothed(9_000, 10_000, 0.5, 20)).toBeCloseTo(9_010 / 10_020, 15);
    expect(smoothed(3, 4, 0.5, 0)).toBe(0.75);
  });

  it('stays within [0, 1]', () => {
    expect(smoothed(5, 4, 1, 0)).toBe(1);
    expect(smoothed(-1, 4, 0, 0)).toBe(0);
  });
});

describe('estimateCompletion', () => {
  it('is the fixed priors with no history at all', () => {
    const estimate = estimateCompletion(stats({}), 'moonpay', 'GB', 'card', T0, SETTINGS);
    expect(estimate.completionRate).toBe(PRIOR_COMPLETION_RATE);
    expect(estimate.refusedShare).toBe(PRIOR_REFUSED_SHARE);
    expect(estimate.p).toBeCloseTo(PRIOR_P, 15);
    expect(estimate.samples).toBe(0);
    expect(estimate.samplesLevel).toBeUndefined();
    expect(estimate.meanCompleteMs).toBeUndefined();
    expect(estimate.levels.map((l) => l.key)).toEqual(['moonpay|GB|card', 'moonpay|card', 'moonpay', '*']);
  });

  it('is hardly moved by one order', () => {
    const one = { attempts: 1, completed: 0 };
    const estimate = estimateCompletion(
      stats({ 'moonpay|GB|card': one, 'moonpay|card': one, moonpay: one, '*': one }),
      'moonpay',
      'GB',
      'card',
      T0,
      SETTINGS,
    );
    expect(estimate.p).toBeGreaterThan(PRIOR_P - 0.15);
    expect(estimate.samples).toBe(1);
  });

  it('is the observed rate with many samples', () => {
    const many = { attempts: 10_000, completed: 9_000, refused: 500 };
    const estimate = estimateCompletion(
      stats({ 'moonpay|GB|card': many, 'moonpay|card': many, moonpay: many, '*': many }),
      'moonpay',
      'GB',
      'card',
      T0,
      SETTINGS,
    );
    expect(estimate.refusedShare).toBeCloseTo(0.05, 3);
    expect(estimate.completionRate).toBeCloseTo(9_000 / 9_500, 3);
    expect(estimate.p).toBeCloseTo(0.9, 3);
    expect(estimate.samples).toBe(10_000);
  });

  it('falls back to the wider level when the specific one has no orders', () => {
    const lookup = stats({
      'moonpay|card': { attempts: 5_000, completed: 3_000 },
      moonpay: { attempts: 5_000, completed: 3_000 },
      '*': { attempts: 5_000, completed: 3_000 },
    });
    const specific = estimateCompletion(lookup, 'moonpay', 'GB', 'card', T0, SETTINGS);
    const wider = estimateCompletion(lookup, 'moonpay', undefined, 'card', T0, SETTINGS);
    expect(specific.p).toBe(wider.p);
    expect(specific.p).toBeCloseTo(0.6, 2);
    expect(specific.samples).toBe(5_000);
    expect(specific.samplesLevel?.key).toBe('moonpay|card');
  });

  it('reports samples from the most specific of the provider own levels, never from *', () => {
    const lookup = stats({
      'moonpay|GB|card': { attempts: 3, completed: 3 },
      moonpay: { attempts: 300, completed: 200 },
      '*': { attempts: 9_000 },
    });
    expect(estimateCompletion(lookup, 'moonpay', 'GB', 'card', T0, SETTINGS).samples).toBe(3);
    expect(estimateCompletion(lookup, 'moonpay', 'FR', 'card', T0, SETTINGS).samples).toBe(300);
    expect(estimateCompletion(lookup, 'banxa', 'GB', 'card', T0, SETTINGS).samples).toBe(0);
  });

  it('leans a thin level on its parent: a few perfect orders do not beat a known 60 %', () => {
    const lookup = stats({
      'moonpay|GB|card': { attempts: 3, completed: 3 },
      'moonpay|card': { attempts: 1_000, completed: 600 },
      moonpay: { attempts: 1_000, completed: 600 },
      '*': { attempts: 1_000, completed: 600 },
    });
    const estimate = estimateCompletion(lookup, 'moonpay', 'GB', 'card', T0, SETTINGS);
    expect(estimate.completionRate).toBeCloseTo((3 + 20 * estimate.levels[1]!.completionRate) / 23, 12);
    expect(estimate.p).toBeLessThan(0.7);
  });

  it('counts refusals in the refused share, and completions among created orders only', () => {
    const level = { attempts: 1_000, completed: 800, refused: 200 };
    const estimate = estimateCompletion(stats({ moonpay: level, '*': level }), 'moonpay', undefined, undefined, T0, {
      ...SETTINGS,
      priorWeight: 0,
    });
    expect(estimate.refusedShare).toBe(0.2);
    expect(estimate.completionRate).toBe(1);
    expect(estimate.p).toBe(0.8);
  });

  it('decays old orders, so an old record weighs less against the prior than a fresh one', () => {
    const level = (atMs: number) => ({ attempts: 100, completed: 100, atMs });
    const fresh = estimateCompletion(stats({ moonpay: level(T0), '*': level(T0) }), 'moonpay', undefined, undefined, T0, SETTINGS);
    const old = estimateCompletion(
      stats({ moonpay: level(T0 - 10 * HALF_LIFE), '*': level(T0 - 10 * HALF_LIFE) }),
      'moonpay',
      undefined,
      undefined,
      T0,
      SETTINGS,
    );
    expect(fresh.p).toBeGreaterThan(0.9);
    expect(old.p).toBeCloseTo(PRIOR_P, 2);
    expect(old.samples).toBe(0);
    expect(estimateCompletion(stats({ moonpay: level(T0 - HALF_LIFE) }), 'moonpay', undefined, undefined, T0, SETTINGS).samples).toBe(50);
  });

  it('takes the mean time to complete from the most specific level that timed any', () => {
    const lookup = stats({
      'moonpay|card': { attempts: 2, completed: 2, completeMsSum: 300_000, timed: 2 },
      moonpay: { attempts: 10, completed: 10, completeMsSum: 10_000_000, timed: 10 },
    });
    expect(estimateCompletion(lookup, 'moonpay', 'GB', 'card', T0, SETTINGS).meanCompleteMs).toBe(150_000);
    expect(estimateCompletion(lookup, 'moonpay', 'GB', 'sepa', T0, SETTINGS).meanCompleteMs).toBe(1_000_000);
  });

  it('handles K = 0 with empty levels (no division by zero)', () => {
    const estimate = estimateCompletion(stats({ moonpay: { attempts: 4, refused: 4 } }), 'moonpay', 'GB', 'card', T0, {
      ...SETTINGS,
      priorWeight: 0,
    });
    expect(estimate.refusedShare).toBe(1);
    expect(estimate.completionRate).toBe(PRIOR_COMPLETION_RATE);
    expect(estimate.p).toBe(0);
  });
});

describe('estimateForIntegrator', () => {
  // All integrators: 1,000 GB card orders with moonpay, 900 completed.
  const shared = stats({
    'moonpay|GB|card': { attempts: 1_000, completed: 900 },
    'moonpay|card': { attempts: 1_000, completed: 900 },
    moonpay: { attempts: 1_000, completed: 900 },
    '*': { attempts: 1_000, completed: 900 },
  });
  const wide = estimateCompletion(shared, 'moonpay', 'GB', 'card', T0, SETTINGS);

  it('is the shared estimate for an integrator with no orders of its own, with 0 samples', () => {
    for (const own of [undefined, stats({}), stats({ moonpay: { attempts: 500, completed: 10 } })]) {
      const estimate = estimateForIntegrator(shared, own, 'moonpay', 'GB', 'card', T0, SETTINGS);
      expect(estimate.p).toBe(wide.p);
      expect(estimate.completionRate).toBe(wide.completionRate);
      expect(estimate.refusedShare).toBe(wide.refusedShare);
      expect(estimate.samples).toBe(0);
      expect(estimate.ownAttempts).toBe(0);
    }
  });

  it('smooths its own counters toward the shared estimate of the same level, with the same K', () => {
    const own = stats({ 'moonpay|GB|card': { attempts: 4, completed: 1, refused: 1 } });
    const estimate = estimateForIntegrator(shared, own, 'moonpay', 'GB', 'card', T0, SETTINGS);
    expect(estimate.completionRate).toBeCloseTo((1 + 20 * wide.completionRate) / (3 + 20), 12);
    expect(estimate.refusedShare).toBeCloseTo((1 + 20 * wide.refusedShare) / (4 + 20), 12);
    expect(estimate.p).toBeCloseTo((1 - estimate.refusedShare) * estimate.completionRate, 12);
    expect(estimate.samples).toBe(4);
    // A few poor orders of its own move it only a little from the shared 90 %.
    expect(estimate.p).toBeGreaterThan(0.7);
  });

  it('is its own rate with many orders of its own, whatever the others do', () => {
    const own = stats({ 'moonpay|GB|card': { attempts: 20_000, completed: 10_000 } });
    const estimate = estimateForIntegrator(shared, own, 'moonpay', 'GB', 'card', T0, SETTINGS);
    expect(estimate.completionRate).toBeCloseTo(0.5, 2);
    expect(estimate.samples).toBe(20_000);
  });

  it('decays its own counters like the shared ones', () => {
    const own = stats({ 'moonpay|GB|card': { attempts: 100, completed: 0, atMs: T0 - HALF_LIFE } });
    expect(estimateForIntegrator(shared, own, 'moonpay', 'GB', 'card', T0, SETTINGS).samples).toBe(50);
  });
});

describe('returningCustomerEstimate', () => {
  it('closes the given share of the gap to 1', () => {
    expect(returningCustomerEstimate(0.6, 0.5)).toBe(0.8);
    expect(returningCustomerEstimate(0.6, 0)).toBe(0.6);
    expect(returningCustomerEstimate(0.6, 1)).toBe(1);
    expect(returningCustomerEstimate(1, 0.5)).toBe(1);
    expect(returningCustomerEstimate(0, 0.25)).toBe(0.25);
  });
});
