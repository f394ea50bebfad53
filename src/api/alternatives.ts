/**
 * When an order cannot be created because its provider is unavailable, the other offers of the same
 * request that are still live (the same integrator, user, currencies, amount, country, state and
 * payment method, another provider), ranked: the integrator can ask its customer to choose again
 * without a new offers round. Each is one the same order request, with its `provider_code`
 * changed, would be accepted against.
 */
import { z } from 'zod';
import type { LiveOfferQuery, OfferStore } from '../offers/store';
import type { OffersRanking } from '../ranking/offers-ranking';
import { OfferRankingSchema } from '../ranking/rank';

export const AlternativeOfferSchema = z.object({
  provider_code: z.string(),
  amount_from: z.string(),
  amount_expected_to: z.string(),
  payment_methods: z.array(z.object({ payment_method_code: z.string() })),
  expires_at: z.iso.datetime(),
  ranking: OfferRankingSchema.optional(),
});
export type AlternativeOffer = z.infer<typeof AlternativeOfferSchema>;

export interface AlternativesDeps {
  offers: OfferStore;
  /** Every enabled provider's code. */
  providerCodes: readonly string[];
  ranking: OffersRanking;
}

/** The live offers of `query`'s request from providers other than its own, best first; none when the store cannot be read. */
export async function alternativeOffers(deps: AlternativesDeps, query: LiveOfferQuery): Promise<AlternativeOffer[]> {
  const others = deps.providerCodes.filter((code) => code !== query.providerCode);
  const found = await Promise.all(others.map((providerCode) => deps.offers.findLive({ ...query, providerCode }).catch(() => undefined)));
  const live: Record<string, Omit<AlternativeOffer, 'provider_code'>> = {};
  for (const terms of found) {
    if (!terms) continue;
    live[terms.providerCode] = {
      amount_from: terms.amountFrom,
      amount_expected_to: terms.amountExpectedTo,
      payment_methods: terms.paymentMethods.map((payment_method_code) => ({ payment_method_code })),
      expires_at: terms.expiresAt,
    };
  }
  const returning = await deps.ranking.returningProviders(query.integratorId, query.externalUserId);
  const ranked = deps.ranking.attach(live, {
    integratorId: query.integratorId,
    country: query.country,
    paymentMethod: query.paymentMethod,
    returningProviders: returning,
  });
  return Object.entries(ranked).map(([provider_code, offer]) => ({ provider_code, ...offer }));
}
