import type { LevelCounters } from '../../../src/ranking/decay';
import { OffersRanking, RANKING_MEMO_ENTRIES, rankingMomentMs } from '../../../src/ranking/offers-ranking';
import { rankOffers, type RankableOffer } from '../../../src/ranking/rank';
import { EMPTY_SNAPSHOT, type StatsSnapshot } from '../../../src/ranking/snapshot';

const HOUR = 3_600_000;
const SETTINGS = { halfLifeMs: 168 * HOUR, priorWeight: 20, returningBoost: 0.5 };
const MOMENT = rankingMomentMs(SETTINGS.halfLifeMs);
const T0 = Date.UTC(2026, 0, 1) + 1234;

const offer = (amount: string): RankableOffer => ({ amount_expected_to: amount, payment_methods: [{ payment_method_code: 'card' }] });

function counters(attempts: number, completed: number): LevelCounters {
  return { atMs: T0, attempts, completed, refused: 0, completeMsSum: 0, timed: 0 };
}

/** A snapshot where `code` completed `completed` of `attempts` GB card orders, all of them acme's. */
function snapshotWith(code: string, attempts: number, completed: number): StatsSnapshot {
  const levels = new Map([
    [`${code}|GB|card`, counters(attempts, completed)],
    [`${code}|card`, counters(attempts, completed)],
    [code, counters(attempts, completed)],
  ]);
  return { levels, integrators: new Map([['acme', levels]]) };
}

function rankingWith(stats: () => StatsSnapshot, now: () => number) {
  return new OffersRanking({ stats: { snapshot: stats }, settings: SETTINGS, now });
}

const CONTEXT = { integratorId: 'acme', country: 'GB', paymentMethod: 'card', returningProviders: new Set<string>() };

describe('OffersRanking: estimates shared by the requests of one snapshot and moment', () => {
  test('the moment is a hundred-thousandth of the half-life (6 s at 168 h), at least 1 ms', () => {
    expect(rankingMomentMs(168 * HOUR)).toBe(6048);
    expect(rankingMomentMs(36 * 1000)).toBe(1);
    expect(rankingMomentMs(10)).toBe(1);
  });

  test('answers what rankOffers answers at the start of the moment, whatever the amounts', () => {
    const stats = snapshotWith('a', 400, 300);
    let now = T0;
    const ranking = rankingWith(
      () => stats,
      () => now,
    );
    for (const [a, b] of [
      ['0.0100', '0.0102'],
      ['0.0200', '0.0150'],
      ['1.5', '0.9'],
    ] as const) {
      now += 1000;
      const offers = { a: offer(a), b: offer(b) };
      const expected = rankOffers(offers, { stats, ...CONTEXT, nowMs: Math.floor(now / MOMENT) * MOMENT, settings: SETTINGS });
      const answered = ranking.attach(offers, CONTEXT);
      expect(Object.fromEntries(Object.entries(answered).map(([code, o]) => [code, o.ranking]))).toEqual(expected);
    }
  });

  test('a request of the same moment and snapshot reuses the estimate and its reasons; a new snapshot is read at once', () => {
    let stats = snapshotWith('a', 400, 300);
    const ranking = rankingWith(
      () => stats,
      () => T0,
    );
    const first = ranking.attach({ a: offer('0.0100') }, CONTEXT);
    const second = ranking.attach({ a: offer('0.0200') }, CONTEXT);
    expect(second.a!.ranking.reasons).toBe(first.a!.ranking.reasons);
    expect(second.a!.ranking.score).not.toBe(first.a!.ranking.score);
    expect(Object.isFrozen(first.a!.ranking.reasons)).toBe(true);

    stats = snapshotWith('a', 400, 100);
    const third = ranking.attach({ a: offer('0.0100') }, CONTEXT);
    expect(third.a!.ranking.completion_rate).toBeLessThan(first.a!.ranking.completion_rate);
    expect(third.a!.ranking.reasons).not.toEqual(first.a!.ranking.reasons);
  });

  test('nothing is shared across integrators, countries, methods or returning customers', () => {
    const stats: StatsSnapshot = {
      levels: snapshotWith('a', 400, 300).levels,
      integrators: new Map([['acme', snapshotWith('a', 400, 100).levels]]),
    };
    const ranking = rankingWith(
      () => stats,
      () => T0,
    );
    const acme = ranking.attach({ a: offer('0.01') }, CONTEXT).a!.ranking;
    const other = ranking.attach({ a: offer('0.01') }, { ...CONTEXT, integratorId: 'other' }).a!.ranking;
    expect(other.completion_rate).toBeGreaterThan(acme.completion_rate);
    const fr = ranking.attach({ a: offer('0.01') }, { ...CONTEXT, country: 'FR' }).a!.ranking;
    expect(fr.reasons).not.toEqual(acme.reasons);
    // Another method: the offer's, when the request named none (estimateMethod picks it).
    const bank = ranking.attach(
      { a: { amount_expected_to: '0.01', payment_methods: [{ payment_method_code: 'bank_transfer' }] } },
      { ...CONTEXT, paymentMethod: undefined },
    ).a!.ranking;
    expect(bank.reasons).not.toEqual(acme.reasons);
    expect(bank.reasons.join()).toContain('bank transfer orders');
    const plain = ranking.attach({ a: offer('100.00') }, CONTEXT).a!.ranking;
    const returning = ranking.attach({ a: offer('100.00') }, { ...CONTEXT, returningProviders: new Set(['a']) }).a!.ranking;
    expect(returning.reasons).not.toEqual(plain.reasons);
    expect(Number(returning.score)).toBeGreaterThan(Number(plain.score));
  });

  test('the next moment makes the estimates again, decayed to it', () => {
    const stats = snapshotWith('a', 40, 30);
    let now = T0;
    const ranking = rankingWith(
      () => stats,
      () => now,
    );
    const before = ranking.attach({ a: offer('0.01') }, CONTEXT).a!.ranking;
    now += 168 * HOUR * 5; // five half-lives: the counts fade toward the prior
    const after = ranking.attach({ a: offer('0.01') }, CONTEXT).a!.ranking;
    expect(after.samples).toBeLessThan(before.samples);
  });

  test('the memo is bounded: past RANKING_MEMO_ENTRIES it starts again', () => {
    const ranking = rankingWith(
      () => EMPTY_SNAPSHOT,
      () => T0,
    );
    for (let i = 0; i <= RANKING_MEMO_ENTRIES; i++) ranking.attach({ a: offer('0.01') }, { ...CONTEXT, integratorId: `i${i}` });
    const memo = (ranking as unknown as { memo: { entries: Map<string, unknown> } }).memo;
    expect(memo.entries.size).toBeLessThanOrEqual(RANKING_MEMO_ENTRIES);
  });
});
