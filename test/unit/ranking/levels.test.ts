import { foldOutcome, outcomeLevelKeys, outcomeWeights } from '../../../src/ranking/fold';
import type { LevelCounters } from '../../../src/ranking/decay';
import { integratorLevelKey, isKeyableIntegrator, levelsOf, splitIntegratorKey } from '../../../src/ranking/levels';
import { snapshotOf } from '../../../src/ranking/snapshot';
import type { OrderOutcome } from '../../../src/ranking/outcome';

const T0 = Date.UTC(2026, 0, 1);
const HALF_LIFE = 7 * 24 * 3_600_000;

describe('levelsOf', () => {
  it('goes provider|country|method → provider|method → provider → *', () => {
    expect(levelsOf('moonpay', 'GB', 'card')).toEqual([
      { key: 'moonpay|GB|card', kind: 'provider_country_method' },
      { key: 'moonpay|card', kind: 'provider_method' },
      { key: 'moonpay', kind: 'provider' },
      { key: '*', kind: 'all' },
    ]);
  });

  it('leaves out the levels whose parts are unknown', () => {
    expect(levelsOf('moonpay', undefined, 'card').map((l) => l.key)).toEqual(['moonpay|card', 'moonpay', '*']);
    expect(levelsOf('moonpay', 'GB', undefined).map((l) => l.key)).toEqual(['moonpay', '*']);
    expect(levelsOf('moonpay', undefined, undefined).map((l) => l.key)).toEqual(['moonpay', '*']);
  });
});

describe('folding outcomes', () => {
  const outcome = (kind: OrderOutcome['kind'], extra: Partial<OrderOutcome> = {}): OrderOutcome => ({
    runId: `run-${Math.random()}`,
    providerCode: 'moonpay',
    country: 'GB',
    paymentMethod: 'card',
    kind,
    finishedAtMs: T0,
    ...extra,
  });

  it('weighs each kind', () => {
    expect(outcomeWeights(outcome('complete', { completeMs: 90_000 }))).toEqual({
      attempts: 1,
      completed: 1,
      refused: 0,
      completeMsSum: 90_000,
      timed: 1,
    });
    expect(outcomeWeights(outcome('complete'))).toEqual({ attempts: 1, completed: 1, refused: 0, completeMsSum: 0, timed: 0 });
    expect(outcomeWeights(outcome('not_complete', { completeMs: 5 }))).toEqual({
      attempts: 1,
      completed: 0,
      refused: 0,
      completeMsSum: 0,
      timed: 0,
    });
    expect(outcomeWeights(outcome('refused'))).toEqual({ attempts: 1, completed: 0, refused: 1, completeMsSum: 0, timed: 0 });
  });

  it('folds an outcome into each of its levels', () => {
    expect(outcomeLevelKeys(outcome('complete'))).toEqual(['moonpay|GB|card', 'moonpay|card', 'moonpay', '*']);
    expect(outcomeLevelKeys(outcome('complete', { country: undefined }))).toEqual(['moonpay|card', 'moonpay', '*']);
    const levels = new Map<string, LevelCounters>();
    foldOutcome(levels, outcome('complete', { completeMs: 1000 }), HALF_LIFE);
    foldOutcome(levels, outcome('refused', { providerCode: 'banxa', paymentMethod: undefined }), HALF_LIFE);
    expect([...levels.keys()].sort()).toEqual(['*', 'banxa', 'moonpay', 'moonpay|GB|card', 'moonpay|card']);
    expect(levels.get('*')).toEqual({ atMs: T0, attempts: 2, completed: 1, refused: 1, completeMsSum: 1000, timed: 1 });
    expect(levels.get('banxa')).toEqual({ atMs: T0, attempts: 1, completed: 0, refused: 1, completeMsSum: 0, timed: 0 });
  });
});

describe('integrator levels', () => {
  const base = { runId: 'r', providerCode: 'moonpay', country: 'GB', paymentMethod: 'card', kind: 'complete' as const, finishedAtMs: T0 };

  it('folds an outcome into the shared levels and the same levels under its integrator', () => {
    expect(outcomeLevelKeys({ ...base, integratorId: 'acme-1' })).toEqual([
      'moonpay|GB|card',
      'moonpay|card',
      'moonpay',
      '*',
      '@acme-1|moonpay|GB|card',
      '@acme-1|moonpay|card',
      '@acme-1|moonpay',
      '@acme-1|*',
    ]);
  });

  it('folds an outcome without an integrator, or with one that cannot be keyed, into the shared levels only', () => {
    expect(outcomeLevelKeys(base)).toEqual(['moonpay|GB|card', 'moonpay|card', 'moonpay', '*']);
    expect(outcomeLevelKeys({ ...base, integratorId: '' })).toHaveLength(4);
    expect(outcomeLevelKeys({ ...base, integratorId: 'a|moonpay' })).toHaveLength(4);
    expect(isKeyableIntegrator('a|b')).toBe(false);
  });

  it('keys cannot be mistaken for a shared level, and read back to their integrator and level', () => {
    expect(splitIntegratorKey(integratorLevelKey('acme', 'moonpay|GB|card'))).toEqual({
      integratorId: 'acme',
      levelKey: 'moonpay|GB|card',
    });
    expect(splitIntegratorKey(integratorLevelKey('acme', '*'))).toEqual({ integratorId: 'acme', levelKey: '*' });
    for (const shared of ['moonpay', 'moonpay|GB|card', '*', '@', '@|x', '@acme|']) expect(splitIntegratorKey(shared)).toBeUndefined();
  });

  it('a snapshot sorts the keys into the shared levels and each integrator own', () => {
    const levels = new Map<string, LevelCounters>();
    foldOutcome(levels, { ...base, integratorId: 'a' }, HALF_LIFE);
    foldOutcome(levels, { ...base, runId: 'r2', integratorId: 'b', kind: 'not_complete' }, HALF_LIFE);
    foldOutcome(levels, { ...base, runId: 'r3' }, HALF_LIFE);
    const snapshot = snapshotOf(levels);
    expect([...snapshot.levels.keys()].sort()).toEqual(['*', 'moonpay', 'moonpay|GB|card', 'moonpay|card']);
    expect(snapshot.levels.get('moonpay')).toMatchObject({ attempts: 3, completed: 2 });
    expect([...snapshot.integrators.keys()].sort()).toEqual(['a', 'b']);
    expect(snapshot.integrators.get('a')!.get('moonpay|GB|card')).toMatchObject({ attempts: 1, completed: 1 });
    expect(snapshot.integrators.get('b')!.get('*')).toMatchObject({ attempts: 1, completed: 0 });
  });
});
