/**
 * The order workflow's input, assembled from the accepted request and the offer it matched: the
 * request as the workflow keeps it (currency IDs, the amount at the currency's precision, the offer's
 * crypto amount) and what the order needs besides (its id, integrator, request digest, timings).
 */
import type { OfferTerms } from '../offers/store';
import type { OrderRequest, OrderTimings, OrderWorkflowInput } from '../temporal/order-contract';
import type { AcceptedOrderRequest } from './request';

/** The OrderRequest of an accepted request: the end user's IP address is the offer's when the order names none. */
export function orderRequestFor({ body, fiat, crypto, fromAmount }: AcceptedOrderRequest, offer: OfferTerms): OrderRequest {
  return {
    from_currency: fiat.id,
    from_amount: fromAmount,
    to_currency: crypto.id,
    to_amount: offer.amountExpectedTo,
    wallet_address: body.wallet_address,
    payment_method: body.payment_method,
    country_code: body.country_code,
    state_code: body.state_code,
    external_user_id: body.external_user_id,
    external_order_id: body.external_order_id,
    ip: body.ip ?? offer.ip,
    user_agent: body.user_agent,
    extras: body.extras ?? {},
  };
}

/** The workflow input that starts the order. */
export function orderWorkflowInput(
  request: AcceptedOrderRequest,
  offer: OfferTerms,
  requestHash: string,
  timings: OrderTimings,
): OrderWorkflowInput {
  return {
    orderId: request.orderId,
    integratorId: request.integratorId,
    providerCode: request.body.provider_code,
    requestHash,
    timings,
    request: orderRequestFor(request, offer),
    ...(offer.totalFeeAmount === undefined ? {} : { quote: { total_fee_amount: offer.totalFeeAmount } }),
  };
}
