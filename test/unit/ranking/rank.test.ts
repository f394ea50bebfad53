import type { LevelCounters } from '../../../src/ranking/decay';
import { estimateMethod, rankOffers, type RankableOffer, type RankingContext } from '../../../src/ranking/rank';
import { percent } from '../../../src/ranking/reasons';
import { EMPTY_SNAPSHOT, type StatsSnapshot } from '../../../src/ranking/snapshot';

const T0 = Date.UTC(2026, 0, 1);
const SETTINGS = { halfLifeMs: 7 * 24 * 3_600_000, priorWeight: 20, returningBoost: 0.5 };

type Counts = Partial<Omit<LevelCounters, 'atMs'>>;

function snapshot(levels: Record<string, Counts>): StatsSnapshot {
  return {
    levels: new Map(
      Object.entries(levels).map(([key, c]) => [
        key,
        { atMs: T0, attempts: 0, completed: 0, refused: 0, completeMsSum: 0, timed: 0, ...c },
      ]),
    ),
  };
}

/** The same counts at each of the provider's levels for GB card orders. */
function provider(code: string, counts: Counts): Record<string, Counts> {
  return { [`${code}|GB|card`]: counts, [`${code}|card`]: counts, [code]: counts };
}

const offer = (amount: string, ...methods: string[]): RankableOffer => ({
  amount_expected_to: amount,
  payment_methods: (methods.length > 0 ? methods : ['card']).map((payment_method_code) => ({ payment_method_code })),
});

const context = (stats: StatsSnapshot, extra: Partial<RankingContext> = {}): RankingContext => ({
  stats,
  country: 'GB',
  paymentMethod: 'card',
  nowMs: T0,
  settings: SETTINGS,
  ...extra,
});

const order = (rankings: Record<string, { rank: number }>) =>
  Object.entries(rankings)
    .sort(([, a], [, b]) => a.rank - b.rank)
    .map(([code]) => code);

