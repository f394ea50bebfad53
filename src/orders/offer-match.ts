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

/** What a sell (off-ramp) order asks of the sell offer it is placed against. */
export interface SellOfferQuery {
  integratorId: string;
  externalUserId: string;
  providerCode: string;
  /** The crypto currency sold (the order's from_currency). */
  crypto: number;
  /** The fiat currency paid out (the order's to_currency). */
  fiat: number;
  /** The crypto amount sold (the order's from_amount), as a decimal string: "0.5" and "0.50" are the same amount. */
  cryptoAmount: string;
  country: string;
  state?: string;
  /** The one payout method the order pays out by. */
  payoutMethod: string;
}

/** The terms of the live sell offer an order matched: what the order records as quoted. */
export interface LiveSellOffer {
  providerCode: string;
  /** The crypto amount the offer was given for, as the offers request wrote it. */
  cryptoAmount: string;
  /** The fiat the customer receives, fees taken off (the offer's amount_expected_to): the order's to_amount. */
  payoutAmount: string;
  /** Every fee, in the fiat currency (the offer's total_fee_amount). */
  totalFeeAmount: string;
  /** The payout methods the offer covered. */
  payoutMethods: string[];
  /** When the offer stops being live (ISO 8601). */
  expiresAt: string;
  /** The end user's IP address given with the offers request, if any: an order without `ip` may use it. */
  ip?: string;
}

/** The sell offer store query of a sell order: the sell side's key, so that no buy offer can match. */
export function sellOfferQueryFor(query: SellOfferQuery): LiveOfferQuery {
  return {
    side: 'sell',
    integratorId: query.integratorId,
    externalUserId: query.externalUserId,
    providerCode: query.providerCode,
    fromCurrency: query.crypto,
    toCurrency: query.fiat,
    amountFrom: query.cryptoAmount,
    country: query.country,
    state: query.state,
    paymentMethod: query.payoutMethod,
  };
}

/**
 * The live sell offer (GET /api/off_ramp/offers) a sell order matches: given to the same integrator
 * and user, for the same provider, crypto and fiat currencies, crypto amount, country, state and a
 * payout method it covered, and not expired. NoLiveOfferError when none does (expired, or never
 * given); StoreUnavailableError (a 503) when the store cannot be reached.
 */
export async function matchingSellOffer(offers: OfferStore, query: SellOfferQuery): Promise<LiveSellOffer> {
  const offer = await offers.findLive(sellOfferQueryFor(query));
  if (!offer) throw new NoLiveOfferError();
  return {
    providerCode: offer.providerCode,
    cryptoAmount: offer.amountFrom,
    payoutAmount: offer.amountExpectedTo,
    // Every sell offer is remembered with its fee.
    totalFeeAmount: offer.totalFeeAmount ?? '0',
    payoutMethods: offer.paymentMethods,
    expiresAt: offer.expiresAt,
    ...(offer.ip === undefined ? {} : { ip: offer.ip }),
  };
}
