/**
 * The ranking as an offers request uses it: the customer's past providers looked up while the
 * providers quote, then each offer given its `ranking`, the offers in rank order. The statistics
 * are read from the process's snapshot (RankingStats), never from the store per request.
 */
import type { Logger } from '../logging';
import { withRedisDeadline } from '../redis/deadline';
import { rankOffers, type MemoizedRanking, type OfferRanking, type RankableOffer, type RankingSettings } from './rank';
import type { RankingStats } from './ranking-stats';
import type { StatsSnapshot } from './snapshot';

/** Where the providers a customer completed with are kept (the returning-customer store). */
export interface ReturningProviders {
  providersOf(integratorId: string, externalUserId: string): Promise<ReadonlySet<string>>;
}

export interface OffersRankingOptions {
  stats: Pick<RankingStats, 'snapshot'>;
  customers?: ReturningProviders;
  /** How long an offers request waits for the customer's past providers beyond its quotes (default 150 ms); then no boost. */
  customersTimeoutMs?: number;
  settings: RankingSettings;
  logger?: Logger;
  now?: () => number;
}

const NONE: ReadonlySet<string> = new Set();

/** Rankings kept at most per snapshot and moment; past it the memo starts again (a burst of distinct customers' countries and methods). */
export const RANKING_MEMO_ENTRIES = 10_000;

/**
 * How far apart the moments the estimates are made for may be: a hundred-thousandth of the
 * half-life, over which the decay moves every count by less than 7 parts in a million (168 h: 6 s).
 * Requests within it share their estimates; the published estimate is in whole percent.
 */
export function rankingMomentMs(halfLifeMs: number): number {
  return Math.max(1, Math.floor(halfLifeMs / 100_000));
}

export class OffersRanking {
  /** Each provider's ranking but its score, for the current snapshot and moment (rankOffers `memo`). */
  private memo: { stats?: StatsSnapshot; moment: number; entries: Map<string, MemoizedRanking> } = { moment: NaN, entries: new Map() };

  constructor(private readonly options: OffersRankingOptions) {}

  /** The providers the customer completed with; none when the store fails (logged): ranking is advice. */
  returningProviders(integratorId: string, externalUserId: string): Promise<ReadonlySet<string>> {
    const { customers, logger } = this.options;
    if (!customers) return Promise.resolve(NONE);
    const lookup = customers.providersOf(integratorId, externalUserId);
    return withRedisDeadline(lookup, this.options.customersTimeoutMs ?? 150).catch((err: unknown) => {
      logger?.warn({ err: (err as Error).message }, 'ranking: the returning-customer store could not be read; no boost');
      return NONE;
    });
  }

  /** The offers, each with its `ranking` for `integratorId` (its own counts, all integrators' as the prior), highest rank first. */
  attach<T extends RankableOffer>(
    offers: Readonly<Record<string, T>>,
    context: { integratorId: string; country?: string; paymentMethod?: string; returningProviders: ReadonlySet<string> },
  ): Record<string, T & { ranking: OfferRanking }> {
    const { settings } = this.options;
    const stats = this.options.stats.snapshot();
    // The estimates are made for the start of the moment the request falls in, so that every
    // request of that moment and snapshot shares them: only the score depends on the offer.
    const momentMs = rankingMomentMs(settings.halfLifeMs);
    const moment = Math.floor((this.options.now ?? Date.now)() / momentMs);
    const memo = this.memo;
    if (memo.stats !== stats || memo.moment !== moment || memo.entries.size >= RANKING_MEMO_ENTRIES) {
      this.memo = { stats, moment, entries: new Map() };
    }
    const rankings = rankOffers(offers, {
      stats,
      integratorId: context.integratorId,
      country: context.country,
      paymentMethod: context.paymentMethod,
      returningProviders: context.returningProviders,
      nowMs: moment * momentMs,
      settings,
      memo: this.memo.entries,
    });
    const ranked: Record<string, T & { ranking: OfferRanking }> = {};
    for (const code of Object.keys(rankings).sort((a, b) => rankings[a]!.rank - rankings[b]!.rank)) {
      ranked[code] = { ...offers[code]!, ranking: rankings[code]! };
    }
    return ranked;
  }
}
