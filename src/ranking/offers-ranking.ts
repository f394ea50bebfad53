/**
 * The ranking as an offers request uses it: the customer's past providers looked up while the
 * providers quote, then each offer given its `ranking`, the offers in rank order. The statistics
 * are read from the process's snapshot (RankingStats), never from the store per request.
 */
import type { Logger } from '../logging';
import { withRedisDeadline } from '../redis/deadline';
import { rankOffers, type OfferRanking, type RankableOffer, type RankingSettings } from './rank';
import type { RankingStats } from './ranking-stats';

/** Where the providers a customer completed with are kept (the returning-customer store). */
export interface ReturningProviders {
  providersOf(integratorId: string, externalUserId: string): Promise<ReadonlySet<string>>;
}

export interface OffersRankingOptions {
  stats: RankingStats;
  customers?: ReturningProviders;
  /** How long an offers request waits for the customer's past providers beyond its quotes (default 150 ms); then no boost. */
  customersTimeoutMs?: number;
  settings: RankingSettings;
  logger?: Logger;
  now?: () => number;
}

const NONE: ReadonlySet<string> = new Set();

export class OffersRanking {
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
    const rankings = rankOffers(offers, {
      stats: this.options.stats.snapshot(),
      integratorId: context.integratorId,
      country: context.country,
      paymentMethod: context.paymentMethod,
      returningProviders: context.returningProviders,
      nowMs: (this.options.now ?? Date.now)(),
      settings: this.options.settings,
    });
    const ranked: Record<string, T & { ranking: OfferRanking }> = {};
    for (const code of Object.keys(rankings).sort((a, b) => rankings[a]!.rank - rankings[b]!.rank)) {
      ranked[code] = { ...offers[code]!, ranking: rankings[code]! };
    }
    return ranked;
  }
}