describe('rankOffers', () => {
  it('ranks by amount when nothing is known, every offer with the same estimate', () => {
    const rankings = rankOffers({ a: offer('0.0100'), b: offer('0.0102'), c: offer('0.0099') }, context(EMPTY_SNAPSHOT));
    expect(order(rankings)).toEqual(['b', 'a', 'c']);
    expect(rankings.b).toEqual({
      score: '0.0077',
      rank: 1,
      completion_rate: 0.76,
      samples: 0,
      reasons: ['no card orders in GB yet: 76 % assumed until there are more orders'],
      recommended: true,
    });
    expect(rankings.a!.recommended).toBe(false);
    expect(rankings.c!.recommended).toBe(false);
  });

  it('puts a reliable provider above a slightly cheaper unreliable one', () => {
    const stats = snapshot({
      ...provider('cheap', { attempts: 500, completed: 300 }),
      ...provider('steady', { attempts: 500, completed: 460 }),
      '*': { attempts: 1_000, completed: 760 },
    });
    const rankings = rankOffers({ cheap: offer('1.03000000'), steady: offer('1.00000000') }, context(stats));
    expect(order(rankings)).toEqual(['steady', 'cheap']);
    expect(rankings.steady!.completion_rate).toBeCloseTo(0.92, 2);
    expect(rankings.cheap!.completion_rate).toBeCloseTo(0.6, 2);
    expect(rankings.steady!.samples).toBe(500);
  });

  it('computes the score in decimals, rounded down to the amount places', () => {
    // K = 0: the estimate is the observed 3 of 4, exactly.
    const stats = snapshot({ ...provider('a', { attempts: 4, completed: 3 }), '*': { attempts: 4, completed: 3 } });
    const rankings = rankOffers({ a: offer('2.00000001') }, context(stats, { settings: { ...SETTINGS, priorWeight: 0 } }));
    expect(rankings.a!.score).toBe('1.50000000'); // 1.5000000075
    expect(rankings.a!.completion_rate).toBe(0.75);
    const whole = rankOffers({ a: offer('1000') }, context(stats, { settings: { ...SETTINGS, priorWeight: 0 } }));
    expect(whole.a!.score).toBe('750');
    const big = rankOffers(
      { a: offer('123456789012345678.123456789012345678') },
      context(stats, { settings: { ...SETTINGS, priorWeight: 0 } }),
    );
    expect(big.a!.score).toBe('92592591759259258.592592591759259258');
    const exponent = rankOffers({ a: offer('3e-8') }, context(stats, { settings: { ...SETTINGS, priorWeight: 0 } }));
    expect(exponent.a!.score).toBe('0.00000002'); // 0.0000000225
  });

  it('gives completion_rate to 4 places', () => {
    const stats = snapshot({ ...provider('a', { attempts: 3, completed: 1 }), '*': { attempts: 3, completed: 1 } });
    const rankings = rankOffers({ a: offer('1') }, context(stats, { settings: { ...SETTINGS, priorWeight: 0 } }));
    expect(rankings.a!.completion_rate).toBe(0.3333);
  });

  it('keeps ties in a stable order: by amount, then provider code', () => {
    const stats = snapshot({
      ...provider('x', { attempts: 4, completed: 2 }),
      ...provider('y', { attempts: 4, completed: 4 }),
      '*': { attempts: 8, completed: 6 },
    });
    const settings = { ...SETTINGS, priorWeight: 0 };
    // x: 2.0 x 0.5 = 1.0, y: 1.0 x 1 = 1.0: same score, x has the larger amount.
    const rankings = rankOffers({ y: offer('1.0'), x: offer('2.0') }, context(stats, { settings }));
    expect(rankings.x!.score).toBe(rankings.y!.score);
    expect(order(rankings)).toEqual(['x', 'y']);
    const sameAll = rankOffers({ d: offer('1.0'), b: offer('1.0'), c: offer('1.0'), a: offer('1.0') }, context(EMPTY_SNAPSHOT));
    expect(order(sameAll)).toEqual(['a', 'b', 'c', 'd']);
    expect(sameAll.a!.recommended).toBe(true);
  });

  it('boosts a provider the customer completed with before', () => {
    const stats = snapshot({
      ...provider('known', { attempts: 500, completed: 400 }),
      ...provider('other', { attempts: 500, completed: 425 }),
      '*': { attempts: 1_000, completed: 825 },
    });
    const offers = { known: offer('1.00'), other: offer('1.00') };
    expect(order(rankOffers(offers, context(stats)))).toEqual(['other', 'known']);
    const returning = rankOffers(offers, context(stats, { returningProviders: new Set(['known']) }));
    expect(order(returning)).toEqual(['known', 'other']);
    // About 0.80 + 0.20 x 0.5 = 0.90 against 0.85; completion_rate stays the provider's own.
    expect(Number(returning.known!.score)).toBeCloseTo(0.9, 2);
    expect(returning.known!.completion_rate).toBeCloseTo(0.8, 2);
    expect(returning.known!.reasons).toContain('you bought with this provider before');
    expect(returning.other!.reasons).not.toContain('you bought with this provider before');
  });

  it('returns nothing for no offers', () => {
    expect(rankOffers({}, context(EMPTY_SNAPSHOT))).toEqual({});
  });
});

