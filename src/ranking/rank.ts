import { z } from 'zod';
import { compareFixed, fixedText, parseFixed, roundFixed, type FixedDecimal } from '../domain/fixed-decimal';
import { decimal } from '../domain/money';
import { estimateForIntegrator, returningCustomerEstimate, type EstimateSettings, type LevelLookup } from './estimate';
import { levelsOf } from './levels';
import { rankingReasons } from './reasons';
import type { StatsSnapshot } from './snapshot';

/** What ranking reads of an offer (src/offers/calculate.ts `Offer` has it). */
export interface RankableOffer {
  amount_expected_to: string;
  payment_methods: readonly { payment_method_code: string }[];
}

export interface RankingSettings extends EstimateSettings {
  /** A returning customer's estimate p becomes p + (1 - p) x this (RANKING_RETURNING_BOOST). */
  returningBoost: number;
}

export interface RankingContext {
  stats: StatsSnapshot;
  /** Whose offers these are: its own orders are the counts it is shown, all integrators' the prior it leans on. */
  integratorId: string;
  /** The customer's country (ISO alpha-2), when known. */
  country?: string;
  /** The payment method the offers were asked for, if any. */
  paymentMethod?: string;
  /** Providers this customer completed an order with before. */
  returningProviders?: ReadonlySet<string>;
  nowMs: number;
  settings: RankingSettings;
  /**
   * What a provider's ranking is, but for its score, by integrator, country, method, provider and
   * whether the customer returns: kept by the caller for one snapshot and one `nowMs`
   * (src/ranking/offers-ranking.ts), so that requests alike share the estimate and its reasons.
   */
  memo?: Map<string, MemoizedRanking>;
}

/** An offer's ranking without its score and rank: what depends on the statistics, not on the offer's amount. */
export interface MemoizedRanking {
  /** The published estimate, without the returning-customer boost. */
  estimated: number;
  /** The published estimate the score is made with (boosted for a returning customer). */
  p: number;
  samples: number;
  /** Frozen: every response the entry serves holds this array. */
  reasons: readonly string[];
}

/** The `ranking` object of one offer (the API's OfferRanking describes each field). */
export const OfferRankingSchema = z.object({
  /** Expected crypto delivered: amount_expected_to x the completion estimate (boosted for a returning customer), rounded down to the amount's places. */
  score: z.string().regex(/^\d+(\.\d+)?$/),
  /** 1 for the highest score. */
  rank: z.number().int().min(1),
  /** The completion estimate without the returning-customer boost, in whole percent (publishedP). */
  completion_rate: z.number().min(0).max(1),
  /** The requesting integrator's own decayed orders (rounded) at the level the estimate is for; never other integrators'. */
  samples: z.number().int().min(0),
  reasons: z.array(z.string()),
  recommended: z.boolean(),
});
export type OfferRanking = z.infer<typeof OfferRankingSchema>;

/**
 * The method an offer's estimate is made for. The one asked for when the offer has it; otherwise,
 * when the request covered several methods, the best-known one: the method with the most (decayed)
 * orders of the integrator's own at its most specific level, then (a tie, as when it has none) the
 * most of all integrators', the first listed on a tie. The customer picks the method later, and the
 * method most orders with this provider went through is the likeliest pick and the estimate least
 * left to smoothing; averaging the methods would blur a well-known rate with guesses. No method at
 * all: the provider's own level.
 */
export function estimateMethod(
  offer: RankableOffer,
  providerCode: string,
  country: string | undefined,
  asked: string | undefined,
  shared: LevelLookup,
  own?: LevelLookup,
): string | undefined {
  const methods = offer.payment_methods.map((m) => m.payment_method_code);
  if (asked !== undefined && (methods.length === 0 || methods.includes(asked))) return asked;
  if (methods.length <= 1) return methods[0];
  let best = methods[0];
  let bestOwn = -1;
  let bestShared = -1;
  for (const method of methods) {
    const key = levelsOf(providerCode, country, method)[0]!.key;
    const ownAttempts = own?.(key)?.attempts ?? 0;
    const sharedAttempts = shared(key)?.attempts ?? 0;
    if (ownAttempts > bestOwn || (ownAttempts === bestOwn && sharedAttempts > bestShared)) {
      [best, bestOwn, bestShared] = [method, ownAttempts, sharedAttempts];
    }
  }
  return best;
}

