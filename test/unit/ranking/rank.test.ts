import type { LevelCounters } from '../../../src/ranking/decay';
import { estimateMethod, publishedP, rankOffers, type RankableOffer, type RankingContext } from '../../../src/ranking/rank';
import { percent } from '../../../src/ranking/reasons';
import { EMPTY_SNAPSHOT, type StatsSnapshot } from '../../../src/ranking/snapshot';

const T0 = Date.UTC(2026, 0, 1);
const SETTINGS = { halfLifeMs: 7 * 24 * 3_600_000, priorWeight: 20, returningBoost: 0.5 };

type Counts = Partial<Omit<LevelCounters, 'atMs'>>;

/** Levels' counters, by level key; under the integrator too unless `integrator` is null. */
function levelMap(levels: Record<string, Counts>): Map<string, LevelCounters> {
  return new Map(
    Object.entries(levels).map(([key, c]) => [key, { atMs: T0, attempts: 0, completed: 0, refused: 0, completeMsSum: 0, timed: 0, ...c }]),
  );
}

/**
 * A snapshot whose orders are all the requesting integrator's (`acme`): the same counts in the
 * shared levels and in acme's own, unless `own` gives acme's separately.
 */
function snapshot(levels: Record<string, Counts>, own: Record<string, Counts> = levels): StatsSnapshot {
  return { levels: levelMap(levels), integrators: new Map([['acme', levelMap(own)]]) };
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
  integratorId: 'acme',
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

  it('gives completion_rate in whole percent, and scores with it', () => {
    const stats = snapshot({ ...provider('a', { attempts: 3, completed: 1 }), '*': { attempts: 3, completed: 1 } });
    const rankings = rankOffers({ a: offer('1.00000000') }, context(stats, { settings: { ...SETTINGS, priorWeight: 0 } }));
    expect(rankings.a!.completion_rate).toBe(0.33);
    expect(rankings.a!.score).toBe('0.33000000');
  });

  it('publishes p in whole percent, never a p below 1 as certain nor one above 0 as none, as the reasons say it', () => {
    expect([0, 0.001, 0.004, 0.126, 0.5, 0.994, 0.996, 1].map(publishedP)).toEqual([0, 0.01, 0.01, 0.13, 0.5, 0.99, 0.99, 1]);
    for (const p of [0.001, 0.126, 0.996]) expect(percent(p)).toBe(p < 0.01 ? '<1' : String(Math.round(publishedP(p) * 100)));
  });

  it("one more order of another integrator's changes nothing an integrator without orders of its own can read", () => {
    // All integrators' orders are the prior of one that has none: a finer estimate would give their count
    // (p / (p1 - p2) = n + K from two answers a refresh apart).
    const read = (attempts: number, completed: number) => {
      const counts = { attempts, completed };
      const levels = levelMap({ ...provider('a', counts), '*': counts });
      return rankOffers({ a: offer('0.01234567') }, context({ levels, integrators: new Map() })).a!;
    };
    for (const n of [500, 5_000, 50_000]) {
      const before = read(n, n * 0.9);
      expect(read(n + 1, n * 0.9 + 1)).toEqual(before);
      expect(read(n + 1, n * 0.9)).toEqual(before);
    }
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

  it('says when the integrator has few orders there, and that the estimate leans on all integrators orders', () => {
    const stats = snapshot({
      'a|GB|card': { attempts: 3, completed: 3 },
      'a|card': { attempts: 1_500, completed: 1_350 },
      a: { attempts: 1_500, completed: 1_350 },
      '*': { attempts: 1_500, completed: 1_350 },
    });
    expect(rankOffers({ a: offer('1') }, context(stats)).a!.reasons).toEqual([
      "only 3 card orders in GB so far: 92 % estimated from all integrators' orders",
    ]);
    expect(rankOffers({ a: offer('1') }, context(stats, { country: 'FR' })).a!.reasons).toEqual([
      "no card orders in FR yet: 90 % estimated from all integrators' orders",
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
    expect(ranking!.reasons).toEqual(["only 1 card order in GB so far: 92 % estimated from all integrators' orders"]);
    expect(ranking!.samples).toBe(1);
  });

  it('names the provider level when no method is known, and other methods by their names', () => {
    const stats = snapshot({ a: { attempts: 100, completed: 99 }, 'a|GB|apple_pay': { attempts: 2, completed: 2 } });
    expect(rankOffers({ a: offer('1', 'apple_pay') }, context(stats, { paymentMethod: undefined })).a!.reasons[0]).toMatch(
      /^only 2 Apple Pay orders in GB so far: \d+ % estimated from all integrators' orders$/,
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
  const lookup = (levels: Record<string, Counts>) => (key: string) => levelMap(levels).get(key);

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

  it("picks by the integrator's own orders first, all integrators' on a tie", () => {
    const shared = lookup({ 'a|GB|card': { attempts: 500 }, 'a|GB|sepa': { attempts: 40 } });
    expect(estimateMethod(offer('1', 'card', 'sepa'), 'a', 'GB', undefined, shared, lookup({ 'a|GB|sepa': { attempts: 2 } }))).toBe('sepa');
    expect(estimateMethod(offer('1', 'sepa', 'card'), 'a', 'GB', undefined, shared, lookup({}))).toBe('card');
    expect(estimateMethod(offer('1', 'sepa', 'card'), 'a', 'GB', undefined, shared)).toBe('card');
  });
});

describe('per integrator', () => {
  /** Another integrator sent 212 card orders in GB, 202 completed; `acme` sent `own` of its own. */
  const OTHERS = { attempts: 212, completed: 202 };
  const withOwn = (own: Counts | undefined): StatsSnapshot => {
    const shared = (c: Counts) => ({
      attempts: (c.attempts ?? 0) + (own?.attempts ?? 0),
      completed: (c.completed ?? 0) + (own?.completed ?? 0),
    });
    return snapshot({ ...provider('a', shared(OTHERS)), '*': shared(OTHERS) }, own ? { ...provider('a', own), '*': own } : {});
  };
  /** Every whole number in the reasons but the percentages. */
  const counts = (reasons: string[]) =>
    [...reasons.join(' ').matchAll(/(?<![\d,.])(\d[\d,]*)(?! %)\b/g)].map((m) => Number(m[1]!.replace(/,/g, '')));

  it('an integrator with no orders of its own gets the shared estimate, shown without any count', () => {
    const stats = withOwn(undefined);
    const alone = rankOffers({ a: offer('1') }, context(stats, { integratorId: 'newcomer' }));
    // The shared estimate: what the integrator that sent the orders would read with them counted as all integrators'.
    const sharedOnly = rankOffers({ a: offer('1') }, context({ levels: stats.levels, integrators: new Map() }, { integratorId: 'x' }));
    expect(alone.a!.completion_rate).toBe(sharedOnly.a!.completion_rate);
    expect(alone.a!.completion_rate).toBeCloseTo(202 / 212, 1);
    expect(alone.a!.samples).toBe(0);
    expect(alone.a!.reasons).toEqual(["no card orders in GB yet: 95 % estimated from all integrators' orders"]);
  });

  it('few own orders barely move the estimate from the shared one; many make it the own rate', () => {
    const shared = rankOffers({ a: offer('1') }, context(withOwn(undefined), { integratorId: 'newcomer' })).a!.completion_rate;
    const few = rankOffers({ a: offer('1') }, context(withOwn({ attempts: 3, completed: 0 }))).a!;
    expect(few.samples).toBe(3);
    expect(few.completion_rate).toBeLessThan(shared);
    expect(few.completion_rate).toBeGreaterThan(shared * 0.8);
    expect(few.reasons).toEqual([
      `only 3 card orders in GB so far: ${Math.round(few.completion_rate * 100)} % estimated from all integrators' orders`,
    ]);
    const many = rankOffers({ a: offer('1') }, context(withOwn({ attempts: 2_000, completed: 1_000 }))).a!;
    expect(many.samples).toBe(2_000);
    expect(many.completion_rate).toBeCloseTo(0.5, 1);
    expect(many.reasons).toEqual([`${Math.round(many.completion_rate * 100)} % of 2,000 card orders in GB completed`]);
  });

  it("never quotes another integrator's count, whatever the counts", () => {
    for (const own of [undefined, 0, 1, 3, 19, 20, 57, 2_000]) {
      const stats = withOwn(own === undefined ? undefined : { attempts: own, completed: Math.floor(own / 2) });
      for (const country of ['GB', 'FR', undefined]) {
        for (const paymentMethod of ['card', 'sepa', undefined]) {
          const { a } = rankOffers({ a: offer('1', 'card') }, context(stats, { country, paymentMethod }));
          // The offer has card alone, so its estimate is for card whatever was asked; acme has no FR orders.
          const ownAtLevel = country === 'FR' ? 0 : (own ?? 0);
          expect(a!.samples).toBe(ownAtLevel);
          for (const n of counts(a!.reasons)) expect(n).toBe(ownAtLevel);
          expect(a!.reasons.join(' ')).not.toMatch(/212|2,212|213|215|231|269/);
        }
      }
    }
  });
});
