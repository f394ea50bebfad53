/**
 * The offer an order is placed against: a live offer given to the same integrator and user, for the
 * same provider, currencies, amount, country, state and payment method (src/offers/store.ts).
 */
import type { LiveOfferQuery, OfferStore, OfferTerms } from '../offers/store';
import { NoLiveOfferError } from './errors';
import type { AcceptedOrderRequest } from './request';

/** The terms an accepted request's offer must have. */
export function offerQueryFor({ integratorId, body, fiat, crypto, fromAmount, state }: AcceptedOrderRequest): LiveOfferQuery {
  return {
    integratorId,
    externalUserId: body.external_user_id,
    providerCode: body.provider_code,
    fromCurrency: fiat.id,
    toCurrency: crypto.id,
    amountFrom: fromAmount,
    country: body.country_code,
    state,
    paymentMethod: body.payment_method,
  };
}

/** The live offer the request matches; NoLiveOfferError when none does (expired, or never given). */
export async function matchingOffer(offers: OfferStore, request: AcceptedOrderRequest): Promise<OfferTerms> {
  const offer = await offers.findLive(offerQueryFor(request));
  if (!offer) throw new NoLiveOfferError();
  return offer;
}