/**
 * The completion estimate is published, and scores with, in whole percent. A finer p would tell
 * another integrator how many orders all integrators sent: an integrator with no orders of its own
 * reads the shared rate, and one outcome moves it by about p / (n + K), so two answers a refresh
 * apart, read to the score's eight places, give n. In whole percent one outcome is invisible once a
 * level has more than about a hundred orders; only a crossing of a percent boundary shows.
 */
export function publishedP(p: number): number {
  // As the reasons' percent(): a p below 1 is never published as certain, nor one above 0 as none.
  return Math.min(Math.max(Math.round(p * 100), p > 0 ? 1 : 0), p < 1 ? 99 : 100) / 100;
}

/** The places p is taken to: p is in [0, 1], so p x 10^15 is an integer a double holds exactly. */
const P_PLACES = 15;
const P_UNIT = 10 ** P_PLACES;

/**
 * `amount x p` rounded down to the amount's places (the expected crypto is never overstated), in
 * exact decimals: the amount as an integer of its smallest units (src/domain/fixed-decimal.ts, the
 * offers' own fast path; an amount not written plainly goes through bignumber.js first), p to 15 places.
 */
function scoreOf(amountText: string, p: number): { amount: FixedDecimal; score: FixedDecimal } {
  const amount = parseFixed(amountText) ?? parseFixed(decimal(amountText).toFixed())!;
  const product = { units: amount.units * BigInt(Math.round(p * P_UNIT)), scale: amount.scale + P_PLACES };
  return { amount, score: roundFixed(product, amount.scale, 'down') };
}

/** Offers in rank order: highest score first, then the larger amount, then the provider code. */
function byRank(a: Ranked, b: Ranked): number {
  return compareFixed(b.score, a.score) || compareFixed(b.amount, a.amount) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

interface Ranked {
  code: string;
  amount: FixedDecimal;
  score: FixedDecimal;
  ranking: Omit<OfferRanking, 'rank' | 'recommended'>;
}

/**
 * Scores and ranks offers (provider code → offer) by the crypto each is expected to deliver:
 * `amount_expected_to x p`, p the integrator's completion estimate for the provider, country and
 * method (src/ranking/estimate.ts: its own orders smoothed toward all integrators'), raised for a
 * provider the customer completed with before. Amounts are exact decimals; only p is a float.
 * Answers each provider's `ranking`, rank 1 recommended.
 */
export function rankOffers(offers: Readonly<Record<string, RankableOffer>>, context: RankingContext): Record<string, OfferRanking> {
  const { stats, integratorId, country, paymentMethod, returningProviders, nowMs, settings, memo } = context;
  const shared: LevelLookup = (key) => stats.levels.get(key);
  const ownLevels = stats.integrators.get(integratorId);
  const own: LevelLookup | undefined = ownLevels && ((key) => ownLevels.get(key));
  const enough = Math.max(settings.priorWeight, 1);
  const ranked: Ranked[] = [];
  for (const [code, offer] of Object.entries(offers)) {
    const method = estimateMethod(offer, code, country, paymentMethod, shared, own);
    const returning = returningProviders?.has(code) ?? false;
    const key = memo && `${integratorId}\u0000${country ?? ''}\u0000${method ?? ''}\u0000${code}\u0000${returning ? 1 : 0}`;
    let known = key === undefined ? undefined : memo!.get(key);
    if (!known) {
      const estimate = estimateForIntegrator(shared, own, code, country, method, nowMs, settings);
      const estimated = publishedP(estimate.p);
      known = {
        estimated,
        p: returning ? publishedP(returningCustomerEstimate(estimated, settings.returningBoost)) : estimated,
        samples: estimate.samples,
        reasons: Object.freeze(rankingReasons({ estimate, country, method, enough, returning })),
      };
      if (key !== undefined) memo!.set(key, known);
    }
    const { amount, score } = scoreOf(offer.amount_expected_to, known.p);
    ranked.push({
      code,
      amount,
      score,
      ranking: {
        score: fixedText(score, score.scale),
        completion_rate: known.estimated,
        samples: known.samples,
        // Frozen and shared by every response the entry serves: serialized, never changed.
        reasons: known.reasons as string[],
      },
    });
  }
  ranked.sort(byRank);
  const rankings: Record<string, OfferRanking> = {};
  ranked.forEach((entry, i) => {
    const { score, completion_rate, samples, reasons } = entry.ranking;
    rankings[entry.code] = { score, rank: i + 1, completion_rate, samples, reasons, recommended: i === 0 };
  });
  return rankings;
}