describe('reasons', () => {
  it('quotes the specific level when it has enough orders', () => {
    const stats = snapshot({ ...provider('a', { attempts: 212, completed: 202 }), '*': { attempts: 212, completed: 202 } });
    const { a } = rankOffers({ a: offer('1') }, context(stats));
    expect(a!.reasons).toEqual(['95 % of 212 card orders in GB completed']);
    expect(a!.samples).toBe(212);
  });

  it('says when there are few orders and which wider orders the estimate leans on', () => {
    const stats = snapshot({
      'a|GB|card': { attempts: 3, completed: 3 },
      'a|card': { attempts: 1_500, completed: 1_350 },
      a: { attempts: 1_500, completed: 1_350 },
      '*': { attempts: 1_500, completed: 1_350 },
    });
    expect(rankOffers({ a: offer('1') }, context(stats)).a!.reasons).toEqual([
      'only 3 card orders in GB so far: 91 % estimated from 1,500 card orders with this provider',
    ]);
    expect(rankOffers({ a: offer('1') }, context(stats, { country: 'FR' })).a!.reasons).toEqual([
      'no card orders in FR yet: 90 % estimated from 1,500 card orders with this provider',
    ]);
    expect(rankOffers({ a: offer('1') }, context(stats, { country: undefined })).a!.reasons).toEqual([
      '90 % of 1,500 card orders with this provider completed',
    ]);
  });

  it('leans on every provider orders when this one has few', () => {
    const stats = snapshot({
      'new|GB|card': { attempts: 1, completed: 1 },
      'new|card': { attempts: 1, completed: 1 },
      new: { attempts: 1, completed: 1 },
      '*': { attempts: 5_000, completed: 4_500 },
    });
    const { new: ranking } = rankOffers({ new: offer('1') }, context(stats));
    expect(ranking!.reasons).toEqual(['only 1 card order in GB so far: 91 % estimated from 5,000 orders with any provider']);
    expect(ranking!.samples).toBe(1);
  });

  it('names the provider level when no method is known, and other methods by their names', () => {
    const stats = snapshot({ a: { attempts: 100, completed: 99 }, 'a|GB|apple_pay': { attempts: 2, completed: 2 } });
    expect(rankOffers({ a: offer('1', 'apple_pay') }, context(stats, { paymentMethod: undefined })).a!.reasons[0]).toMatch(
      /^only 2 Apple Pay orders in GB so far: \d+ % estimated from 100 orders with this provider$/,
    );
    expect(
      rankOffers({ a: { amount_expected_to: '1', payment_methods: [] } }, context(stats, { paymentMethod: undefined })).a!.reasons[0],
    ).toMatch(/^\d+ % of 100 orders with this provider completed$/);
  });

  it('mentions notable refusals', () => {
    const stats = snapshot({
      ...provider('a', { attempts: 1_000, completed: 700, refused: 200 }),
      '*': { attempts: 1_000, completed: 700, refused: 200 },
    });
    expect(rankOffers({ a: offer('1') }, context(stats)).a!.reasons).toEqual([
      '70 % of 1,000 card orders in GB completed',
      'the provider refused 20 % of orders at creation',
    ]);
  });

  it('writes shares without claiming 100 % or 0 % that are not', () => {
    expect(percent(0.999)).toBe('99');
    expect(percent(1)).toBe('100');
    expect(percent(0.001)).toBe('<1');
    expect(percent(0)).toBe('0');
    expect(percent(0.954)).toBe('95');
  });
});

describe('estimateMethod', () => {
  const lookup = (levels: Record<string, Counts>) => (key: string) => snapshot(levels).levels.get(key);

  it('uses the method asked for', () => {
    expect(estimateMethod(offer('1', 'card'), 'a', 'GB', 'card', lookup({}))).toBe('card');
    expect(estimateMethod({ amount_expected_to: '1', payment_methods: [] }, 'a', 'GB', 'sepa', lookup({}))).toBe('sepa');
  });

  it('uses the offer only method, or none', () => {
    expect(estimateMethod(offer('1', 'sepa'), 'a', 'GB', undefined, lookup({}))).toBe('sepa');
    expect(estimateMethod({ amount_expected_to: '1', payment_methods: [] }, 'a', 'GB', undefined, lookup({}))).toBeUndefined();
  });

  it('picks the best-known of several methods, the first listed on a tie', () => {
    const levels = { 'a|GB|card': { attempts: 3 }, 'a|GB|sepa': { attempts: 40 }, 'a|card': { attempts: 900 } };
    expect(estimateMethod(offer('1', 'card', 'sepa', 'pix'), 'a', 'GB', undefined, lookup(levels))).toBe('sepa');
    expect(estimateMethod(offer('1', 'card', 'sepa'), 'a', undefined, undefined, lookup(levels))).toBe('card');
    expect(estimateMethod(offer('1', 'pix', 'upi'), 'a', 'GB', undefined, lookup(levels))).toBe('pix');
    expect(estimateMethod(offer('1', 'card', 'sepa'), 'a', 'GB', 'upi', lookup(levels))).toBe('sepa');
  });
});
